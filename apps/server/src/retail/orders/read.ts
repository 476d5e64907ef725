/** An order as stored and as the API shows it, and the reads that find orders. */
import {
  notFound,
  type Currency,
  type OrderFlag,
  type QuantityUnit,
  type ReceiptDocument,
  type RetailOrderStatus,
  type TaxClass,
  type VatRegion,
  type WireDiscount,
} from '@tz/core';
import type { Tenant } from '../../actor.ts';
import type { Queryable } from '../../db/database.ts';
import { listPage, type ListQuery } from '../../db/list-page.ts';
import { unixOrNull, unixSeconds } from '../../infra/time.ts';
import { invalid } from '../shared.ts';

export interface OrderRow {
  id: string;
  livemode: boolean;
  store_id: string;
  till: string | null;
  till_id: string | null;
  cashier: string | null;
  shift_id: string | null;
  client_order_id: string | null;
  receipt_number: string;
  status: RetailOrderStatus;
  currency: Currency;
  vat_region: VatRegion;
  customer_id: string | null;
  gross_total: number;
  line_discount_total: number;
  subtotal: number;
  discount_rule: WireDiscount | null;
  order_discount: number;
  total: number;
  tax_total: number;
  tax_breakdown: Array<{ rate_basis_points: number; gross: number; net: number; tax: number }>;
  amount_tendered: number;
  change_due: number;
  refunded_amount: number;
  receipt: ReceiptDocument;
  metadata: Record<string, string>;
  void_reason: string | null;
  flags: OrderFlag[];
  created_at: Date;
  paid_at: Date | null;
  voided_at: Date | null;
}

export interface LineRow {
  position: number;
  product_id: string;
  variant_id: string | null;
  description: string;
  sku: string | null;
  unit: QuantityUnit;
  quantity_milli: number;
  refunded_quantity_milli: number;
  refunded_amount: number;
  tax_rate: TaxClass | null;
  tax_rate_basis_points: number;
  list_unit_price: number;
  unit_price: number;
  price_override_reason: string | null;
  discount_rule: WireDiscount | null;
  gross: number;
  line_discount: number;
  order_discount: number;
  total: number;
  tax: number;
}

export interface TenderRow {
  position: number;
  method: 'cash' | 'mobile_money' | 'card' | 'room';
  amount: number;
  paid: number;
  payment_id: string | null;
  /** A sale charged to a room: the stay. */
  reservation_id: string | null;
  network: string | null;
  reference: string | null;
}

interface RefundRow {
  id: string;
  amount: number;
  tax: number;
  lines: Array<{ line: number; quantity_milli: number; amount: number; tax: number }>;
  restocked: boolean;
  reason: string | null;
  created_at: string;
}

export interface OrderParts {
  lines: LineRow[];
  tenders: TenderRow[];
  refunds: RefundRow[];
}

export const orderObject = (row: OrderRow, parts: OrderParts) => ({
  id: row.id,
  object: 'order' as const,
  status: row.status,
  store: row.store_id,
  till: row.till,
  cashier: row.cashier,
  shift: row.shift_id,
  client_order_id: row.client_order_id,
  receipt_number: row.receipt_number,
  currency: row.currency,
  vat_region: row.vat_region,
  customer: row.customer_id,
  lines: parts.lines.map((line) => ({
    line: line.position,
    product: line.product_id,
    variant: line.variant_id,
    description: line.description,
    sku: line.sku,
    unit: line.unit,
    quantity_milli: line.quantity_milli,
    list_unit_price: line.list_unit_price,
    unit_price: line.unit_price,
    price_override:
      line.price_override_reason === null
        ? null
        : { unit_price: line.unit_price, reason: line.price_override_reason },
    discount: line.discount_rule,
    gross: line.gross,
    line_discount: line.line_discount,
    subtotal: line.gross - line.line_discount,
    order_discount: line.order_discount,
    total: line.total,
    tax_rate: line.tax_rate,
    tax_rate_basis_points: line.tax_rate_basis_points,
    tax: line.tax,
    net: line.total - line.tax,
    refunded_quantity_milli: line.refunded_quantity_milli,
    refunded_amount: line.refunded_amount,
  })),
  gross_total: row.gross_total,
  line_discount_total: row.line_discount_total,
  subtotal: row.subtotal,
  discount: row.discount_rule,
  order_discount: row.order_discount,
  total: row.total,
  tax_total: row.tax_total,
  net_total: row.total - row.tax_total,
  tax_breakdown: row.tax_breakdown,
  tenders: parts.tenders.map((tender) => ({
    method: tender.method,
    amount: tender.amount,
    paid: tender.paid,
    payment: tender.payment_id,
    reservation: tender.reservation_id,
    network: tender.network,
    reference: tender.reference,
  })),
  amount_tendered: row.amount_tendered,
  change_due: row.change_due,
  refunded_amount: row.refunded_amount,
  refunds: parts.refunds.map((refund) => ({
    id: refund.id,
    object: 'order_refund' as const,
    amount: refund.amount,
    tax: refund.tax,
    lines: refund.lines,
    restocked: refund.restocked,
    reason: refund.reason,
    created: unixSeconds(new Date(refund.created_at)),
  })),
  receipt: row.receipt,
  metadata: row.metadata,
  void_reason: row.void_reason,
  flags: row.flags,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  paid_at: unixOrNull(row.paid_at),
  voided_at: unixOrNull(row.voided_at),
});
export type OrderObject = ReturnType<typeof orderObject>;

