/**
 * Words and numbers for people, shared by the till and the back office, with
 * no React and no messages of either: placeholders, money, counts, times.
 */
import { formatAmountDigits, minorUnitsOf } from '@tz/core/money';
import { formatEastAfricaTime, shopDateTime } from '@tz/core/time';

export type Language = 'sw' | 'en';
export type Params = Record<string, string | number>;

/** Fills `{name}` placeholders; an unknown placeholder stays visible rather than vanishing. */
export function interpolate(text: string, params: Params = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * An integer amount in the currency's smallest unit, for people: TZS 12500 ->
 * "TZS 12,500" (no decimals), USD 1999 -> "USD 19.99"; a true minus sign on screen.
 */
export const formatMoney = (amount: number, currency = 'TZS'): string =>
  `${currency} ${formatAmountDigits(amount, minorUnitsOf(currency), '−')}`;

/** A count for people, its thousands grouped: 1234567 -> "1,234,567". */
export const formatCount = (count: number): string => formatAmountDigits(count, 0, '−');

/** 1000 basis points -> "10%", 1250 -> "12.5%". */
export function formatPercent(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const rest = (basisPoints % 100).toString().padStart(2, '0').replace(/0+$/, '');
  return rest === '' ? `${whole}%` : `${whole}.${rest}%`;
}

/** "25/11/2026" and "14:03" in the shop's time (East Africa Time). */
const shopTime = (unixMs: number) => shopDateTime(formatEastAfricaTime(new Date(unixMs)))!;

/** "14:03" in the shop's time. */
export const formatTime = (unixMs: number): string => shopTime(unixMs).time;

/** "25/11/2026 14:03" in the shop's time. */
export function formatDateTime(unixMs: number): string {
  const { date, time } = shopTime(unixMs);
  return `${date} ${time}`;
}

/**
 * What a cashier typed as an amount, in the currency's smallest unit:
 * "12,500" -> 12500 (TZS), "19.99" -> 1999 (USD). Null when it is not an amount.
 */
export function parseAmount(text: string, currency = 'TZS'): number | null {
  const minorUnits = minorUnitsOf(currency);
  const cleaned = text.replace(/[\s,]/g, '');
  const match = minorUnits === 0 ? /^(\d+)$/.exec(cleaned) : /^(\d*)(?:\.(\d*))?$/.exec(cleaned);
  if (!match || cleaned === '' || cleaned === '.') return null;
  const whole = match[1] || '0';
  const fraction = (match[2] ?? '').slice(0, minorUnits).padEnd(minorUnits, '0');
  if ((match[2] ?? '').length > minorUnits) return null;
  const value = Number(whole + fraction);
  return Number.isSafeInteger(value) ? value : null;
}

/** "0.750" kg or "2" pieces -> thousandths (750, 2000); null when not a positive quantity. */
export function parseQuantityMilli(text: string, whole: boolean): number | null {
  const match = whole ? /^(\d+)$/.exec(text.trim()) : /^(\d*)(?:[.,](\d{0,3}))?$/.exec(text.trim());
  if (!match || text.trim() === '') return null;
  const milli = Number(match[1] || '0') * 1000 + Number((match[2] ?? '').padEnd(3, '0') || '0');
  return milli > 0 && Number.isSafeInteger(milli) ? milli : null;
}

/** 2000 pieces-milli -> "2"; 750 kg-milli -> "0.750". */
export function formatQuantityMilli(milli: number, whole: boolean): string {
  if (whole && milli % 1000 === 0) return String(milli / 1000);
  return `${Math.trunc(milli / 1000)}.${String(milli % 1000).padStart(3, '0')}`;
}

/** "10" -> 1000 basis points, "12.5" -> 1250; null above 100% or when not a number. */
export function parsePercent(text: string): number | null {
  const match = /^(\d{1,3})(?:[.,](\d{0,2}))?$/.exec(text.trim().replace(/%$/, ''));
  if (!match) return null;
  const basisPoints = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return basisPoints <= 10_000 ? basisPoints : null;
}
