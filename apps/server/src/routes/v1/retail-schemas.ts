import { z } from 'zod';
import {
  QUANTITY_UNITS,
  ORDER_FLAGS,
  RETAIL_ORDER_STATUSES,
  TAX_CLASSES,
  VAT_REGIONS,
  currencySchema,
  metadataSchema,
  priceSchema,
  referenceSchema,
  textSchema,
  type ReceiptLabels,
} from '@tz/core';
import { currencyOut, livemode, unix } from './schemas.ts';

/** Request and response shapes of the retail API. */

// ------------------------------------------------------------------- inputs

const name = z.string().trim().min(1, { error: 'is required' }).max(200);
const code = z
  .string()
  .trim()
  .regex(/^[\x21-\x7e]{1,64}$/, { error: 'must be 1 to 64 printable characters without spaces' });
const barcodes = z
  .array(code)
  .max(20)
  .describe('EAN/UPC or any code a scanner reads; unique per account and mode');
const taxRate = z
  .enum(TAX_CLASSES)
  .describe(
    '`standard` is 18% VAT on the mainland and 15% in Zanzibar (the selling store’s `vat_region`); `zero_rated` and `exempt` carry none',
  );
const unit = z
  .enum(QUANTITY_UNITS)
  .describe('`piece` sells whole units; `kg`, `litre` and `metre` sell in thousandths');
const price = priceSchema;
const reference = referenceSchema;
const text = textSchema;
const lines = (count: number) => z.array(z.string().trim().min(1).max(64)).max(count);

export const variantInput = z.strictObject({
  name,
  sku: code.optional(),
  barcodes: barcodes.optional(),
  price: price.optional().describe('Defaults to the product’s price'),
  active: z.boolean().optional(),
});

export const productCreateBody = z.strictObject({
  name,
  description: text(1000).optional(),
  sku: code.optional(),
  barcodes: barcodes.optional(),
  price,
  currency: currencySchema.optional().describe('Defaults to TZS'),
  tax_rate: taxRate.optional().describe('Defaults to standard'),
  category: reference.optional(),
  unit: unit.optional().describe('Defaults to piece'),
  track_stock: z
    .boolean()
    .optional()
    .describe('Defaults to true; untracked items (services) never move stock'),
  active: z
    .boolean()
    .optional()
    .describe('Inactive products stay in the catalogue but are not offered for sale'),
  variants: z.array(variantInput).max(100).optional(),
  metadata: metadataSchema.optional(),
});

export const productPatchBody = z.strictObject({
  name: name.optional(),
  description: text(1000).nullable().optional(),
  sku: code.nullable().optional(),
  barcodes: barcodes.optional().describe('Replaces the product’s barcodes'),
  price: price.optional(),
  currency: currencySchema.optional(),
  tax_rate: taxRate.optional(),
  category: reference.nullable().optional(),
  unit: unit.optional(),
  track_stock: z.boolean().optional(),
  active: z.boolean().optional(),
  metadata: metadataSchema.optional(),
});

export const variantPatchBody = z.strictObject({
  name: name.optional(),
  sku: code.nullable().optional(),
  barcodes: barcodes.optional(),
  price: price.optional(),
  active: z.boolean().optional(),
});

export const categoryCreateBody = z.strictObject({ name, description: text(1000).optional() });
export const categoryPatchBody = z.strictObject({
  name: name.optional(),
  description: text(1000).nullable().optional(),
});

const tin = z
  .string()
  .regex(/^\d{3}-?\d{3}-?\d{3}$/, { error: 'must be the 9-digit TIN, e.g. 123-456-789' })
  .transform((value) => value.replace(/-/g, '').replace(/^(\d{3})(\d{3})(\d{3})$/, '$1-$2-$3'));
const vrn = z
  .string()
  .regex(/^\d{2}-?\d{6}-?[A-Za-z]$/, { error: 'must be the VRN, e.g. 40-012345-A' })
  .transform((value) =>
    value
      .replace(/-/g, '')
      .toUpperCase()
      .replace(/^(\d{2})(\d{6})([A-Z])$/, '$1-$2-$3'),
  );

const storeFields = {
  address_lines: lines(4).optional(),
  phone: text(40).nullable().optional(),
  tin: tin.nullable().optional().describe('Taxpayer Identification Number, printed on receipts'),
  vrn: vrn.nullable().optional().describe('VAT Registration Number, printed on receipts'),
  vat_region: z
    .enum(VAT_REGIONS)
    .optional()
    .describe('mainland (18% standard VAT, the default) or zanzibar (15%)'),
  currency: currencySchema.optional().describe('Defaults to TZS'),
  receipt_header: lines(6).optional(),
  receipt_footer: lines(6).optional(),
  receipt_language: z.enum(['sw', 'en']).optional().describe('Defaults to sw (Swahili)'),
  default: z.boolean().optional().describe('Makes this the default store'),
};
export const storeCreateBody = z.strictObject({ name, ...storeFields });
export const storePatchBody = z.strictObject({ name: name.optional(), ...storeFields });

