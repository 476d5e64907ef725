import { assertTransition, type TransitionTable } from '../state-machine.ts';

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

export function assertSubscriptionTransition(from: SubscriptionStatus, to: SubscriptionStatus): void {
  assertTransition('subscription', SUBSCRIPTION_TRANSITIONS, from, to);
}

/** What happens after the last retry fails. */
export const FINAL_FAILURE_ACTIONS = ['cancel', 'leave_unpaid'] as const;
export type FinalFailureAction = (typeof FINAL_FAILURE_ACTIONS)[number];
