/**
 * Receipt numbers a till can issue offline: the till's prefix, a dash, and the
 * till's own sequence padded to six digits (`T01-000123`). The server gives
 * each till of a merchant a distinct prefix once, at registration; since a
 * prefix holds no dash, the number splits back into exactly one (prefix,
 * sequence) pair, so two tills can never issue the same number.
 */
import { invalidField } from '../errors.ts';

export interface ReceiptNumberParts {
  tillPrefix: string;
  /** 1, 2, 3... per till, never reused. */
  sequence: number;
}

/** A prefix: 1 to 8 capital letters or digits, starting with a letter (a pattern to build searches from). */
export const RECEIPT_PREFIX_PATTERN = '[A-Z][A-Z0-9]{0,7}';
const TILL_PREFIX = new RegExp(`^${RECEIPT_PREFIX_PATTERN}$`);
const RECEIPT_NUMBER = new RegExp(`^(${RECEIPT_PREFIX_PATTERN})-([1-9]\\d{5,}|0\\d{5})$`);
const SEQUENCE_DIGITS = 6;

export function isValidTillPrefix(prefix: string): boolean {
  return TILL_PREFIX.test(prefix);
}

function prefixFor(letter: 'T' | 'S', ordinal: number): string {
  if (!Number.isSafeInteger(ordinal) || ordinal < 1 || ordinal > 9_999_999) {
    throw invalidField('parameter_invalid', 'ordinal', 'must be an integer from 1 to 9999999');
  }
  return `${letter}${ordinal.toString().padStart(2, '0')}`;
}

/** The prefix for the n-th till of a merchant (1 -> "T01", 100 -> "T100"). */
export const tillPrefixFor = (ordinal: number): string => prefixFor('T', ordinal);

/**
 * The prefix of the receipts the server numbers itself for the n-th store of
 * a merchant (1 -> "S01"); no till is ever given one, so the two never collide.
 */
export const storePrefixFor = (ordinal: number): string => prefixFor('S', ordinal);

/** Whether a prefix is one `storePrefixFor` gives: reserved for the server's numbers. */
export const isStorePrefix = (prefix: string): boolean => /^S\d+$/.test(prefix);

export function formatReceiptNumber(tillPrefix: string, sequence: number): string {
  if (!isValidTillPrefix(tillPrefix)) {
    throw invalidField(
      'parameter_invalid',
      'tillPrefix',
      'must be 1 to 8 capital letters or digits, starting with a letter',
    );
  }
  if (!Number.isSafeInteger(sequence) || sequence < 1) {
    throw invalidField('parameter_invalid', 'sequence', 'must be a positive integer');
  }
  return `${tillPrefix}-${sequence.toString().padStart(SEQUENCE_DIGITS, '0')}`;
}

/** Splits a receipt number; null unless it is exactly what `formatReceiptNumber` would print. */
export function parseReceiptNumber(receiptNumber: string): ReceiptNumberParts | null {
  const match = RECEIPT_NUMBER.exec(receiptNumber);
  if (!match?.[1] || !match[2]) return null;
  const sequence = Number(match[2]);
  if (!Number.isSafeInteger(sequence) || sequence < 1) return null;
  return { tillPrefix: match[1], sequence };
}

/** The number after `lastSequence` (0 for a new till). */
export function nextReceiptNumber(
  tillPrefix: string,
  lastSequence: number,
): ReceiptNumberParts & { receiptNumber: string } {
  if (!Number.isSafeInteger(lastSequence) || lastSequence < 0) {
    throw invalidField('parameter_invalid', 'lastSequence', 'must be a non-negative integer');
  }
  const sequence = lastSequence + 1;
  return { tillPrefix, sequence, receiptNumber: formatReceiptNumber(tillPrefix, sequence) };
}
