import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { afterFailedCharge, DEFAULT_RETRY_DAYS } from './dunning.ts';
import { assertTransition } from '../state-machine.ts';
import { assertResumable, SUBSCRIPTION_STATES } from './status.ts';

describe('subscription states', () => {
  it('moves a failing subscription through past_due and never back out of canceled', () => {
    expect(() => assertTransition(SUBSCRIPTION_STATES, 'active', 'past_due')).not.toThrow();
    expect(() => assertTransition(SUBSCRIPTION_STATES, 'past_due', 'active')).not.toThrow();
    expect(() => assertTransition(SUBSCRIPTION_STATES, 'past_due', 'canceled')).not.toThrow();
    expect(() => assertTransition(SUBSCRIPTION_STATES, 'canceled', 'active')).toThrow(AppError);
    expect(() => assertTransition(SUBSCRIPTION_STATES, 'canceled', 'past_due')).toThrow(
      /cannot move from 'canceled'/,
    );
    expect(() => assertTransition(SUBSCRIPTION_STATES, 'active', 'trialing')).toThrow(AppError);
  });
});

describe('resuming a subscription set to cancel at period end', () => {
  const end = new Date('2027-03-01T08:00:00Z');
  const before = new Date(end.getTime() - 1);
  const refusal = (subscription: Parameters<typeof assertResumable>[0], now: Date) => {
    try {
      assertResumable(subscription, now);
      return undefined;
    } catch (error) {
      return error instanceof AppError ? error.details : error;
    }
  };

  it('undoes a cancellation scheduled for a period that has not ended, trialing or active or past due', () => {
    for (const status of ['trialing', 'active', 'past_due'] as const)
      expect(refusal({ status, cancelAtPeriodEnd: true, periodEnd: end }, before)).toBeUndefined();
  });

  it('names why it refuses: canceled, nothing scheduled, the period over', () => {
    expect(refusal({ status: 'canceled', cancelAtPeriodEnd: false, periodEnd: null }, before)).toEqual({
      status: "is 'canceled'",
    });
    expect(refusal({ status: 'active', cancelAtPeriodEnd: false, periodEnd: end }, before)).toHaveProperty(
      'cancel_at_period_end',
    );
    expect(refusal({ status: 'active', cancelAtPeriodEnd: true, periodEnd: end }, end)).toHaveProperty(
      'current_period_end',
    );
  });
});

describe('dunning schedule', () => {
  const failedAt = new Date('2027-03-01T08:00:00Z');
  const day = 86_400_000;

  it('retries 1, 3 and 5 days after the first failure, then gives up as configured', () => {
    const steps = [1, 2, 3].map((attempt) =>
      afterFailedCharge(attempt, failedAt, DEFAULT_RETRY_DAYS, 'cancel'),
    );
    expect(steps).toEqual(
      [1, 3, 5].map((days) => ({
        kind: 'retry',
        at: new Date(failedAt.getTime() + days * day),
      })),
    );
    expect(afterFailedCharge(4, failedAt, DEFAULT_RETRY_DAYS, 'cancel')).toEqual({
      kind: 'give_up',
      status: 'canceled',
    });
    expect(afterFailedCharge(4, failedAt, DEFAULT_RETRY_DAYS, 'leave_unpaid')).toEqual({
      kind: 'give_up',
      status: 'past_due',
    });
  });

  it('gives up at once with no retries configured', () => {
    expect(afterFailedCharge(1, failedAt, [], 'cancel')).toEqual({ kind: 'give_up', status: 'canceled' });
  });
});
