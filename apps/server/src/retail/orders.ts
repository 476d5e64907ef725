import {
  allocateTenders,
  buildRetailReceipt,
  formatReceiptNumber,
  newId,
  notFound,
  parseReceiptNumber,
  planRefund,
  priceCart,
  remainingRefundLines,
  statusAfterRefundPlan,
  TILL_CLOCK_LEEWAY_SECONDS,
  transitionRetailOrder,
  type CartLineInput,
  type CreateOrderCommand,
  type OrderLineInput,
  type OrderTenderInput,
  type RefundOrderCommand,
  type VoidOrderCommand,
  type WireDiscount,
  type Currency,
  type Discount,
  type PaymentId,
  type ProductId,
  type QuantityUnit,
  type ReceiptDocument,
  type RefundableLine,
  type RetailOrderStatus,
  type TaxClass,
  type TenderInput,
  type VariantId,
  type VatRegion,
  type OrderFlag,
  ORDER_FLAGS,
} from '@tz/core';
import type { Actor, Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { listPage, type ListQuery } from '../db/list-page.ts';
import { recordEvent } from '../services/events.ts';
import { unixOrNull, unixSeconds } from '../services/time.ts';
import { applyRule, invalid, isUniqueViolation } from './shared.ts';
import {
  moveStockForOrder,
  planStockMoves,
  recordLowStock,
  stockMoveCtes,
  type LockedLevel,
  type SoldItem,
} from './stock.ts';
import { defaultStore, receiptSequenceName, receiptSettings, type StoreRow } from './stores.ts';

// -------------------------------------------------------------------- wire

export type CreateOrderInput = CreateOrderCommand;

/** A time a till stamped (unix seconds), refused when ahead of the server's clock by more than the leeway. */
function tillTime(seconds: number | undefined, field: string, now: Date): Date | undefined {
  if (seconds === undefined) return undefined;
  if (seconds > now.getTime() / 1000 + TILL_CLOCK_LEEWAY_SECONDS) {
    throw invalid('parameter_invalid', field, 'is in the future');
  }
  return new Date(seconds * 1000);
}

const coreDiscount = (discount: WireDiscount | undefined): Discount | undefined =>
  discount === undefined
    ? undefined
    : discount.type === 'percent'
      ? { type: 'percent', basisPoints: discount.basis_points }
      : { type: 'amount', amount: discount.amount };

// -------------------------------------------------------------------- rows

interface OrderRow {
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

interface LineRow {
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

interface TenderRow {
  position: number;
  method: 'cash' | 'mobile_money' | 'card';
  amount: number;
  paid: number;
  payment_id: string | null;
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

interface OrderParts {
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

async function findOrder(
  db: Queryable,
  scope: Tenant,
  by: 'id' | 'client_order_id',
  value: string,
): Promise<OrderObject | undefined> {
  const found = await db.query<OrderRow & OrderParts>(
    `SELECT o.*, ${PARTS_SQL} FROM retail_orders o WHERE o.${by} = $1 AND o.merchant_id = $2 AND o.livemode = $3`,
    [value, scope.merchantId, scope.livemode],
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
export async function findOrderId(db: Queryable, scope: Tenant, ref: OrderReference): Promise<string> {
  const [by, value] =
    ref.order !== undefined
      ? (['id', ref.order] as const)
      : ref.client_order_id !== undefined
        ? (['client_order_id', ref.client_order_id] as const)
        : [];
  if (by === undefined) throw invalid('parameter_missing', 'order', 'give order or client_order_id');
  const found = await db.query<{ id: string }>(
    `SELECT id FROM retail_orders WHERE ${by} = $1 AND merchant_id = $2 AND livemode = $3`,
    [value, scope.merchantId, scope.livemode],
  );
  if (!found.rows[0]) throw notFound('order', value);
  return found.rows[0].id;
}

export async function retrieveOrder(db: Queryable, scope: Tenant, id: string): Promise<OrderObject> {
  const order = await findOrder(db, scope, 'id', id);
  if (!order) throw notFound('order', id);
  return order;
}

export interface OrderFilters {
  store?: string | undefined;
  status?: RetailOrderStatus | undefined;
  customer?: string | undefined;
  receipt_number?: string | undefined;
}

export async function listOrders(db: Queryable, scope: Tenant, filters: OrderFilters, query: ListQuery) {
  const params: unknown[] = [scope.merchantId, scope.livemode];
  let where = 'merchant_id = $1 AND livemode = $2';
  if (filters.store) where += ` AND store_id = $${params.push(filters.store)}`;
  if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
  if (filters.customer) where += ` AND customer_id = $${params.push(filters.customer)}`;
  if (filters.receipt_number) where += ` AND receipt_number = $${params.push(filters.receipt_number)}`;
  const page = await listPage(db, { table: 'retail_orders', where, params }, query, (row: OrderRow) => row);
  const parts = await db.query<OrderParts & { id: string }>(
    `SELECT o.id, ${PARTS_SQL} FROM unnest($1::text[]) AS o(id)`,
    [page.data.map((row) => row.id)],
  );
  const byId = new Map(parts.rows.map((row) => [row.id, row]));
  return { ...page, data: page.data.map((row) => orderObject(row, byId.get(row.id)!)) };
}

// ------------------------------------------------------------------ create

interface CatalogItem {
  id: string;
  name: string;
  sku: string | null;
  price: number;
  currency: Currency;
  tax_rate: TaxClass;
  unit: QuantityUnit;
  track_stock: boolean;
  /** Deleted or made inactive: an API key may not sell it; a till's sale of it stands, flagged. */
  unavailable: boolean;
  deleted: boolean;
  variants: Array<{
    id: string;
    name: string;
    sku: string | null;
    price: number;
    deleted: boolean;
    unavailable: boolean;
  }>;
}

type SaleStore = Omit<StoreRow, 'created_at' | 'updated_at'>;

interface SaleContext {
  /** The order already recorded under this client order id. */
  existing: string | null;
  store: SaleStore | null;
  /** The store's stock levels of the products sold, locked in one order so concurrent sales never deadlock. */
  levels: LockedLevel[];
  customer: { name: string | null } | null;
  catalog: Map<string, CatalogItem>;
  /** The next number of the store's server-given receipts, when the sale brings none of its own. */
  receiptSequence: number | null;
}

/** Everything a sale reads before it writes, in one round trip: a till waits on every one. */
async function loadSaleContext(
  db: Queryable,
  scope: Tenant,
  input: CreateOrderInput,
  storeId: string | undefined,
): Promise<SaleContext> {
  const found = await db.query<{
    existing: string | null;
    store: SaleStore | null;
    customer: { name: string | null } | null;
    products: CatalogItem[];
    levels: LockedLevel[];
    receipt_sequence: number | null;
  }>({
    // Prepared once per connection: the sale's two big statements are planned once, not per sale.
    name: `retail_sale_context_${storeId === undefined ? 'default' : 'store'}`,
    text: `WITH store AS (
       SELECT * FROM retail_stores s WHERE s.merchant_id = $1 AND s.livemode = $2
         AND ${storeId === undefined ? 's.is_default AND $4::text IS NULL' : 's.id = $4'}
     ), existing AS (
       SELECT id FROM retail_orders WHERE merchant_id = $1 AND livemode = $2 AND client_order_id = $3
     )
     SELECT
       (SELECT id FROM existing) AS existing,
       (SELECT nextval(('retail_receipts_' || s.id)::regclass) FROM store s
          WHERE $7::boolean AND NOT EXISTS (SELECT 1 FROM existing)) AS receipt_sequence,
       (SELECT row_to_json(s) FROM store s) AS store,
       (SELECT coalesce(json_agg(l), '[]') FROM (
          SELECT l.id, l.livemode, l.store_id, l.product_id, l.variant_id, l.on_hand_milli, l.reorder_level_milli
          FROM store s JOIN retail_stock_levels l ON l.store_id = s.id AND l.product_id = ANY($6::text[])
          ORDER BY l.product_id, l.variant_id NULLS FIRST FOR UPDATE OF l) l) AS levels,
       (SELECT json_build_object('name', c.name) FROM customers c
          WHERE c.id = $5 AND c.merchant_id = $1 AND c.livemode = $2) AS customer,
       (SELECT coalesce(json_agg(json_build_object('id', p.id, 'name', p.name, 'sku', p.sku, 'price', p.price,
          'currency', p.currency, 'tax_rate', p.tax_rate, 'unit', p.unit, 'track_stock', p.track_stock,
          'deleted', p.deleted_at IS NOT NULL, 'unavailable', p.deleted_at IS NOT NULL OR NOT p.active,
          'variants', (SELECT coalesce(json_agg(json_build_object('id', v.id, 'name', v.name, 'sku', v.sku,
             'price', v.price, 'deleted', v.deleted_at IS NOT NULL,
             'unavailable', v.deleted_at IS NOT NULL OR NOT v.active)), '[]') FROM retail_variants v WHERE v.product_id = p.id))),
          '[]')
        FROM retail_products p WHERE p.merchant_id = $1 AND p.livemode = $2 AND p.id = ANY($6::text[])) AS products`,
    values: [
      scope.merchantId,
      scope.livemode,
      input.client_order_id ?? null,
      storeId ?? null,
      input.customer ?? null,
      [...new Set(input.lines.map((line) => line.product))],
      input.receipt_number === undefined,
    ],
  });
  const row = found.rows[0]!;
  return {
    existing: row.existing,
    store: row.store,
    levels: row.levels,
    customer: row.customer,
    receiptSequence: row.receipt_sequence,
    catalog: new Map(row.products.map((product) => [product.id, product])),
  };
}

interface ResolvedLine {
  cart: CartLineInput;
  sku: string | null;
  taxClass: TaxClass;
  sold: SoldItem;
  flags: OrderFlag[];
}

/**
 * Prices a line from the catalogue. What changed in the catalogue since the
 * sale refuses an API key's line; a till's sale already happened (`asFact`),
 * so it stands at the till's price, flagged.
 */
function resolveLine(
  line: OrderLineInput,
  index: number,
  catalog: ReadonlyMap<string, CatalogItem>,
  currency: Currency,
  asFact: boolean,
): ResolvedLine {
  const at = `lines.${index}`;
  const flags: OrderFlag[] = [];
  const product = catalog.get(line.product);
  if (!product) throw invalid('product_unknown', `${at}.product`, 'is not a product of this account');
  if (product.deleted && !asFact) throw invalid('product_unknown', `${at}.product`, 'is deleted');
  if (asFact && product.unavailable) flags.push('product_unavailable');
  if (product.currency !== currency) {
    throw invalid(
      'currency_mismatch',
      `${at}.product`,
      `is priced in ${product.currency} but the order is in ${currency}`,
    );
  }
  const live = product.variants.filter((variant) => !variant.deleted);
  let variant: CatalogItem['variants'][number] | undefined;
  if (line.variant !== undefined) {
    variant = (asFact ? product.variants : live).find((candidate) => candidate.id === line.variant);
    if (!variant) {
      throw invalid(
        'parameter_invalid',
        `${at}.variant`,
        asFact ? 'is not a variant of this product' : 'is not a live variant of this product',
      );
    }
    if (asFact && variant.unavailable) flags.push('product_unavailable');
  } else if (live.length > 0) {
    if (!asFact)
      throw invalid('parameter_missing', `${at}.variant`, 'is required: this product is sold by variant');
    // Variants were added since the till sold the product as one item.
    flags.push('product_unavailable');
  }
  const catalogPrice = variant?.price ?? product.price;
  let unitPrice = catalogPrice;
  if (line.unit_price !== undefined && line.unit_price !== catalogPrice) {
    if (!asFact) {
      throw invalid(
        'price_changed',
        `${at}.unit_price`,
        `is ${line.unit_price} but the catalogue price is ${catalogPrice}`,
      );
    }
    unitPrice = line.unit_price;
    flags.push('price_changed');
  }
  const cart: CartLineInput = {
    productId: product.id as ProductId,
    variantId: variant?.id as VariantId | undefined,
    description: variant ? `${product.name} ${variant.name}` : product.name,
    unitPrice,
    currency: product.currency,
    unit: product.unit,
    quantityMilli: line.quantity_milli,
    taxClass: product.tax_rate,
    discount: coreDiscount(line.discount),
  };
  if (line.price_override) {
    cart.priceOverride = { unitPrice: line.price_override.unit_price, reason: line.price_override.reason };
  }
  return {
    cart,
    sku: variant?.sku ?? product.sku,
    taxClass: product.tax_rate,
    sold: {
      productId: product.id,
      variantId: variant?.id ?? null,
      quantityMilli: line.quantity_milli,
      unit: product.unit,
      trackStock: product.track_stock,
    },
    flags,
  };
}

interface PaymentInfo {
  id: string;
  status: string;
  currency: Currency;
  amount: number;
  network: string | null;
  used: boolean;
}

/** Mobile money tenders must name a paid payment of this account, in the order's currency, not used by another order. */
async function resolveTenders(
  db: Queryable,
  scope: Tenant,
  tenders: readonly OrderTenderInput[],
  currency: Currency,
): Promise<TenderInput[]> {
  const paymentIds = tenders.flatMap((tender) => (tender.method === 'mobile_money' ? [tender.payment] : []));
  const payments = new Map<string, PaymentInfo>();
  if (paymentIds.length > 0) {
    const found = await db.query<PaymentInfo>(
      `SELECT p.id, p.status, p.currency, p.amount, p.network,
         EXISTS (SELECT 1 FROM retail_order_tenders t WHERE t.payment_id = p.id AND t.active) AS used
       FROM payments p WHERE p.id = ANY($1::text[]) AND p.merchant_id = $2 AND p.livemode = $3`,
      [paymentIds, scope.merchantId, scope.livemode],
    );
    for (const row of found.rows) payments.set(row.id, row);
  }
  const seen = new Map<string, number>();
  return tenders.map((tender, index): TenderInput => {
    const at = `tenders.${index}`;
    switch (tender.method) {
      case 'cash':
        return { method: 'cash', amount: tender.amount, currency };
      case 'card':
        return { method: 'card', amount: tender.amount, reference: tender.reference, currency };
      case 'mobile_money': {
        const payment = payments.get(tender.payment);
        if (!payment) throw invalid('parameter_invalid', `${at}.payment`, 'is not a payment of this account');
        const earlier = seen.get(payment.id);
        if (earlier !== undefined)
          throw invalid('payment_already_used', `${at}.payment`, `repeats tenders.${earlier}.payment`);
        seen.set(payment.id, index);
        if (payment.status !== 'paid') {
          throw invalid(
            'payment_not_paid',
            `${at}.payment`,
            `is ${payment.status}; only a paid payment can pay for an order`,
          );
        }
        if (payment.currency !== currency) {
          throw invalid(
            'currency_mismatch',
            `${at}.payment`,
            `is in ${payment.currency} but the order is in ${currency}`,
          );
        }
        if (payment.used)
          throw invalid('payment_already_used', `${at}.payment`, 'already pays for another order');
        if (tender.amount !== undefined && tender.amount !== payment.amount) {
          throw invalid(
            'amount_invalid',
            `${at}.amount`,
            `must equal the payment's amount (${payment.amount})`,
          );
        }
        return {
          method: 'mobile_money',
          amount: payment.amount,
          paymentId: payment.id as PaymentId,
          network: payment.network ?? undefined,
          currency,
        };
      }
    }
  });
}

/** Server-given numbers use the store's own prefix (S01...), which no till is ever given. */
async function serverReceiptNumber(db: Queryable, store: SaleStore): Promise<string> {
  const next = await db.query<{ sequence: number }>(`SELECT nextval($1::regclass) AS sequence`, [
    receiptSequenceName(store.id),
  ]);
  return formatReceiptNumber(store.receipt_prefix, next.rows[0]!.sequence);
}

function checkTillReceiptNumber(receiptNumber: string): void {
  const parts = parseReceiptNumber(receiptNumber);
  if (!parts)
    throw invalid(
      'parameter_invalid',
      'receipt_number',
      'must be a till prefix and sequence, e.g. T01-000123',
    );
  if (/^S\d+$/.test(parts.tillPrefix)) {
    throw invalid(
      'parameter_invalid',
      'receipt_number',
      'uses a prefix reserved for numbers the server gives',
    );
  }
}

export interface CreatedOrder {
  order: OrderObject;
  /** False when the client order id named an order already recorded: that order is returned. */
  created: boolean;
}

/**
 * Records a paid sale: prices the cart and applies the tenders with the core
 * rules, numbers the receipt, moves stock (never refusing a sale for it), and
 * writes order.created and order.paid. A repeated `client_order_id` returns
 * the order already recorded.
 */
export async function createOrder(
  db: Queryable,
  actor: Actor,
  input: CreateOrderInput,
  now = new Date(),
): Promise<CreatedOrder> {
  const scope: Tenant = { merchantId: actor.merchantId, livemode: actor.livemode };
  // A till's sale happened at the counter: it is recorded at the till's store, and what changed since is flagged.
  const asFact = actor.kind === 'till';
  if (asFact && input.store !== undefined && input.store !== actor.storeId) {
    throw invalid('parameter_invalid', 'store', 'is not the till’s store');
  }
  const storeId = asFact ? actor.storeId : input.store;
  const context = await loadSaleContext(db, scope, input, storeId);
  if (context.existing !== null)
    return { order: await retrieveOrder(db, scope, context.existing), created: false };
  if (input.receipt_number !== undefined) checkTillReceiptNumber(input.receipt_number);
  tillTime(input.sold_at, 'sold_at', now);
  if (!context.store && storeId !== undefined) {
    throw invalid('parameter_invalid', 'store', 'is not a store of this account');
  }
  // The first sale of an account without a store makes its default store.
  const store: SaleStore = context.store ?? (await defaultStore(db, scope));
  const currency = input.currency ?? store.currency;
  if (currency !== store.currency) {
    throw invalid('currency_mismatch', 'currency', `is ${currency} but the store sells in ${store.currency}`);
  }
  const flags = new Set<OrderFlag>();
  let customerId = input.customer ?? null;
  if (customerId !== null && !context.customer) {
    if (!asFact) throw invalid('parameter_invalid', 'customer', 'is not a customer of this account');
    customerId = null;
    flags.add('customer_unknown');
  }
  const customerName = context.customer?.name ?? undefined;
  const catalog = context.catalog;
  const lines = input.lines.map((line, index) => resolveLine(line, index, catalog, currency, asFact));
  for (const line of lines) for (const flag of line.flags) flags.add(flag);
  const priced = applyRule(() =>
    priceCart({
      currency,
      vatRegion: store.vat_region,
      lines: lines.map((line) => line.cart),
      orderDiscount: coreDiscount(input.discount),
    }),
  );
  const tenders = await resolveTenders(db, scope, input.tenders, currency);
  const allocation = applyRule(() => allocateTenders({ currency, amountDue: priced.total, tenders }));
  const status = transitionRetailOrder('open', 'paid');

  const receiptNumber =
    input.receipt_number ??
    (context.receiptSequence !== null
      ? formatReceiptNumber(store.receipt_prefix, context.receiptSequence)
      : await serverReceiptNumber(db, store));
  const paidAt = input.sold_at !== undefined ? new Date(input.sold_at * 1000) : now;
  const receipt = applyRule(() =>
    buildRetailReceipt({
      order: priced,
      tenders: allocation,
      store: receiptSettings(store),
      receiptNumber,
      issuedAt: paidAt,
      cashier: input.cashier,
      till: input.till,
      customer: customerName,
    }),
  );

  const lineRecords = priced.lines.map((line, position): LineRow => ({
    position,
    product_id: line.productId,
    variant_id: line.variantId ?? null,
    description: line.description,
    sku: lines[position]!.sku,
    unit: line.unit,
    quantity_milli: line.quantityMilli,
    tax_rate: lines[position]!.taxClass,
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
  const tenderRecords = allocation.tenders.map((tender, position): TenderRow => ({
    position,
    method: tender.method,
    amount: tender.amount,
    paid: tender.paid,
    payment_id: tender.method === 'mobile_money' ? tender.paymentId : null,
    network: tender.method === 'mobile_money' ? (tender.network ?? null) : null,
    reference: tender.method === 'card' ? tender.reference : null,
  }));
  const stockPlan = await planStockMoves(
    db,
    scope,
    store.id,
    lines.map((line) => line.sold),
    'sale',
    context.store ? context.levels : [],
  );
  if (asFact && stockPlan.movements.some((move) => move.deltaMilli < 0 && move.onHandAfterMilli < 0)) {
    flags.add('stock_short');
  }

  // Everything the order holds is known here: the row is built once, written, and answered with.
  const order: Omit<OrderRow, 'created_at'> = {
    id: newId('order'),
    livemode: scope.livemode,
    store_id: store.id,
    till: input.till ?? null,
    till_id: actor.tillId ?? null,
    cashier: input.cashier ?? null,
    shift_id: input.shift ?? null,
    client_order_id: input.client_order_id ?? null,
    receipt_number: receiptNumber,
    status,
    currency,
    vat_region: store.vat_region,
    customer_id: customerId,
    gross_total: priced.grossTotal,
    line_discount_total: priced.lineDiscountTotal,
    subtotal: priced.subtotal,
    discount_rule: input.discount ?? null,
    order_discount: priced.orderDiscount,
    total: priced.total,
    tax_total: priced.taxTotal,
    tax_breakdown: priced.taxBreakdown.map((group) => ({
      rate_basis_points: group.rateBasisPoints,
      gross: group.gross,
      net: group.net,
      tax: group.tax,
    })),
    amount_tendered: allocation.tendered,
    change_due: allocation.change,
    refunded_amount: 0,
    receipt,
    metadata: input.metadata ?? {},
    void_reason: null,
    flags: ORDER_FLAGS.filter((flag) => flags.has(flag)),
    paid_at: paidAt,
    voided_at: null,
  };
  const params: unknown[] = [
    order.id,
    scope.merchantId,
    scope.livemode,
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
      ? stockMoveCtes(params, scope, stockPlan, { reason: 'sale', orderId: order.id }, 'o')
      : null;
  let inserted;
  try {
    inserted = await db.query<{ created_at: Date }>({
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
         INSERT INTO retail_order_tenders (order_id, position, method, amount, paid, payment_id, network, reference)
         SELECT o.id, y.position, y.method, y.amount, y.paid, y.payment_id, y.network, y.reference
         FROM o, json_to_recordset($27::json) AS y(position int, method text, amount bigint, paid bigint,
           payment_id text, network text, reference text)
       )${stock ? `, ${stock}` : ''}
       SELECT created_at FROM o`,
      values: params,
    });
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
  const written = inserted.rows[0];
  if (!written) {
    // A concurrent request with the same client order id committed first: answer with its order.
    if (input.client_order_id !== undefined) {
      const existing = await findOrder(db, scope, 'client_order_id', input.client_order_id);
      if (existing) return { order: existing, created: false };
    }
    throw invalid('receipt_number_taken', 'receipt_number', 'is already on another order');
  }
  const object = orderObject(
    { ...order, created_at: written.created_at },
    { lines: lineRecords, tenders: tenderRecords, refunds: [] },
  );
  await recordLowStock(db, scope, stockPlan);
  await recordEvent(db, { ...scope, type: 'order.created', object });
  await recordEvent(db, { ...scope, type: 'order.paid', object });
  return { order: object, created: true };
}

// ---------------------------------------------------------- refund and void

interface LockedOrder {
  id: string;
  store_id: string;
  status: RetailOrderStatus;
  paid_at: Date | null;
  created_at: Date;
}

async function lockOrder(db: Queryable, scope: Tenant, id: string): Promise<LockedOrder> {
  const found = await db.query<LockedOrder>(
    `SELECT id, store_id, status, paid_at, created_at FROM retail_orders
     WHERE id = $1 AND merchant_id = $2 AND livemode = $3 FOR UPDATE`,
    [id, scope.merchantId, scope.livemode],
  );
  if (!found.rows[0]) throw notFound('order', id);
  return found.rows[0];
}

async function linesForStock(db: Queryable, orderId: string) {
  const found = await db.query<LineRow & { track_stock: boolean }>(
    `SELECT l.*, p.track_stock FROM retail_order_lines l JOIN retail_products p ON p.id = l.product_id
     WHERE l.order_id = $1 ORDER BY l.position`,
    [orderId],
  );
  return found.rows;
}

export type RefundInput = RefundOrderCommand;

/**
 * Refunds some lines (or everything left): returns a proportional share of
 * what was paid for each line, puts the goods back on hand when `restock`,
 * and writes order.refunded. An offline till's refund is dated when it
 * happened at the counter (`refunded_at`), so it counts on that day.
 */
export async function refundOrder(
  db: Queryable,
  scope: Tenant,
  id: string,
  input: RefundInput,
  now = new Date(),
): Promise<OrderObject> {
  const refundedAt = tillTime(input.refunded_at, 'refunded_at', now) ?? null;
  const order = await lockOrder(db, scope, id);
  if (order.status !== 'paid' && order.status !== 'partially_refunded') {
    transitionRetailOrder(order.status, 'refunded');
  }
  const lines = await linesForStock(db, id);
  const refundable: RefundableLine[] = lines.map((line) => ({
    unit: line.unit,
    quantityMilli: line.quantity_milli,
    total: line.total,
    tax: line.tax,
    refundedQuantityMilli: line.refunded_quantity_milli,
  }));
  const request =
    input.lines?.map((line) => ({ line: line.line, quantityMilli: line.quantity_milli })) ??
    remainingRefundLines(refundable);
  const plan = applyRule(() => planRefund(refundable, request));
  const status = transitionRetailOrder(order.status, statusAfterRefundPlan(refundable, plan));

  const refundId = newId('orderRefund');
  const planned = plan.lines.map((line) => ({
    line: line.line,
    quantity_milli: line.quantityMilli,
    amount: line.amount,
    tax: line.tax,
  }));
  await db.query(
    `WITH refund AS (
       INSERT INTO retail_refunds (id, merchant_id, livemode, order_id, amount, tax, lines, restocked, reason, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, coalesce($11, now()))
     ), moved AS (
       UPDATE retail_order_lines l SET refunded_quantity_milli = l.refunded_quantity_milli + r.quantity_milli,
         refunded_amount = l.refunded_amount + r.amount
       FROM jsonb_to_recordset($7::jsonb) AS r(line int, quantity_milli bigint, amount bigint)
       WHERE l.order_id = $4 AND l.position = r.line
     )
     UPDATE retail_orders SET status = $10, refunded_amount = refunded_amount + $5 WHERE id = $4`,
    [
      refundId,
      scope.merchantId,
      scope.livemode,
      id,
      plan.amount,
      plan.tax,
      JSON.stringify(planned),
      input.restock,
      input.reason ?? null,
      status,
      refundedAt,
    ],
  );
  if (input.restock) {
    const items = plan.lines.map((planned): SoldItem => {
      const line = lines[planned.line]!;
      return {
        productId: line.product_id,
        variantId: line.variant_id,
        quantityMilli: planned.quantityMilli,
        unit: line.unit,
        trackStock: line.track_stock,
      };
    });
    await moveStockForOrder(db, scope, order.store_id, items, 'refund', { orderId: id, refundId });
  }
  const object = await retrieveOrder(db, scope, id);
  await recordEvent(db, { ...scope, type: 'order.refunded', object });
  return object;
}

/**
 * Cancels a sale on the business day it was made, as if it never happened:
 * every line goes back on hand and a mobile money payment is freed for
 * another order. Later, refund instead.
 */
export async function voidOrder(
  db: Queryable,
  scope: Tenant,
  id: string,
  input: VoidOrderCommand,
  now = new Date(),
): Promise<OrderObject> {
  const order = await lockOrder(db, scope, id);
  // An offline till's void is judged by when it happened at the counter.
  const voidedAt = tillTime(input.voided_at, 'voided_at', now) ?? now;
  const status = transitionRetailOrder(order.status, 'voided', {
    paidAt: order.paid_at ?? order.created_at,
    now: voidedAt,
  });
  await db.query(
    `WITH freed AS (UPDATE retail_order_tenders SET active = false WHERE order_id = $1)
     UPDATE retail_orders SET status = $2, voided_at = $4, void_reason = $3 WHERE id = $1`,
    [id, status, input.reason ?? null, voidedAt],
  );
  const lines = await linesForStock(db, id);
  await moveStockForOrder(
    db,
    scope,
    order.store_id,
    lines
      .filter((line) => line.quantity_milli > line.refunded_quantity_milli)
      .map((line) => ({
        productId: line.product_id,
        variantId: line.variant_id,
        quantityMilli: line.quantity_milli - line.refunded_quantity_milli,
        unit: line.unit,
        trackStock: line.track_stock,
      })),
    'void',
    { orderId: id },
  );
  const object = await retrieveOrder(db, scope, id);
  await recordEvent(db, { ...scope, type: 'order.voided', object });
  return object;
}
