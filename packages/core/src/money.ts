import { z } from 'zod';

/**
 * Amounts are integers in the smallest unit in local use: whole shillings for
 * TZS/UGX/RWF, cents for USD/KES/EUR. Never floats.
 */
export const CURRENCIES = {
  TZS: { minorUnits: 0 },
  UGX: { minorUnits: 0 },
  RWF: { minorUnits: 0 },
  KES: { minorUnits: 2 },
  USD: { minorUnits: 2 },
  EUR: { minorUnits: 2 },
} as const;

export type Currency = keyof typeof CURRENCIES;
export const CURRENCY_CODES = Object.keys(CURRENCIES) as [Currency, ...Currency[]];
export const MAX_AMOUNT = 999_999_999_999;

export const currencySchema = z
  .string()
  .transform((value) => value.toUpperCase())
  .pipe(z.enum(CURRENCY_CODES, { error: `must be one of ${CURRENCY_CODES.join(', ')}` }));

export const amountSchema = z
  .number({ error: 'must be an integer' })
  .int({ error: 'must be an integer in the currency’s smallest unit' })
  .min(1, { error: 'must be at least 1' })
  .max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT}` });

export function isCurrency(value: string): value is Currency {
  return value in CURRENCIES;
}

/** Integer percentage of an amount in basis points, rounded half up. */
export function basisPointsOf(amount: number, basisPoints: number): number {
  return Math.floor((amount * basisPoints + 5_000) / 10_000);
}

/** The digits after the point in `currency`'s amounts; a code outside `CURRENCIES` counts whole units. */
export const minorUnitsOf = (currency: string): number =>
  isCurrency(currency) ? CURRENCIES[currency].minorUnits : 0;

/**
 * `12,500`, `19.99`: an amount in the smallest unit, written with `minorUnits`
 * decimals and its thousands grouped, `minus` before a negative one. Integer
 * arithmetic only. Every amount people read (receipts, the till, pages) is written by it.
 */
export function formatAmountDigits(amount: number, minorUnits: number, minus = '-'): string {
  const sign = amount < 0 ? minus : '';
  const digits = String(Math.abs(Math.trunc(amount)));
  if (minorUnits === 0) return sign + groupThousands(digits);
  const padded = digits.padStart(minorUnits + 1, '0');
  return `${sign}${groupThousands(padded.slice(0, -minorUnits))}.${padded.slice(-minorUnits)}`;
}

const groupThousands = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `TZS 3,000`, `USD 12.50`: the amount in its currency's minor units, grouped by thousands. */
export function formatAmount(amount: number, currency: Currency): string {
  return `${currency} ${formatAmountDigits(amount, CURRENCIES[currency].minorUnits)}`;
}
