import { stateMachine, type TransitionTable } from '../state-machine.ts';
import { AppError } from '../errors.ts';

/**
 * - `trialing`: before the first paid period; nothing is charged.
 * - `active`: periods open and are charged as they come.
 * - `past_due`: a period's charge failed; it is retried on the dunning schedule and no new
 *   period opens meanwhile. A subscription set to `leave_unpaid` stays here after the last retry,
 *   its invoice open, until the invoice is paid (back to `active`) or it is canceled.
 * - `canceled`: final.
 */
export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_TRANSITIONS: TransitionTable<SubscriptionStatus> = {
  trialing: ['active', 'past_due', 'canceled'],
  active: ['past_due', 'canceled'],
  past_due: ['active', 'canceled'],
  canceled: [],
};

export const SUBSCRIPTION_STATES = stateMachine('subscription', SUBSCRIPTION_TRANSITIONS);

/**
 * A billing period: `open` from when it opens until its invoice is paid
 * (`paid`), or its last retry failed and the subscription was canceled
 * (`failed`). A failed charge with a retry to come leaves it open.
 */
export const SUBSCRIPTION_PERIOD_STATUSES = ['open', 'paid', 'failed'] as const;
export type SubscriptionPeriodStatus = (typeof SUBSCRIPTION_PERIOD_STATUSES)[number];

export const SUBSCRIPTION_PERIOD_TRANSITIONS: TransitionTable<SubscriptionPeriodStatus> = {
  open: ['paid', 'failed'],
  paid: [],
  failed: [],
};

export const SUBSCRIPTION_PERIOD_STATES = stateMachine(
  'subscription period',
  SUBSCRIPTION_PERIOD_TRANSITIONS,
);

/** What happens after the last retry fails. */
export const FINAL_FAILURE_ACTIONS = ['cancel', 'leave_unpaid'] as const;
export type FinalFailureAction = (typeof FINAL_FAILURE_ACTIONS)[number];

/** What resuming looks at: the status, the pending cancellation and when it takes effect. */
export interface ResumableSubscription {
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  /** When the current period (or trial) ends: where a cancellation at period end happens. */
  periodEnd: Date | null;
}

/**
 * Resuming undoes a cancellation at period end before the period ends. Refused,
 * naming why: a canceled subscription (final), one with no cancellation
 * scheduled, one whose period already ended (the cancellation is taking effect).
 */
export function assertResumable(subscription: ResumableSubscription, now: Date): void {
  if (subscription.status === 'canceled') {
    throw new AppError('state_transition_invalid', 'A canceled subscription cannot be resumed', {
      details: { status: "is 'canceled'" },
    });
  }
  if (!subscription.cancelAtPeriodEnd || subscription.periodEnd === null) {
    throw new AppError(
      'state_transition_invalid',
      'This subscription has no cancellation at period end to undo',
      { details: { cancel_at_period_end: 'is false; nothing is scheduled to be undone' } },
    );
  }
  if (subscription.periodEnd <= now) {
    throw new AppError(
      'state_transition_invalid',
      'The period has ended; the cancellation at its end is taking effect',
      { details: { current_period_end: `passed at ${subscription.periodEnd.toISOString()}` } },
    );
  }
}
