/** Writing a sale: its order row, lines and tenders, and its stock moves, in one statement. */
import {
  newId,
  ORDER_FLAGS,
  transitionRetailOrder,
  type CreateOrderCommand,
  type ReceiptDocument,
} from '@tz/core';
import type { Tenant } from '../../actor.ts';
import type { Queryable } from '../../db/database.ts';
import { invalid } from '../shared.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { stockMoveCtes, type StockPlan } from '../stock.ts';
import type { LineRow, OrderRow, TenderRow } from './read.ts';
import type { ResolvedSale } from './sale.ts';

export interface SaleRecords {
  order: Omit<OrderRow, 'created_at'>;
  lines: LineRow[];
  tenders: TenderRow[];
}

/** Everything the order holds, built once: written, then answered with. */
export function saleRecords(
  tenant: Tenant,
  tillId: string | undefined,
  input: CreateOrderCommand,
  sale: ResolvedSale,
  written: { receiptNumber: string; receipt: ReceiptDocument; paidAt: Date },
): SaleRecords {
  const lineRecords = sale.priced.lines.map((line, position): LineRow => ({
    position,
    product_id: line.productId,
    variant_id: line.variantId ?? null,
    description: line.description,
    sku: sale.lines[position]!.sku,
    unit: line.unit,
    quantity_milli: line.quantityMilli,
    tax_rate: sale.lines[position]!.taxClass,
    tax_rate_basis_points: line.taxRateBasisPoints,
    list_unit_price: line.listUnitPrice,
    unit_price: line.unitPrice,
    price_override_reason: line.priceOverride?.reason ?? null,
    discount_rule: input.lines[position]!.discount ?? null,
    gross: line.gross,
    line_discount: line.lineDiscount,
    order_discount: line.orderDiscount,
    total: line.total,
    tax: line.tax,
    refunded_quantity_milli: 0,
    refunded_amount: 0,
  }));
  const tenderRecords = sale.allocation.tenders.map((tender, position): TenderRow => ({
    position,
    method: tender.method,
    amount: tender.amount,
    paid: tender.paid,
    payment_id: tender.method === 'mobile_money' ? tender.paymentId : null,
    reservation_id: tender.method === 'room' ? tender.reservation : null,
    network: tender.method === 'mobile_money' ? (tender.network ?? null) : null,
    reference: tender.method === 'card' ? tender.reference : null,
  }));
  const order: Omit<OrderRow, 'created_at'> = {
    id: newId('order'),
    livemode: tenant.livemode,
    store_id: sale.store.id,
    till: input.till ?? null,
    till_id: tillId ?? null,
    cashier: input.cashier ?? null,
    shift_id: input.shift ?? null,
    client_order_id: input.client_order_id ?? null,
    receipt_number: written.receiptNumber,
    status: transitionRetailOrder('open', 'paid'),
    currency: sale.currency,
    vat_region: sale.store.vat_region,
    customer_id: sale.customerId,
    gross_total: sale.priced.grossTotal,
    line_discount_total: sale.priced.lineDiscountTotal,
    subtotal: sale.priced.subtotal,
    discount_rule: input.discount ?? null,
    order_discount: sale.priced.orderDiscount,
    total: sale.priced.total,
    tax_total: sale.priced.taxTotal,
    tax_breakdown: sale.priced.taxBreakdown.map((group) => ({
      rate_basis_points: group.rateBasisPoints,
      gross: group.gross,
      net: group.net,
      tax: group.tax,
    })),
    amount_tendered: sale.allocation.tendered,
    change_due: sale.allocation.change,
    refunded_amount: 0,
    receipt: written.receipt,
    metadata: input.metadata ?? {},
    void_reason: null,
    flags: ORDER_FLAGS.filter((flag) => sale.flags.has(flag)),
    paid_at: written.paidAt,
    voided_at: null,
  };
  return { order, lines: lineRecords, tenders: tenderRecords };
}

/**
 * Inserts the order, its lines and tenders, and moves stock, only when the
 * order row went in: the order's creation time, or undefined when its client
 * order id or receipt number is already taken.
 */
