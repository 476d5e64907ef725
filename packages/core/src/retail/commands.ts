/**
 * The inputs of the retail writes a till makes, as zod schemas with their
 * defaults and unit conversions: the REST routes validate with them (and
 * document them in OpenAPI), and the till validates an offline sale with the
 * same rules before it queues the command. Wire names are the API's
 * (snake_case); parsing yields what the services take.
 */
import { z } from 'zod';
import { MAX_AMOUNT, currencySchema } from '../money.ts';
import { shiftIdSchema } from './shift-status.ts';
import { MAX_QUANTITY_MILLI } from './pricing.ts';
import { MAX_STOCK_MILLI } from './stock.ts';

/** How far ahead of the server's clock a till's `sold_at`, `refunded_at` or `voided_at` may be. */
export const TILL_CLOCK_LEEWAY_SECONDS = 300;

/** The last second of year 9999: every timestamp the API takes fits PostgreSQL's range below it. */
export const MAX_UNIX_SECONDS = 253_402_300_799;

export const metadataSchema = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((value) => Object.keys(value).length <= 50, { error: 'at most 50 keys' })
  .describe('Up to 50 string key-value pairs for your own use');

export const priceSchema = z
  .number({ error: 'must be an integer' })
  .int({ error: 'must be an integer in the currency’s smallest unit' })
  .min(0, { error: 'must not be negative' })
  .max(MAX_AMOUNT)
  .describe('Tax-inclusive, in the currency’s smallest unit (whole shillings for TZS)');

/** An id of another object (`prod_…`, `store_…`) or a client's own id. */
export const referenceSchema = z.string().min(1).max(255);
export const textSchema = (max: number) => z.string().trim().max(max);

/** Unix seconds stamped by a till: when it happened at the counter, not when it reached us. */
const tillTime = (what: string) =>
  z
    .number({ error: 'must be unix seconds' })
    .int({ error: 'must be whole unix seconds' })
    .min(0)
    .max(MAX_UNIX_SECONDS, { error: 'must be a date before the year 10000' })
    .describe(
      `Unix seconds ${what} on the till; defaults to now (at most ${TILL_CLOCK_LEEWAY_SECONDS} s ahead)`,
    );

const quantity = z
  .number({ error: 'must be an integer' })
  .int({ error: 'must be a whole number of units; use quantity_milli for fractions' })
  .min(1, { error: 'must be greater than zero' })
  .max(MAX_QUANTITY_MILLI / 1000)
  .describe('Whole units');
const quantityMilli = z
  .number({ error: 'must be an integer' })
  .int({ error: 'must be an integer number of thousandths' })
  .min(1, { error: 'must be greater than zero' })
  .max(MAX_QUANTITY_MILLI)
  .describe('Thousandths of the unit: 750 = 0.750 kg');

const quantityFields = { quantity: quantity.optional(), quantity_milli: quantityMilli.optional() };
interface QuantityFields {
  quantity?: number | undefined;
  quantity_milli?: number | undefined;
}

/** Exactly one of `quantity` (whole units) and `quantity_milli` (thousandths). */
function oneQuantity(value: QuantityFields, ctx: z.RefinementCtx): void {
  if ((value.quantity === undefined) === (value.quantity_milli === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['quantity'],
      message: 'give quantity or quantity_milli (one of them)',
    });
  }
}

/** Whole units become thousandths: every quantity past the boundary is `quantity_milli`. */
export function toMilli<T extends QuantityFields>({ quantity: whole, quantity_milli: milli, ...rest }: T) {
  return { ...rest, quantity_milli: milli ?? (whole ?? 0) * 1000 };
}

export const discountSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('percent'),
    basis_points: z.number().int().min(0).max(10_000).describe('1000 = 10%'),
  }),
  z.strictObject({ type: z.literal('amount'), amount: priceSchema }),
]);
export type WireDiscount = z.output<typeof discountSchema>;

