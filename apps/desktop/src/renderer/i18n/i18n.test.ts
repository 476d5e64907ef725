import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import { sw } from './sw.ts';
import {
  formatMoney,
  formatPercent,
  formatQuantityMilli,
  interpolate,
  parseAmount,
  parseQuantityMilli,
  translator,
} from './format.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('till strings', () => {
  it('gives every English key in Swahili and no key English lacks', () => {
    expect(Object.keys(sw).sort()).toEqual(Object.keys(en).sort());
  });

  it('leaves no string empty in either language', () => {
    for (const [key, text] of [...Object.entries(en), ...Object.entries(sw)]) {
      expect(text.trim(), key).not.toBe('');
    }
  });

  it('uses the same placeholders in both languages', () => {
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      expect(placeholders(sw[key]), key).toEqual(placeholders(en[key]));
    }
  });

  it('says "PIN" on the sign-in screen in either language', () => {
    for (const language of ['sw', 'en'] as const) {
      const t = translator(language);
      expect(t('pin')).toBe('PIN');
      expect(t('signInPrompt')).toContain('PIN');
    }
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(interpolate('{count} not synced', { count: 3 })).toBe('3 not synced');
    expect(interpolate('{count} not synced')).toBe('{count} not synced');
  });
});

describe('money for people', () => {
  it('formats TZS with thousands separators and no decimals', () => {
    expect(formatMoney(1_234_567, 'TZS')).toBe('TZS 1,234,567');
    expect(formatMoney(500, 'TZS')).toBe('TZS 500');
    expect(formatMoney(0, 'TZS')).toBe('TZS 0');
    expect(formatMoney(-12_500, 'TZS')).toBe('TZS −12,500');
  });

  it('formats cents currencies with two decimals from integers', () => {
    expect(formatMoney(199_999, 'USD')).toBe('USD 1,999.99');
    expect(formatMoney(5, 'KES')).toBe('KES 0.05');
  });

  it('formats basis points as a percentage', () => {
    expect(formatPercent(1000)).toBe('10%');
    expect(formatPercent(1250)).toBe('12.5%');
    expect(formatPercent(5)).toBe('0.05%');
  });
});

describe('amounts and quantities typed by a cashier', () => {
  it('reads shillings with or without separators, and refuses decimals for TZS', () => {
    expect(parseAmount('12,500', 'TZS')).toBe(12_500);
    expect(parseAmount(' 7000 ', 'TZS')).toBe(7000);
    expect(parseAmount('12.5', 'TZS')).toBeNull();
    expect(parseAmount('abc', 'TZS')).toBeNull();
    expect(parseAmount('', 'TZS')).toBeNull();
  });

  it('reads cents currencies as integers', () => {
    expect(parseAmount('19.99', 'USD')).toBe(1999);
    expect(parseAmount('19.9', 'USD')).toBe(1990);
    expect(parseAmount('19.999', 'USD')).toBeNull();
  });

  it('reads weights in thousandths and whole pieces', () => {
    expect(parseQuantityMilli('0.750', false)).toBe(750);
    expect(parseQuantityMilli('1,5', false)).toBe(1500);
    expect(parseQuantityMilli('3', true)).toBe(3000);
    expect(parseQuantityMilli('1.5', true)).toBeNull();
    expect(parseQuantityMilli('0', true)).toBeNull();
    expect(formatQuantityMilli(750, false)).toBe('0.750');
    expect(formatQuantityMilli(2000, true)).toBe('2');
  });
});
