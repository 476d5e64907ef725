/**
 * A stay's folio: what it is charged and what is paid against it. The night
 * audit charges each night its part of the stay's quote, so however many
 * nights are posted, the room, each levy and the VAT add up to the quote's
 * amounts to the shilling. Charges are positive, payments negative; the
 * balance is their sum, and a guest leaves at a balance of zero (or with a
 * manager's recorded override).
 */
import { z } from 'zod';
import { invalidField } from '../errors.ts';
import { CURRENCY_CODES, MAX_AMOUNT, minorUnitsOf, type Currency } from '../money.ts';
import { tanzanianMobileSchema } from '../phone.ts';
import { textSchema } from '../retail/commands.ts';
import type { LevyKind } from './levies.ts';
import type { StayQuote } from './quote.ts';

/** What a stay's nights are charged: the room, each levy of its quote, and VAT. */
export type NightChargeKind = 'room' | LevyKind | 'vat';
export const FOLIO_CHARGE_KINDS = [
  'room',
  'hotel_levy',
  'tourism_levy',
  'infrastructure_tax',
  'vat',
  'extra',
  'adjustment',
] as const;
export const FOLIO_PAYMENT_KINDS = ['cash', 'mobile_money', 'deposit'] as const;
export const FOLIO_LINE_KINDS = [...FOLIO_CHARGE_KINDS, ...FOLIO_PAYMENT_KINDS] as const;
export type FolioLineKind = (typeof FOLIO_LINE_KINDS)[number];

export interface NightCharge {
  /** The date the night starts on (a day-use stay's day). */
  night: string;
  kind: NightChargeKind;
  amount: number;
}

/**
 * `total` split over `weights` in proportion, each part rounded down on the
 * running sum, so the parts add up to `total` exactly; equal weights when
 * they sum to zero (free nights still share a per-person levy).
 */
export function splitInProportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const used = sum > 0 ? weights : weights.map(() => 1);
  const whole = BigInt(sum > 0 ? sum : weights.length);
  let running = 0n;
  let before = 0n;
  return used.map((weight) => {
    running += BigInt(weight);
    const upTo = (BigInt(total) * running) / whole;
    const part = Number(upTo - before);
    before = upTo;
    return part;
  });
}

/**
 * Every night's charges for a stay priced by `quote`: its rate as the room
 * line, and the levies and VAT split over the nights (by the nights' rates;
 * the infrastructure tax, per person-night, evenly). A day-use stay is one
 * "night", `dayUseDate`, charged the whole quote. Lines of zero are left out
 * but the room line, which marks the night as posted.
 */
export function nightCharges(quote: StayQuote, dayUseDate: string | null = null): NightCharge[] {
  const nights =
    quote.night_lines.length > 0
      ? quote.night_lines.map((line) => ({ night: line.date, rate: line.rate }))
      : dayUseDate !== null
        ? [{ night: dayUseDate, rate: quote.room_charge }]
        : [];
  if (nights.length === 0) return [];
  const rates = nights.map((night) => night.rate);
  const parts: Array<{ kind: NightChargeKind; amounts: number[] }> = [
    ...quote.levies.map((levy) => ({
      kind: levy.kind,
      amounts: splitInProportion(
        levy.amount,
        levy.kind === 'infrastructure_tax' ? rates.map(() => 1) : rates,
      ),
    })),
    { kind: 'vat', amounts: splitInProportion(quote.vat.amount, rates) },
  ];
  return nights.flatMap((night, index) => [
    { night: night.night, kind: 'room' as const, amount: night.rate },
    ...parts
      .map((part) => ({ night: night.night, kind: part.kind, amount: part.amounts[index]! }))
      .filter((charge) => charge.amount !== 0),
  ]);
}

/** A payment in another currency: what was handed over and the rate it was taken at. */
export interface ForeignTender {
  currency: Currency;
  /** In the foreign currency's smallest unit (cents for USD). */
  amount: number;
  /** Shillings for one whole unit of it (2,650 for a dollar). */
  rate: number;
}

/** The shillings a foreign payment is worth at its rate, rounded half up. */
export function shillingsOf(foreign: ForeignTender): number {
  const scale = 10n ** BigInt(minorUnitsOf(foreign.currency));
  const shillings = (BigInt(foreign.amount) * BigInt(foreign.rate) * 2n + scale) / (2n * scale);
  if (shillings < 1n || shillings > BigInt(MAX_AMOUNT))
    throw invalidField('amount_invalid', 'foreign.amount', `is worth ${shillings} shillings at that rate`);
  return Number(shillings);
}