export const booleanQuery = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((value) => value === 'true')
  .optional();
export const productListFilters = {
  q: z.string().max(100).optional().describe('Exact SKU or barcode, or words of the name or SKU by prefix'),
  category: z.string().max(255).optional(),
  store: z.string().max(255).optional().describe('Only products stocked at this store'),
  active: booleanQuery,
  include_deleted: booleanQuery,
};
export const includeDeletedFilter = { include_deleted: booleanQuery };
export const stockListFilters = { low: booleanQuery, product: z.string().max(255).optional() };
export const orderListFilters = {
  store: z.string().max(255).optional(),
  status: z.enum(RETAIL_ORDER_STATUSES).optional(),
  customer: z.string().max(255).optional(),
  receipt_number: z.string().max(40).optional(),
};
export const overviewQuery = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be YYYY-MM-DD' })
    .optional()
    .describe('East Africa Time calendar day; defaults to today'),
});

// ------------------------------------------------------------------ outputs

const count = z.number().int();

export const categorySchema = z.object({
  id: z.string().describe('Begins with cat_'),
  object: z.literal('category'),
  name: z.string(),
  description: z.string().nullable(),
  deleted: z.boolean(),
  livemode,
  created: unix,
  updated: unix,
});

export const variantSchema = z.object({
  id: z.string().describe('Begins with var_'),
  object: z.literal('variant'),
  product: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  barcodes: z.array(z.string()),
  price: count,
  active: z.boolean(),
  deleted: z.boolean(),
  livemode,
  created: unix,
  updated: unix,
});

export const productSchema = z.object({
  id: z.string().describe('Begins with prod_'),
  object: z.literal('product'),
  name: z.string(),
  description: z.string().nullable(),
  sku: z.string().nullable(),
  barcodes: z.array(z.string()),
  price: count,
  currency: currencyOut,
  tax_rate: z.enum(TAX_CLASSES),
  category: z.string().nullable(),
  unit: z.enum(QUANTITY_UNITS),
  track_stock: z.boolean(),
  active: z.boolean(),
  deleted: z
    .boolean()
    .describe('Deleted products are archived: kept for past orders, gone from the catalogue'),
  variants: z.array(variantSchema).describe('Live variants'),
  metadata: z.record(z.string(), z.string()),
  livemode,
  created: unix,
  updated: unix,
});

export const storeSchema = z.object({
  id: z.string().describe('Begins with store_'),
  object: z.literal('store'),
  name: z.string(),
  address_lines: z.array(z.string()),
  phone: z.string().nullable(),
  tin: z.string().nullable(),
  vrn: z.string().nullable(),
  vat_region: z.enum(VAT_REGIONS),
  currency: currencyOut,
  receipt_header: z.array(z.string()),
  receipt_footer: z.array(z.string()),
  receipt_language: z.enum(['sw', 'en']),
  default: z.boolean(),
  receipt_prefix: z.string().describe('Prefix of receipt numbers the server gives for this store (S01...)'),
  livemode,
  created: unix,
  updated: unix,
});

export const stockLevelSchema = z.object({
  id: z.string().describe('Begins with stk_'),
  object: z.literal('stock_level'),
  store: z.string(),
  product: z.string(),
  variant: z.string().nullable(),
  unit: z.enum(QUANTITY_UNITS),
  tracked: z.boolean(),
  on_hand_milli: count.describe('Thousandths of the unit; negative when more was sold than counted'),
  reorder_level_milli: count.nullable(),
  negative: z.boolean(),
  low: z.boolean().describe('At or below the reorder level, or negative'),
  livemode,
  updated: unix,
});

const labelled = z.object({ label: z.string(), amount: count });
export const receiptDocumentSchema = z
  .object({
    language: z.enum(['sw', 'en']),
    currency: z.string(),
    store: z.object({
      name: z.string(),
      addressLines: z.array(z.string()),
      phone: z.string().optional(),
      tin: z.string().optional(),
      vrn: z.string().optional(),
      headerLines: z.array(z.string()),
    }),
    receiptNumber: z.string(),
    issuedAt: z.string(),
    cashier: z.string().optional(),
    till: z.string().optional(),
    customer: z.string().optional(),
    lines: z.array(
      z.object({
        description: z.string(),
        quantityText: z.string(),
        quantityMilli: count,
        unitPrice: count,
        total: count,
        discount: labelled.optional(),
        taxCode: z.string().optional(),
      }),
    ),
    subtotal: count,
    orderDiscount: labelled.optional(),
    taxLines: z.array(
      z.object({ code: z.string(), label: z.string(), rateBasisPoints: count, net: count, tax: count }),
    ),
    total: count,
    tenders: z.array(z.object({ label: z.string(), amount: count, reference: z.string().optional() })),
    change: count,
    qrPayload: z.string().optional(),
    footerLines: z.array(z.string()),
    labels: z.object(
      Object.fromEntries(
        [
          'receipt',
          'date',
          'cashier',
          'till',
          'customer',
          'subtotal',
          'discount',
          'total',
          'change',
          'tin',
          'vrn',
        ].map((key) => [key, z.string()]),
      ) as Record<keyof ReceiptLabels, z.ZodString>,
    ),
  })
  .describe(
    'The printer-independent receipt (ReceiptDocument of the shared core): render it with @tz/printers (renderReceipt) or on the till',
  );

