import { describe, expect, it } from 'vitest';
import { formatAmount, formatAmountDigits, minorUnitsOf } from './money.ts';

describe('amounts for people', () => {
  it('groups thousands and writes the currency’s decimals', () => {
    expect(formatAmountDigits(1_234_567, 0)).toBe('1,234,567');
    expect(formatAmountDigits(5, 2)).toBe('0.05');
    expect(formatAmountDigits(123_456, 2)).toBe('1,234.56');
    expect(formatAmountDigits(-1_000, 0)).toBe('-1,000');
    expect(formatAmountDigits(-1_000, 0, '−')).toBe('−1,000');
  });

  it('names the currency, and counts an unknown one in whole units', () => {
    expect(formatAmount(3_000, 'TZS')).toBe('TZS 3,000');
    expect(formatAmount(-1_250, 'USD')).toBe('USD -12.50');
    expect(minorUnitsOf('KES')).toBe(2);
    expect(minorUnitsOf('XYZ')).toBe(0);
  });
});
