/**
 * Exact integer arithmetic for money and quantities. Products such as
 * price × quantity can pass 2^53, so they are taken in BigInt and only the
 * (bounded) result comes back as a number.
 */

/** Round half up of `a * b / divisor`, for non-negative integers and a positive divisor. */
export function mulDivHalfUp(a: number, b: number, divisor: number): number {
  const numerator = BigInt(a) * BigInt(b);
  const d = BigInt(divisor);
  return Number((2n * numerator + d) / (2n * d));
}

/**
 * Splits `total` across `weights` in proportion, by largest remainder: each
 * share is floored, then the units left over go one each to the largest
 * fractional parts (earlier index first on a tie). The shares sum to `total`
 * exactly, and when `total <= sum(weights)` no share exceeds its weight.
 */
export function allocateProportionally(total: number, weights: readonly number[]): number[] {
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  if (total === 0) return weights.map(() => 0);
  if (weightSum === 0) throw new RangeError('cannot allocate a non-zero total over zero weights');

  const t = BigInt(total);
  const s = BigInt(weightSum);
  const parts = weights.map((weight, index) => {
    const product = t * BigInt(weight);
    return { index, share: Number(product / s), remainder: product % s };
  });
  let left = total - parts.reduce((sum, part) => sum + part.share, 0);
  const byRemainder = [...parts].sort((x, y) =>
    x.remainder === y.remainder ? x.index - y.index : x.remainder > y.remainder ? -1 : 1,
  );
  for (const part of byRemainder) {
    if (left === 0) break;
    part.share += 1;
    left -= 1;
  }
  return parts.map((part) => part.share);
}

/** Basis points as a percentage text: 1800 -> "18%", 1650 -> "16.5%", 1625 -> "16.25%". */
export function formatBasisPoints(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const fraction = (basisPoints % 100).toString().padStart(2, '0').replace(/0+$/, '');
  return fraction === '' ? `${whole}%` : `${whole}.${fraction}%`;
}