export const tenderSchema = z.discriminatedUnion('method', [
  z.strictObject({
    method: z.literal('cash'),
    amount: priceSchema
      .min(1, { error: 'must be at least 1' })
      .describe('Cash handed over; the change is returned in change_due'),
  }),
  z.strictObject({
    method: z.literal('mobile_money'),
    payment: referenceSchema.describe('A paid payment (pay_...) of this account, not used by another order'),
    amount: priceSchema.min(1).optional().describe('Must equal the payment’s amount; defaults to it'),
  }),
  z.strictObject({
    method: z.literal('card'),
    amount: priceSchema.min(1, { error: 'must be at least 1' }),
    reference: z.string().trim().min(1, { error: 'is required' }).max(100).describe('Terminal approval code'),
  }),
  z.strictObject({
    method: z.literal('room'),
    amount: priceSchema.min(1, { error: 'must be at least 1' }),
    reservation: referenceSchema.describe(
      'A checked-in stay (resv_...): the sale is charged to its folio as an extra',
    ),
  }),
]);

export const createOrderCommand = z.strictObject({
  client_order_id: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe('The till’s id for the sale: a repeat returns the order already recorded, with 200'),
  store: referenceSchema.optional().describe('Defaults to the default store'),
  till: textSchema(64)
    .min(1)
    .optional()
    .describe('The till’s name, printed on the receipt and kept on the order'),
  cashier: textSchema(100)
    .min(1)
    .optional()
    .describe('The cashier’s name, printed on the receipt and kept on the order'),
  shift: shiftIdSchema
    .optional()
    .describe('The till’s shift the sale was rung up in; its Z report counts the sale'),
  receipt_number: z
    .string()
    .max(40)
    .optional()
    .describe('Given by an offline till (T01-000123); the server numbers the receipt when absent'),
  customer: referenceSchema.optional(),
  currency: currencySchema.optional().describe('Defaults to the store’s currency, and must equal it'),
  sold_at: tillTime('of the sale').optional(),
  lines: z
    .array(
      z
        .strictObject({
          product: referenceSchema,
          variant: referenceSchema.optional(),
          ...quantityFields,
          unit_price: priceSchema
            .optional()
            .describe(
              'The unit price the seller charged, tax included (a till sends its catalogue copy’s price). When it differs from the catalogue’s, a till’s order keeps this price and is flagged `price_changed`; an API key’s order is refused with `price_changed`',
            ),
          price_override: z
            .strictObject({
              unit_price: priceSchema,
              reason: z.string().trim().min(1, { error: 'is required' }).max(200),
            })
            .optional(),
          discount: discountSchema.optional(),
        })
        .superRefine(oneQuantity)
        .transform(toMilli),
    )
    .min(1, { error: 'an order needs at least one line' })
    .max(500),
  discount: discountSchema.optional().describe('Order discount, spread over the lines'),
  tenders: z.array(tenderSchema).max(10),
  metadata: metadataSchema.optional(),
});
export type CreateOrderCommand = z.output<typeof createOrderCommand>;
export type CreateOrderWire = z.input<typeof createOrderCommand>;
export type OrderLineInput = CreateOrderCommand['lines'][number];
export type OrderTenderInput = CreateOrderCommand['tenders'][number];

/**
 * What the server noticed about a till's sale that it recorded anyway (cash
 * changed hands): the price differed from the catalogue's, the product was
 * deleted or made inactive since, the sale took stock below zero, the
 * customer is not one of the account's, the cashier had been deactivated
 * before the sale, or the sale reached the server in a removed till's export
 * (`POST /v1/tills/{id}/recover`) rather than by sync.
 */
export const ORDER_FLAGS = [
  'price_changed',
  'product_unavailable',
  'stock_short',
  'customer_unknown',
  'cashier_inactive',
  'recovered',
] as const;
export type OrderFlag = (typeof ORDER_FLAGS)[number];

