import { describe, expect, it } from 'vitest';
import { AMOUNT_PROBLEMS, formatAmount, formatAmountDigits, minorUnitsOf, readAmount } from './money.ts';

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

describe('amounts as people write them', () => {
  const read = (text: string, currency?: string) => readAmount(text, currency);

  it('reads the forms the office and the catalogue CSV accept', () => {
    for (const text of [
      '12,500',
      '12500',
      'TZS 12,500',
      'tzs12500',
      '12500.00',
      '12 500',
      '12.500',
      ' 12,500.0 ',
    ])
      expect(read(text), text).toEqual({ amount: 12_500 });
    expect(read('0')).toEqual({ amount: 0 });
    expect(read('1,234.56', 'USD')).toEqual({ amount: 123_456 });
    expect(read('USD 19.9', 'USD')).toEqual({ amount: 1_990 });
  });

  it('refuses the rest, saying why', () => {
    expect(read('12.50')).toEqual({ problem: 'fraction' });
    expect(read('12.005', 'USD')).toEqual({ problem: 'fraction' });
    for (const text of ['1,2,3', 'abc', '', '12,5OO', '12..5', '1 2'])
      expect(read(text), text).toEqual({ problem: 'invalid' });
    expect(read('-500')).toEqual({ problem: 'negative' });
    expect(read('TZS -500')).toEqual({ problem: 'negative' });
    expect(read('USD 500')).toEqual({ problem: 'currency' });
    expect(read('1,000,000,000,000')).toEqual({ problem: 'too_large' });
    expect(AMOUNT_PROBLEMS.fraction).toContain('12.50');
    expect(AMOUNT_PROBLEMS.invalid).toContain('12,500');
  });
});