export async function insertSale(
  db: Queryable,
  tenant: Tenant,
  records: SaleRecords,
  stockPlan: StockPlan,
): Promise<Date | undefined> {
  const { order, lines: lineRecords, tenders: tenderRecords } = records;
  const params: unknown[] = [
    order.id,
    tenant.merchantId,
    tenant.livemode,
    order.store_id,
    order.till,
    order.cashier,
    order.client_order_id,
    order.receipt_number,
    order.status,
    order.currency,
    order.vat_region,
    order.customer_id,
    order.gross_total,
    order.line_discount_total,
    order.subtotal,
    order.discount_rule ? JSON.stringify(order.discount_rule) : null,
    order.order_discount,
    order.total,
    order.tax_total,
    JSON.stringify(order.tax_breakdown),
    order.amount_tendered,
    order.change_due,
    JSON.stringify(order.receipt),
    JSON.stringify(order.metadata),
    order.paid_at,
    JSON.stringify(lineRecords),
    JSON.stringify(tenderRecords),
    order.shift_id,
    order.till_id,
    order.flags,
  ];
  // Stock moves in the same statement, and only when the order row went in.
  const stock =
    stockPlan.movements.length > 0
      ? stockMoveCtes(params, tenant, stockPlan, { reason: 'sale', orderId: order.id }, 'o')
      : null;
  try {
    const inserted = await db.query<{ created_at: Date }>({
      // Prepared once per connection: planned once, not per sale.
      name: stock ? 'retail_order_insert_with_stock' : 'retail_order_insert',
      text: `WITH o AS (
         INSERT INTO retail_orders (id, merchant_id, livemode, store_id, till, cashier, client_order_id, receipt_number,
           status, currency, vat_region, customer_id, gross_total, line_discount_total, subtotal, discount_rule,
           order_discount, total, tax_total, tax_breakdown, amount_tendered, change_due, receipt, metadata, paid_at, shift_id,
           till_id, flags)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23,
           $24, $25, $28, $29, $30::text[])
         ON CONFLICT DO NOTHING RETURNING id, created_at
       ), lines AS (
         INSERT INTO retail_order_lines (order_id, position, product_id, variant_id, description, sku, unit, quantity_milli,
           tax_rate, tax_rate_basis_points, list_unit_price, unit_price, price_override_reason, discount_rule, gross,
           line_discount, order_discount, total, tax)
         SELECT o.id, x.position, x.product_id, x.variant_id, x.description, x.sku, x.unit, x.quantity_milli, x.tax_rate,
           x.tax_rate_basis_points, x.list_unit_price, x.unit_price, x.price_override_reason, x.discount_rule, x.gross,
           x.line_discount, x.order_discount, x.total, x.tax
         FROM o, json_to_recordset($26::json) AS x(position int, product_id text, variant_id text, description text,
           sku text, unit text, quantity_milli bigint, tax_rate text, tax_rate_basis_points int, list_unit_price bigint,
           unit_price bigint, price_override_reason text, discount_rule jsonb, gross bigint, line_discount bigint,
           order_discount bigint, total bigint, tax bigint)
       ), tenders AS (
         INSERT INTO retail_order_tenders (order_id, position, method, amount, paid, payment_id, network, reference,
           reservation_id)
         SELECT o.id, y.position, y.method, y.amount, y.paid, y.payment_id, y.network, y.reference, y.reservation_id
         FROM o, json_to_recordset($27::json) AS y(position int, method text, amount bigint, paid bigint,
           payment_id text, network text, reference text, reservation_id text)
       )${stock ? `, ${stock}` : ''}
       SELECT created_at FROM o`,
      values: params,
    });
    return inserted.rows[0]?.created_at;
  } catch (error) {
    if (isUniqueViolation(error, 'retail_order_tenders_payment')) {
      throw invalid(
        'payment_already_used',
        'tenders',
        'a mobile money payment already pays for another order',
      );
    }
    throw error;
  }
}
