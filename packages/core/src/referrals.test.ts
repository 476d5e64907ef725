import { describe, expect, it } from 'vitest';
import { referralEarning } from './referrals.ts';

describe('referral earning', () => {
  it('is a tenth of the fee, rounded half up in the minor unit', () => {
    expect(referralEarning(150)).toBe(15);
    expect(referralEarning(155)).toBe(16);
    expect(referralEarning(154)).toBe(15);
    expect(referralEarning(4)).toBe(0);
    expect(referralEarning(5)).toBe(1);
    expect(referralEarning(0)).toBe(0);
  });
});
