import { basisPointsOf } from '../money.ts';

/**
 * The processing fee charged on a paid payment: a percentage in basis points,
 * rounded half up to the smallest unit, plus a fixed part, never more than the
 * amount. Configured per deployment (FEE_BASIS_POINTS, FEE_FIXED).
 */
export interface FeeSchedule {
  basisPoints: number;
  fixed: number;
}

export const DEFAULT_FEE_SCHEDULE: FeeSchedule = { basisPoints: 150, fixed: 0 };

export function feeFor(amount: number, schedule: FeeSchedule): { fee: number; net: number } {
  const fee = Math.min(amount, basisPointsOf(amount, schedule.basisPoints) + schedule.fixed);
  return { fee, net: amount - fee };
}
