import { describe, expect, it } from 'vitest';
import { promoCreateBody, promoDiscount } from './promos.ts';

const lines = [
  { tier: 'tier_a', unit_price: 33_333, quantity: 3 },
  { tier: 'tier_b', unit_price: 10_000, quantity: 1 },
];

describe('promo discounts', () => {
  it('take a percentage of the lines they apply to, rounded down', () => {
    expect(promoDiscount({ percent_off: 10, amount_off: null, tier_id: null }, lines)).toBe(10_999);
    expect(promoDiscount({ percent_off: 15, amount_off: null, tier_id: 'tier_b' }, lines)).toBe(1_500);
    expect(promoDiscount({ percent_off: 100, amount_off: null, tier_id: 'tier_a' }, lines)).toBe(99_999);
  });

  it('take a fixed amount at most the lines they apply to, and nothing from other tiers', () => {
    expect(promoDiscount({ percent_off: null, amount_off: 5_000, tier_id: null }, lines)).toBe(5_000);
    expect(promoDiscount({ percent_off: null, amount_off: 50_000, tier_id: 'tier_b' }, lines)).toBe(10_000);
    expect(promoDiscount({ percent_off: null, amount_off: 5_000, tier_id: 'tier_c' }, lines)).toBe(0);
  });

  it('are either a percentage or an amount', () => {
    expect(promoCreateBody.safeParse({ code: 'ABC', percent_off: 5 }).success).toBe(true);
    expect(promoCreateBody.safeParse({ code: 'ABC', percent_off: 5, amount_off: 5 }).success).toBe(false);
    expect(promoCreateBody.safeParse({ code: 'ABC' }).success).toBe(false);
  });
});
