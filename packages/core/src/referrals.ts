import { basisPointsOf } from './money.ts';

/**
 * The referral rule: a referrer earns this share of the platform fee on each
 * paid payment of a merchant that signed up with its code, for this many months
 * after that merchant's sign-up.
 */
export const REFERRAL_RULE = { feeShareBasisPoints: 1_000, months: 12 } as const;

/** The referrer's earning on one payment's fee, in the same minor unit, rounded half up. */
export const referralEarning = (fee: number): number => basisPointsOf(fee, REFERRAL_RULE.feeShareBasisPoints);