const discountOut = z
  .union([
    z.object({ type: z.literal('percent'), basis_points: count }),
    z.object({ type: z.literal('amount'), amount: count }),
  ])
  .nullable();

export const orderSchema = z.object({
  id: z.string().describe('Begins with ord_'),
  object: z.literal('order'),
  status: z.enum(RETAIL_ORDER_STATUSES),
  store: z.string(),
  till: z.string().nullable(),
  cashier: z.string().nullable(),
  shift: z.string().nullable().describe('The till’s shift (shift_…) the sale was rung up in'),
  client_order_id: z.string().nullable(),
  receipt_number: z.string(),
  currency: currencyOut,
  vat_region: z.enum(VAT_REGIONS),
  customer: z.string().nullable(),
  lines: z.array(
    z.object({
      line: count,
      product: z.string(),
      variant: z.string().nullable(),
      description: z.string(),
      sku: z.string().nullable(),
      unit: z.enum(QUANTITY_UNITS),
      quantity_milli: count,
      list_unit_price: count,
      unit_price: count,
      price_override: z.object({ unit_price: count, reason: z.string() }).nullable(),
      discount: discountOut,
      gross: count,
      line_discount: count,
      subtotal: count,
      order_discount: count,
      total: count.describe('What the customer paid for the line, tax included'),
      tax_rate: z.enum(TAX_CLASSES).nullable(),
      tax_rate_basis_points: count,
      tax: count,
      net: count,
      refunded_quantity_milli: count,
      refunded_amount: count,
    }),
  ),
  gross_total: count,
  line_discount_total: count,
  subtotal: count,
  discount: discountOut,
  order_discount: count,
  total: count,
  tax_total: count,
  net_total: count,
  tax_breakdown: z.array(z.object({ rate_basis_points: count, gross: count, net: count, tax: count })),
  tenders: z.array(
    z.object({
      method: z.enum(['cash', 'mobile_money', 'card']),
      amount: count,
      paid: count.describe('The part that went to the order; cash above it came back as change'),
      payment: z.string().nullable(),
      network: z.string().nullable(),
      reference: z.string().nullable(),
    }),
  ),
  amount_tendered: count,
  change_due: count,
  refunded_amount: count,
  refunds: z.array(
    z.object({
      id: z.string().describe('Begins with oref_'),
      object: z.literal('order_refund'),
      amount: count,
      tax: count,
      lines: z.array(z.object({ line: count, quantity_milli: count, amount: count, tax: count })),
      restocked: z.boolean(),
      reason: z.string().nullable(),
      created: unix,
    }),
  ),
  receipt: receiptDocumentSchema,
  metadata: z.record(z.string(), z.string()),
  void_reason: z.string().nullable(),
  flags: z
    .array(z.enum(ORDER_FLAGS))
    .describe(
      'What differed when a till’s sale reached the server, which records it anyway: `price_changed` (sold at the till’s price), `product_unavailable` (deleted or made inactive since), `stock_short` (took stock below zero), `customer_unknown` (dropped). Always empty for an API key’s order',
    ),
  livemode,
  created: unix,
  paid_at: unix.nullable(),
  voided_at: unix.nullable(),
});

export const overviewSchema = z.object({
  object: z.literal('retail_overview'),
  date: z.string(),
  time_zone: z.literal('Africa/Dar_es_Salaam'),
  livemode,
  stores: z.array(
    z.object({
      store: z.string(),
      name: z.string(),
      default: z.boolean(),
      currency: currencyOut,
      sales: count.describe('Sales of the day net of refunds; voided sales left out'),
      refunds: count,
      order_count: count,
      voided_count: count,
      top_products: z.array(
        z.object({
          product: z.string(),
          variant: z.string().nullable(),
          description: z.string(),
          quantity_milli: count,
          sales: count,
        }),
      ),
      low_stock: z.array(
        z.object({
          product: z.string(),
          variant: z.string().nullable(),
          description: z.string(),
          unit: z.enum(QUANTITY_UNITS),
          on_hand_milli: count,
          reorder_level_milli: count.nullable(),
          negative: z.boolean(),
        }),
      ),
    }),
  ),
});
