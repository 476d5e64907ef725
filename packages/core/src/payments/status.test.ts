import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { assertTransition } from '../state-machine.ts';
import { PAYMENT_STATES, PAYMENT_TRANSITIONS, paymentHasReached, type PaymentStatus } from './status.ts';
import { feeFor } from './fees.ts';
import { isBalanced, paymentPostings, reversePostings } from '../ledger.ts';
import fc from 'fast-check';

const statuses = Object.keys(PAYMENT_TRANSITIONS) as PaymentStatus[];

describe('payment transitions', () => {
  it('knows which reported states a payment has already been through', () => {
    const reached = statuses.flatMap((current) =>
      statuses
        .filter((reported) => paymentHasReached(current, reported))
        .map((reported) => `${current}<-${reported}`),
    );
    expect(reached.sort()).toEqual(
      [
        'pending<-pending',
        'paid<-pending',
        'paid<-paid',
        'failed<-pending',
        'failed<-failed',
        'refunded<-pending',
        'refunded<-paid',
        'refunded<-refunded',
      ].sort(),
    );
  });

  it('allows exactly pending->paid, pending->failed and paid->refunded', () => {
    const allowed: string[] = [];
    for (const from of statuses)
      for (const to of statuses) {
        try {
          assertTransition(PAYMENT_STATES, from, to);
          allowed.push(`${from}->${to}`);
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe('state_transition_invalid');
        }
      }
    expect(allowed.sort()).toEqual(['paid->refunded', 'pending->failed', 'pending->paid']);
  });
});

describe('fees and postings', () => {
  it('rounds the percentage half up and keeps fee + net = amount', () => {
    expect(feeFor(1000, { basisPoints: 150, fixed: 0 })).toEqual({ fee: 15, net: 985 });
    expect(feeFor(100, { basisPoints: 150, fixed: 0 })).toEqual({ fee: 2, net: 98 });
    expect(feeFor(10, { basisPoints: 150, fixed: 100 })).toEqual({ fee: 10, net: 0 });
  });

  it('always balances a payment and its reversal', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999_999_999_999 }),
        fc.integer({ min: 0, max: 1000 }),
        (amount, bps) => {
          const { fee, net } = feeFor(amount, { basisPoints: bps, fixed: 0 });
          expect(fee + net).toBe(amount);
          const postings = paymentPostings('TZS', amount, fee);
          expect(isBalanced(postings)).toBe(true);
          expect(isBalanced([...postings, ...reversePostings(postings)])).toBe(true);
        },
      ),
    );
  });
});
