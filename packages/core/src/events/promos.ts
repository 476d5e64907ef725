/**
 * Promo codes: a percentage or a fixed amount off an order, on one tier or the
 * whole event, applied once per order.
 */
import { z } from 'zod';
import { MAX_AMOUNT } from '../money.ts';
import { MAX_UNIX_SECONDS, referenceSchema } from '../retail/commands.ts';

const unixSeconds = z.number().int({ error: 'must be whole unix seconds' }).min(0).max(MAX_UNIX_SECONDS);

export const promoCreateBody = z
  .strictObject({
    code: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{3,32}$/, { error: 'must be 3 to 32 letters, digits, - or _' })
      .describe('What the buyer types; matched without regard to case'),
    percent_off: z.number().int().min(1).max(100).optional(),
    amount_off: z
      .number()
      .int({ error: 'must be whole shillings' })
      .min(1)
      .max(MAX_AMOUNT)
      .optional()
      .describe('Whole shillings off the order, at most what it applies to'),
    tier: referenceSchema.optional().describe('Only this tier’s tickets; the whole event when left out'),
    usage_limit: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe('Orders that may use it; no limit when left out'),
    valid_from: unixSeconds.optional(),
    valid_until: unixSeconds.optional(),
  })
  .refine((value) => (value.percent_off === undefined) !== (value.amount_off === undefined), {
    error: 'give percent_off or amount_off, one of them',
    path: ['percent_off'],
  })
  .refine(
    (value) =>
      value.valid_from === undefined ||
      value.valid_until === undefined ||
      value.valid_until > value.valid_from,
    { error: 'must be after valid_from', path: ['valid_until'] },
  );
export type PromoCreateInput = z.output<typeof promoCreateBody>;

/** What a promo takes off: `percent_off` of the lines it applies to (rounded down), or `amount_off`, at most their sum. */
export function promoDiscount(
  promo: { percent_off: number | null; amount_off: number | null; tier_id: string | null },
  lines: ReadonlyArray<{ tier: string; unit_price: number; quantity: number }>,
): number {
  const applies = lines
    .filter((line) => promo.tier_id === null || line.tier === promo.tier_id)
    .reduce((sum, line) => sum + line.unit_price * line.quantity, 0);
  if (promo.percent_off !== null) return Math.floor((applies * promo.percent_off) / 100);
  return Math.min(promo.amount_off ?? 0, applies);
}
