/**
 * What a cashier types into the Sales list, read as receipt numbers and
 * amounts, and the shop's days in East Africa Time. Pure: no storage, no DOM.
 *
 * - `T01-000012`, `t01-12`, `T01 12`: that till's receipt 12. The digits also
 *   match as the start of the six (`T01-00001` finds 10 to 19 as well as 1),
 *   so the list narrows as the number is typed; `T01` alone is every one of it.
 * - `12` or `000012`: receipt 12 of any prefix, and sales whose total is 12.
 * - `5,000`, `5 000`, `TZS 5,000`, `5000/=`: sales whose total is that amount
 *   (in each sale's currency: `19.99` is USD 1999).
 */
import {
  RECEIPT_PREFIX_PATTERN,
  eastAfricaDate,
  eastAfricaDay,
  minorUnitsOf,
  parseReceiptNumber,
} from '@tz/core';

/** What the list is asked for: the words typed, and a shop day (`2026-11-26`, today, yesterday) or any day. */
export interface SalesFilter {
  text: string;
  day: string | null;
}

/** What the search needs to know of a sale: kept in memory for every sale on the till. */
export interface SaleEntry {
  /** The sale's command id (ULID order: oldest first). */
  id: string;
  receiptNumber: string;
  total: number;
  currency: string;
  /** Unix ms on the till. */
  soldAt: number;
}

export type SalesSearch =
  | { kind: 'all' }
  | { kind: 'nothing' }
  | {
      kind: 'search';
      /** Receipt numbers: a prefix (or any), and the digits typed after it. */
      receipt: { prefix: string | null; digits: string } | null;
      /** The amount as typed, read in each sale's currency (only in this one when it was typed too). */
      amount: { text: string; currency: string | null } | null;
    };

const DIGITS = /^#?(\d{1,12})$/;
const PREFIX_AND_DIGITS = new RegExp(`^(${RECEIPT_PREFIX_PATTERN})(?:[-\\s]+(\\d{0,12}))?$`);
/** Digits with thousands separators and at most one decimal point; a currency code or `/=` around them. */
const AMOUNT = /^(?:([A-Z]{3})\s*)?(\d[\d,\s]*(?:\.\d*)?)(?:\s*\/=)?$/;

export function parseSalesSearch(typed: string): SalesSearch {
  const text = typed.trim().toUpperCase().replace(/\s+/g, ' ');
  if (text === '') return { kind: 'all' };
  const digits = DIGITS.exec(text)?.[1];
  const prefixed = digits === undefined ? PREFIX_AND_DIGITS.exec(text) : null;
  const amount = digits === undefined ? AMOUNT.exec(text) : null;
  const receipt = digits
    ? { prefix: null, digits }
    : prefixed
      ? { prefix: prefixed[1]!, digits: prefixed[2] ?? '' }
      : null;
  const money = digits
    ? { text: digits, currency: null }
    : amount
      ? { text: amount[2]!, currency: amount[1] ?? null }
      : null;
  if (!receipt && !money) return { kind: 'nothing' };
  return { kind: 'search', receipt, amount: money };
}

/** An amount typed, in the currency's smallest unit; null when it is not one in that currency. */
function amountIn(text: string, currency: string): number | null {
  const minorUnits = minorUnitsOf(currency);
  const cleaned = text.replace(/[\s,]/g, '');
  const match = /^(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.replace(/0+$/, '').length > minorUnits) return null;
  const value = Number(match[1]! + fraction.slice(0, minorUnits).padEnd(minorUnits, '0'));
  return Number.isSafeInteger(value) ? value : null;
}

/** How a sale answers the search: by its receipt number (shown first), by its total, or not at all. */
export function matchSale(
  entry: SaleEntry,
  search: SalesSearch,
  amounts: Map<string, number | null> = new Map(),
): 'receipt' | 'amount' | null {
  if (search.kind === 'all') return 'receipt';
  if (search.kind === 'nothing') return null;
  const { receipt, amount } = search;
  if (receipt) {
    const parts = parseReceiptNumber(entry.receiptNumber);
    if (parts && (receipt.prefix === null || receipt.prefix === parts.tillPrefix)) {
      if (receipt.digits === '') return 'receipt';
      if (Number(receipt.digits) === parts.sequence) return 'receipt';
      // Typed after a prefix, the digits may be the start of the number's six.
      const sequence = entry.receiptNumber.slice(parts.tillPrefix.length + 1);
      if (receipt.prefix !== null && sequence.startsWith(receipt.digits)) return 'receipt';
    }
  }
  if (amount !== null && (amount.currency === null || amount.currency === entry.currency)) {
    if (!amounts.has(entry.currency)) amounts.set(entry.currency, amountIn(amount.text, entry.currency));
    if (amounts.get(entry.currency) === entry.total) return 'amount';
  }
  return null;
}

const DAY_MS = 24 * 3_600_000;

/** The shop's day (East Africa Time) of an instant: `2026-11-26`. */
export const shopDay = (unixMs: number): string => eastAfricaDate(new Date(unixMs));

/** The day `days` after (or before) a shop day. */
export function addDays(day: string, days: number): string {
  return shopDay(dayStart(day) + days * DAY_MS);
}

/** Midnight in Dar es Salaam starting that day, in unix ms (21:00 UTC the day before). */
export function dayStart(day: string): number {
  const bounds = eastAfricaDay(day);
  if (!bounds) throw new RangeError(`not a day: ${day}`);
  return bounds.start.getTime();
}

/** The shop day a filter names, `today` and `yesterday` by the till's clock. */
export function filterDay(day: SalesFilter['day'], now: number): string | null {
  if (day === 'today') return shopDay(now);
  if (day === 'yesterday') return addDays(shopDay(now), -1);
  return day;
}

/** Whether the sale was made on that shop day (midnight to midnight, East Africa Time). */
export const soldOn = (entry: SaleEntry, day: string): boolean => {
  const start = dayStart(day);
  return entry.soldAt >= start && entry.soldAt < start + DAY_MS;
};
