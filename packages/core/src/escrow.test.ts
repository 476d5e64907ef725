import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AppError } from './errors.ts';
import { assertTransition } from './state-machine.ts';
import {
  ESCROW_SPLIT_STATES,
  ESCROW_STATES,
  assertSplitsAddUp,
  escrowStatusOf,
  type EscrowSplitStatus,
} from './escrow.ts';
import { escrowHoldPostings, escrowRefundPostings, escrowReleasePostings, isBalanced } from './ledger.ts';

const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return error instanceof AppError ? { code: error.code, details: error.details } : error;
  }
  return undefined;
};

describe('escrow rules', () => {
  it('accepts splits and fee that add up to the held amount, and names the last split otherwise', () => {
    expect(refusal(() => assertSplitsAddUp(9_850, 500, [5_000, 4_350]))).toBeUndefined();
    expect(refusal(() => assertSplitsAddUp(9_850, 500, [5_000, 4_000]))).toEqual({
      code: 'amount_invalid',
      details: { 'splits.1.amount': 'splits and platform_fee must add up to 9850, not 9500' },
    });
    expect(refusal(() => assertSplitsAddUp(9_850, 9_850, [1]))).toMatchObject({
      details: { platform_fee: expect.any(String) },
    });
  });

  it('derives the escrow status from its splits', () => {
    const of = (...statuses: EscrowSplitStatus[]) => escrowStatusOf(statuses.map((status) => ({ status })));
    expect(of('held', 'sending')).toBe('held');
    expect(of('released', 'sending')).toBe('partially_released');
    expect(of('released', 'released')).toBe('released');
  });

  it('lets a failed transfer return its split to held, and nothing leave released or refunded', () => {
    expect(refusal(() => assertTransition(ESCROW_SPLIT_STATES, 'sending', 'held'))).toBeUndefined();
    expect(refusal(() => assertTransition(ESCROW_SPLIT_STATES, 'released', 'held'))).toMatchObject({
      code: 'state_transition_invalid',
    });
    expect(refusal(() => assertTransition(ESCROW_SPLIT_STATES, 'sending', 'refunded'))).toMatchObject({
      code: 'state_transition_invalid',
    });
    expect(refusal(() => assertTransition(ESCROW_STATES, 'refunded', 'released'))).toMatchObject({
      code: 'state_transition_invalid',
    });
  });

  it('posts balanced entries for every movement', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999_999 }), (amount) => {
        expect(isBalanced(escrowHoldPostings('TZS', amount))).toBe(true);
        expect(isBalanced(escrowRefundPostings('TZS', amount))).toBe(true);
        const toMerchant = escrowReleasePostings('TZS', amount, {
          account: 'merchant_available',
          holderMerchantId: 'mer_a',
          recipientMerchantId: 'mer_b',
        });
        expect(isBalanced(toMerchant)).toBe(true);
        expect(toMerchant.map((p) => p.merchantId)).toEqual(['mer_a', 'mer_b']);
      }),
    );
  });
});