const PARTS_SQL = `
  (SELECT coalesce(json_agg(l ORDER BY l.position), '[]') FROM retail_order_lines l WHERE l.order_id = o.id) AS lines,
  (SELECT coalesce(json_agg(t ORDER BY t.position), '[]') FROM retail_order_tenders t WHERE t.order_id = o.id) AS tenders,
  (SELECT coalesce(json_agg(r ORDER BY r.seq), '[]') FROM retail_refunds r WHERE r.order_id = o.id) AS refunds`;

export async function findOrder(
  db: Queryable,
  tenant: Tenant,
  by: 'id' | 'client_order_id',
  value: string,
): Promise<OrderObject | undefined> {
  const found = await db.query<OrderRow & OrderParts>(
    `SELECT o.*, ${PARTS_SQL} FROM retail_orders o WHERE o.${by} = $1 AND o.merchant_id = $2 AND o.livemode = $3`,
    [value, tenant.merchantId, tenant.livemode],
  );
  const row = found.rows[0];
  return row ? orderObject(row, row) : undefined;
}

/** How a till names an order it refunds or voids: by id, or by its own id for a sale it made offline. */
export interface OrderReference {
  order?: string | undefined;
  client_order_id?: string | undefined;
}

/** The id of the order a reference names, or resource_missing. */
export async function findOrderId(db: Queryable, tenant: Tenant, ref: OrderReference): Promise<string> {
  const [by, value] =
    ref.order !== undefined
      ? (['id', ref.order] as const)
      : ref.client_order_id !== undefined
        ? (['client_order_id', ref.client_order_id] as const)
        : [];
  if (by === undefined) throw invalid('parameter_missing', 'order', 'give order or client_order_id');
  const found = await db.query<{ id: string }>(
    `SELECT id FROM retail_orders WHERE ${by} = $1 AND merchant_id = $2 AND livemode = $3`,
    [value, tenant.merchantId, tenant.livemode],
  );
  if (!found.rows[0]) throw notFound('order', value);
  return found.rows[0].id;
}

export async function retrieveOrder(db: Queryable, tenant: Tenant, id: string): Promise<OrderObject> {
  const order = await findOrder(db, tenant, 'id', id);
  if (!order) throw notFound('order', id);
  return order;
}

export interface OrderFilters {
  store?: string | undefined;
  status?: RetailOrderStatus | undefined;
  customer?: string | undefined;
  receipt_number?: string | undefined;
  till?: string | undefined;
  cashier?: string | undefined;
}

export async function listOrders(db: Queryable, tenant: Tenant, filters: OrderFilters, query: ListQuery) {
  const params: unknown[] = [tenant.merchantId, tenant.livemode];
  let where = 'merchant_id = $1 AND livemode = $2';
  if (filters.store) where += ` AND store_id = $${params.push(filters.store)}`;
  if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
  if (filters.customer) where += ` AND customer_id = $${params.push(filters.customer)}`;
  if (filters.receipt_number) where += ` AND receipt_number = $${params.push(filters.receipt_number)}`;
  if (filters.till) where += ` AND till_id = $${params.push(filters.till)}`;
  if (filters.cashier) where += ` AND cashier = $${params.push(filters.cashier)}`;
  const page = await listPage(db, { table: 'retail_orders', where, params }, query, (row: OrderRow) => row);
  const parts = await db.query<OrderParts & { id: string }>(
    `SELECT o.id, ${PARTS_SQL} FROM unnest($1::text[]) AS o(id)`,
    [page.data.map((row) => row.id)],
  );
  const byId = new Map(parts.rows.map((row) => [row.id, row]));
  return { ...page, data: page.data.map((row) => orderObject(row, byId.get(row.id)!)) };
}
