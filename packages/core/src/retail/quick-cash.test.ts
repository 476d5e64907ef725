import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QUICK_CASH_MAX, QUICK_CASH_STEPS, quickCashAmounts } from './quick-cash.ts';

const TZS_STEPS = QUICK_CASH_STEPS.TZS!;
const due = fc.integer({ min: 1, max: 999_999_999_999 });

describe('quick-cash amounts', () => {
  it('offers the exact amount first, then round amounts above it, each once and rising', () => {
    fc.assert(
      fc.property(due, (amount) => {
        const offered = quickCashAmounts(amount, 'TZS');
        expect(offered[0]).toBe(amount);
        expect(offered.length).toBeGreaterThanOrEqual(1);
        expect(offered.length).toBeLessThanOrEqual(QUICK_CASH_MAX);
        for (let i = 1; i < offered.length; i++) {
          expect(offered[i]!).toBeGreaterThan(offered[i - 1]!);
          expect(Number.isInteger(offered[i])).toBe(true);
          // Every button but the exact one is a whole number of some step: what a customer hands over.
          expect(TZS_STEPS.some((step) => offered[i]! % step === 0)).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves out a step’s next round amount only when five smaller buttons are already offered', () => {
    fc.assert(
      fc.property(due, (amount) => {
        const offered = quickCashAmounts(amount, 'TZS');
        for (const step of TZS_STEPS) {
          const next = Math.ceil(amount / step) * step;
          if (next > 999_999_999_999 || offered.includes(next)) continue;
          expect(offered).toHaveLength(QUICK_CASH_MAX);
          expect(offered.every((value) => value < next)).toBe(true);
        }
        // No button lies above a smaller round amount it skipped: each is the next multiple of some step.
        for (const value of offered.slice(1)) {
          expect(TZS_STEPS.some((step) => Math.ceil(amount / step) * step === value)).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('gives the buttons a cashier expects for everyday totals', () => {
    expect(quickCashAmounts(3_450, 'TZS')).toEqual([3_450, 4_000, 5_000, 10_000, 20_000]);
    expect(quickCashAmounts(12_300, 'TZS')).toEqual([12_300, 13_000, 14_000, 15_000, 20_000]);
    expect(quickCashAmounts(45_000, 'TZS')).toEqual([45_000, 46_000, 50_000, 60_000]);
    expect(quickCashAmounts(20_000, 'TZS')).toEqual([20_000]);
    expect(quickCashAmounts(500, 'TZS')).toEqual([500, 1_000, 2_000, 5_000, 10_000]);
  });

  it('offers only the exact amount in a currency without round steps, and nothing for nothing due', () => {
    expect(quickCashAmounts(1_999, 'USD')).toEqual([1_999]);
    expect(quickCashAmounts(0, 'TZS')).toEqual([]);
    expect(quickCashAmounts(-5, 'TZS')).toEqual([]);
  });
});