export const refundOrderCommand = z.strictObject({
  lines: z
    .array(
      z
        .strictObject({
          line: z.number().int().min(0).max(499).describe('Position of the order line, from 0'),
          ...quantityFields,
        })
        .superRefine(oneQuantity)
        .transform(toMilli),
    )
    .min(1)
    .max(500)
    .optional()
    .describe('What to refund; everything not yet refunded when absent'),
  restock: z.boolean().default(true).describe('Put the goods back on hand (default true)'),
  reason: textSchema(500).optional(),
  refunded_at: tillTime('of the refund').optional(),
});
export type RefundOrderCommand = z.output<typeof refundOrderCommand>;

export const voidOrderCommand = z.strictObject({
  reason: textSchema(500).optional(),
  voided_at: tillTime('of the void')
    .optional()
    .describe(
      'Unix seconds of the void on the till; the same-day rule is judged by it (at most 300 s ahead of the server)',
    ),
});
export type VoidOrderCommand = z.output<typeof voidOrderCommand>;

/** Whole units allowed in a stock count or adjustment: their thousandths stay within the stock bound. */
const MAX_STOCK_UNITS = Math.floor(MAX_STOCK_MILLI / 1000);
const signedMilli = z.number().int().min(-MAX_STOCK_MILLI).max(MAX_STOCK_MILLI);
const signedUnits = z.number().int().min(-MAX_STOCK_UNITS).max(MAX_STOCK_UNITS);

export const STOCK_ADJUSTMENT_REASONS = [
  'count',
  'received',
  'damaged',
  'lost',
  'returned',
  'correction',
] as const;

const stockAdjustmentFields = z.strictObject({
  store: referenceSchema.optional().describe('Defaults to the default store'),
  product: referenceSchema,
  variant: referenceSchema.optional(),
  set_on_hand: signedUnits.describe('Whole units counted').optional(),
  set_on_hand_milli: signedMilli.optional(),
  adjust_by: signedUnits.describe('Whole units added (negative to remove)').optional(),
  adjust_by_milli: signedMilli.optional(),
  reorder_level: z.number().int().min(0).max(MAX_STOCK_UNITS).nullable().optional(),
  reorder_level_milli: z.number().int().min(0).max(MAX_STOCK_MILLI).nullable().optional(),
  reason: z.enum(STOCK_ADJUSTMENT_REASONS),
  note: textSchema(500).optional(),
});

const inMilli = (whole: number | null | undefined, milli: number | null | undefined) =>
  milli !== undefined ? milli : whole === undefined || whole === null ? whole : whole * 1000;

export const stockAdjustmentCommand = stockAdjustmentFields
  .superRefine((value, ctx) => {
    const changes = (['set_on_hand', 'set_on_hand_milli', 'adjust_by', 'adjust_by_milli'] as const).filter(
      (key) => value[key] !== undefined,
    );
    if (changes.length > 1) {
      ctx.addIssue({ code: 'custom', path: [changes[1]!], message: `cannot be combined with ${changes[0]}` });
    }
    if (value.reorder_level !== undefined && value.reorder_level_milli !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['reorder_level_milli'],
        message: 'cannot be combined with reorder_level',
      });
    }
    if (
      changes.length === 0 &&
      value.reorder_level === undefined &&
      value.reorder_level_milli === undefined
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['set_on_hand'],
        message: 'give set_on_hand, adjust_by or a reorder level',
      });
    }
  })
  .transform((body) => ({
    store: body.store,
    product: body.product,
    variant: body.variant,
    setOnHandMilli: inMilli(body.set_on_hand, body.set_on_hand_milli) ?? undefined,
    adjustByMilli: inMilli(body.adjust_by, body.adjust_by_milli) ?? undefined,
    reorderLevelMilli: inMilli(body.reorder_level, body.reorder_level_milli),
    reason: body.reason,
    note: body.note,
  }));
export type StockAdjustmentCommand = z.output<typeof stockAdjustmentCommand>;
