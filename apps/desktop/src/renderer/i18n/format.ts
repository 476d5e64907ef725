/** The till's words and numbers for people, with no React: placeholders, money, percentages, times. */
import { CURRENCIES, formatEastAfricaTime, isCurrency, shopDateTime } from '@tz/core';
import { en, type MessageKey, type Messages } from './en.ts';
import { sw } from './sw.ts';

export type Language = 'sw' | 'en';
export const LANGUAGES: Record<Language, Messages> = { sw, en };

export type Params = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: Params) => string;

/** Fills `{name}` placeholders; an unknown placeholder stays visible rather than vanishing. */
export function interpolate(text: string, params: Params = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function translator(language: Language): Translate {
  const messages = LANGUAGES[language];
  return (key, params) => interpolate(messages[key], params);
}

/** Groups thousands with commas: "1234567" -> "1,234,567". */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * An integer amount in the currency's smallest unit, for people: TZS 12500 ->
 * "TZS 12,500" (no decimals), USD 1999 -> "USD 19.99". Integer arithmetic only.
 */
export function formatMoney(amount: number, currency = 'TZS'): string {
  const minorUnits = isCurrency(currency) ? CURRENCIES[currency].minorUnits : 0;
  const sign = amount < 0 ? '−' : '';
  const digits = String(Math.abs(Math.trunc(amount)));
  if (minorUnits === 0) return `${currency} ${sign}${groupThousands(digits)}`;
  const padded = digits.padStart(minorUnits + 1, '0');
  return `${currency} ${sign}${groupThousands(padded.slice(0, -minorUnits))}.${padded.slice(-minorUnits)}`;
}

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
  const minorUnits = isCurrency(currency) ? CURRENCIES[currency].minorUnits : 0;
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
