import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import {
  formatReceiptNumber,
  isStorePrefix,
  isValidTillPrefix,
  nextReceiptNumber,
  parseReceiptNumber,
  storePrefixFor,
  tillPrefixFor,
} from './receipt-number.ts';

describe('receipt numbers', () => {
  it('formats a till prefix and a six-digit sequence', () => {
    expect(formatReceiptNumber('T01', 123)).toBe('T01-000123');
    expect(formatReceiptNumber('T01', 1_234_567)).toBe('T01-1234567');
  });

  it('parses what it formats', () => {
    expect(parseReceiptNumber('T01-000123')).toEqual({ tillPrefix: 'T01', sequence: 123 });
    expect(parseReceiptNumber('KARIAKO2-1234567')).toEqual({ tillPrefix: 'KARIAKO2', sequence: 1_234_567 });
  });

  it.each([
    'T01-123',
    'T01-0000123',
    'T01-000000',
    't01-000123',
    '01-000123',
    'T01000123',
    'T-01-000123',
    'TOOLONGPX-000001',
    '',
  ])('refuses %j', (text) => {
    expect(parseReceiptNumber(text)).toBeNull();
  });

  it('validates till prefixes', () => {
    expect(isValidTillPrefix('T01')).toBe(true);
    expect(isValidTillPrefix('T-1')).toBe(false);
    expect(isValidTillPrefix('1T')).toBe(false);
    expect(() => formatReceiptNumber('t01', 1)).toThrow(AppError);
    expect(() => formatReceiptNumber('T01', 0)).toThrow(AppError);
  });

  it('numbers tills T01, T02... and continues a till from its last sequence', () => {
    expect([1, 9, 10, 100].map(tillPrefixFor)).toEqual(['T01', 'T09', 'T10', 'T100']);
    // The server's own numbers use a store's prefix, which no till prefix ever is.
    expect([1, 12].map(storePrefixFor)).toEqual(['S01', 'S12']);
    expect([storePrefixFor(3), tillPrefixFor(3), 'SHOP'].map(isStorePrefix)).toEqual([true, false, false]);
    expect(nextReceiptNumber('T02', 0)).toEqual({
      tillPrefix: 'T02',
      sequence: 1,
      receiptNumber: 'T02-000001',
    });
    expect(nextReceiptNumber('T02', 41).receiptNumber).toBe('T02-000042');
  });

  const prefixArb = fc.stringMatching(/^[A-Z][A-Z0-9]{0,7}$/);
  const sequenceArb = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });

  it('round-trips every valid prefix and sequence', () => {
    fc.assert(
      fc.property(prefixArb, sequenceArb, (tillPrefix, sequence) => {
        expect(parseReceiptNumber(formatReceiptNumber(tillPrefix, sequence))).toEqual({
          tillPrefix,
          sequence,
        });
      }),
      { numRuns: 1_000 },
    );
  });

  it('never gives two different tills, or two sequences, the same number', () => {
    fc.assert(
      fc.property(prefixArb, sequenceArb, prefixArb, sequenceArb, (prefixA, seqA, prefixB, seqB) => {
        fc.pre(prefixA !== prefixB || seqA !== seqB);
        expect(formatReceiptNumber(prefixA, seqA)).not.toBe(formatReceiptNumber(prefixB, seqB));
      }),
      { numRuns: 1_000 },
    );
  });
});
