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

/** Why a written amount was refused. */
export type AmountProblem = 'invalid' | 'negative' | 'fraction' | 'too_large' | 'currency';

/** Each problem as the API says it beside a field (English; the pages have their own words). */
export const AMOUNT_PROBLEMS: Record<AmountProblem, string> = {
  invalid: 'must be written like 12,500 or 12500',
  negative: 'must not be negative',
  fraction: 'has more decimals than the currency has (TZS has none: 12,500, not 12.50)',
  too_large: `must be at most ${MAX_AMOUNT}`,
  currency: 'is in another currency',
};

const GROUPED = /^\d{1,3}(?:[, \u00a0\u202f]\d{3})+$|^\d+$/;
/** Thousands apart by dots (`12.500`) too, where the currency has no decimals to confuse them with. */
const DOT_GROUPED = /^\d{1,3}(?:\.\d{3})+$/;

/**
 * An amount as people and spreadsheets write it, in `currency`'s smallest
 * unit: `12,500`, `12500`, `12 500`, `TZS 12,500`, `12500.00` (zero cents on
 * a whole currency) and, for a currency with cents, `19.99`. The one reading
 * of a written amount: the back office's fields and the catalogue's CSV import.
 */
export function readAmount(text: string, currency = 'TZS'): { amount: number } | { problem: AmountProblem } {
  let value = text.trim();
  const code = /^([A-Za-z]{3})\s*(?=[\d\-−])/.exec(value);
  if (code) {
    if (code[1]!.toUpperCase() !== currency.toUpperCase()) return { problem: 'currency' };
    value = value.slice(code[0].length);
  }
  if (/^[-−]/.test(value)) return { problem: 'negative' };
  const minorUnits = minorUnitsOf(currency);
  const decimals = /^(.*?)[.,](\d{1,2})$/.exec(value);
  let whole = value;
  let fraction = '';
  if (decimals && !(minorUnits === 0 && DOT_GROUPED.test(value)) && !GROUPED.test(value)) {
    whole = decimals[1]!;
    fraction = decimals[2]!;
    if (!GROUPED.test(whole)) return { problem: 'invalid' };
    if (fraction.length > minorUnits && !/^0+$/.test(fraction)) return { problem: 'fraction' };
    fraction = fraction.replace(/0+$/, '').slice(0, minorUnits);
  } else if (minorUnits === 0 && DOT_GROUPED.test(value)) {
    whole = value;
  } else if (!GROUPED.test(value)) {
    return { problem: /^\d*[.,]\d{3,}$/.test(value) ? 'fraction' : 'invalid' };
  }
  const amount = Number(whole.replace(/\D/g, '') + fraction.padEnd(minorUnits, '0'));
  if (!Number.isSafeInteger(amount) || amount > MAX_AMOUNT) return { problem: 'too_large' };
  return { amount };
}
