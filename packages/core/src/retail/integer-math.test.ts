import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateProportionally, formatBasisPoints, mulDivHalfUp } from './integer-math.ts';

describe('mulDivHalfUp', () => {
  it('rounds exact halves up and everything else to the nearest', () => {
    expect(mulDivHalfUp(1, 500, 1_000)).toBe(1);
    expect(mulDivHalfUp(1, 499, 1_000)).toBe(0);
    expect(mulDivHalfUp(10_000, 1_800, 11_800)).toBe(1_525);
  });

  it('stays exact where the product passes 2^53', () => {
    expect(mulDivHalfUp(999_999_999_999, 999_999, 1_000)).toBe(999_998_999_999_000);
    expect(mulDivHalfUp(999_999_999_999, 999_999_999, 1_000_000_000)).toBe(999_999_998_999);
    expect(mulDivHalfUp(999_999_999_999, 500_000_001, 1_000_000_002)).toBe(500_000_000_000);
  });
});

describe('allocateProportionally', () => {
  it('gives the leftover units to the largest remainders, earlier lines first on a tie', () => {
    expect(allocateProportionally(100, [100, 200, 300])).toEqual([17, 33, 50]);
    expect(allocateProportionally(2, [1, 1, 1])).toEqual([1, 1, 0]);
    expect(allocateProportionally(0, [0, 0])).toEqual([0, 0]);
  });

  it('refuses to spread a non-zero total over nothing', () => {
    expect(() => allocateProportionally(1, [0, 0])).toThrow(RangeError);
  });

  it('sums exactly, stays within one unit of the exact share, and never exceeds a weight', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 20 })
          .filter((w) => w.some((x) => x > 0)),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (weights, fraction) => {
          const weightSum = weights.reduce((a, b) => a + b, 0);
          const total = Math.floor(weightSum * fraction);
          const shares = allocateProportionally(total, weights);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
          shares.forEach((share, index) => {
            const weight = weights[index] ?? 0;
            const exact = (total * weight) / weightSum;
            expect(share).toBeGreaterThanOrEqual(Math.floor(exact));
            expect(share).toBeLessThanOrEqual(Math.ceil(exact));
            expect(share).toBeLessThanOrEqual(weight);
          });
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe('formatBasisPoints', () => {
  it.each([
    [1_800, '18%'],
    [1_500, '15%'],
    [0, '0%'],
    [1_650, '16.5%'],
    [1_625, '16.25%'],
    [5, '0.05%'],
    [10_000, '100%'],
  ])('shows %i basis points as %s', (basisPoints, text) => {
    expect(formatBasisPoints(basisPoints)).toBe(text);
  });
});