/** A currency the front desk takes cash in besides shillings, at the property's rate. */
export interface DeskCurrency {
  currency: Currency;
  /** Shillings for one whole unit. */
  rate: number;
}

/**
 * The currencies the desk takes besides shillings: US dollars at the
 * property's `usd_rate`, once it is set (the rate the office keeps for the
 * infrastructure tax is the rate the desk takes dollars at).
 */
export function deskCurrencies(property: { usd_rate: number | null }): DeskCurrency[] {
  return property.usd_rate === null ? [] : [{ currency: 'USD', rate: property.usd_rate }];
}

/** The most of a currency (smallest units) worth no more than `shillings` at the rate: `shillingsOf` inverted. */
export function foreignWithin(shillings: number, { currency, rate }: DeskCurrency): number {
  const scale = 10 ** minorUnitsOf(currency);
  const worth = (amount: number) => Math.floor((2 * amount * rate + scale) / (2 * scale));
  let amount = Math.floor((shillings * scale) / rate);
  while (worth(amount + 1) <= shillings) amount += 1;
  while (amount > 0 && worth(amount) > shillings) amount -= 1;
  return Math.max(amount, 0);
}

const shillings = z.number().int({ error: 'must be whole shillings' }).min(1).max(MAX_AMOUNT);
const description = textSchema(200).min(1, { error: 'is required' });

export const foreignTenderSchema = z
  .strictObject({
    currency: z.enum(CURRENCY_CODES.filter((code) => code !== 'TZS') as [Currency, ...Currency[]]),
    amount: z.number().int().min(1).max(MAX_AMOUNT).describe('In the currency’s smallest unit (cents)'),
    rate: z.number().int().min(1).max(1_000_000).describe('Shillings for one whole unit of the currency'),
  })
  .describe('A non-resident guest’s payment in another currency, kept beside its shillings');

/** `POST /hospitality/reservations/{id}/folio/charges`: an extra, or an adjustment either way. */
export const folioChargeBody = z
  .strictObject({
    kind: z
      .enum(['extra', 'adjustment'])
      .optional()
      .describe('extra (the default): something the guest had; adjustment: a correction, negative to credit'),
    description,
    amount: z
      .number()
      .int({ error: 'must be whole shillings' })
      .min(-MAX_AMOUNT)
      .max(MAX_AMOUNT)
      .refine((value) => value !== 0, { error: 'must not be zero' })
      .describe('Shillings, VAT included; an extra is positive'),
  })
  .superRefine((value, ctx) => {
    if ((value.kind ?? 'extra') === 'extra' && value.amount < 0)
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: 'an extra is positive: credit with an adjustment',
      });
  });
export type FolioChargeInput = z.output<typeof folioChargeBody>;

/** `POST /hospitality/reservations/{id}/folio/payments`: at the desk, or by mobile money. */
export const folioPaymentBody = z.discriminatedUnion('method', [
  z
    .strictObject({
      method: z.enum(['cash', 'deposit']).describe('cash at the desk, or a deposit taken before the stay'),
      amount: shillings.optional().describe('Shillings; worked out from foreign when absent'),
      foreign: foreignTenderSchema.optional(),
      description: description.optional(),
    })
    .superRefine((value, ctx) => {
      if (value.amount === undefined && value.foreign === undefined)
        ctx.addIssue({ code: 'custom', path: ['amount'], message: 'give amount, or foreign' });
    }),
  z.strictObject({
    method: z.literal('mobile_money'),
    amount: shillings.describe('Shillings asked of the payer'),
    phone: tanzanianMobileSchema.describe('The payer’s mobile money number, normalised to 255XXXXXXXXX'),
  }),
]);
export type FolioPaymentInput = z.output<typeof folioPaymentBody>;

/** `POST /hospitality/reservations/{id}/check_out`. */
export const checkOutBody = z.strictObject({
  override: z
    .strictObject({
      reason: textSchema(500)
        .min(1, { error: 'is required' })
        .describe('Why the guest leaves owing (or owed)'),
    })
    .optional()
    .describe('A manager lets the guest leave at a balance other than zero; recorded with who gave it'),
});
