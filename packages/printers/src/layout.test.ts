import { describe, expect, it } from 'vitest';
import { formatIssuedAt, leftRight, wrap } from './layout.ts';

describe('layout', () => {
  it('keeps the shop’s local time from the ISO string', () => {
    expect(formatIssuedAt('2026-11-25T23:59:00+03:00')).toBe('25/11/2026 23:59');
  });

  it('wraps at spaces and splits words longer than a line', () => {
    expect(wrap('one two three', 7)).toEqual(['one two', 'three']);
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('puts the amount on the last line when the label does not fit beside it', () => {
    expect(leftRight('Label', '1,000', 12)).toEqual(['Label  1,000']);
    expect(leftRight('A very long label', '1,000', 12)).toEqual(['A very', 'long', 'label  1,000']);
  });
});
