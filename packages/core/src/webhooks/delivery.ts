import { assertTransition, stateMachine, type TransitionTable } from '../state-machine.ts';

/** A webhook delivery: pending until an attempt succeeds or no attempt is left. */
export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export const WEBHOOK_DELIVERY_TRANSITIONS: TransitionTable<WebhookDeliveryStatus> = {
  pending: ['succeeded', 'failed'],
  succeeded: [],
  failed: [],
};

export const WEBHOOK_DELIVERY_STATES = stateMachine('webhook delivery', WEBHOOK_DELIVERY_TRANSITIONS);

/** Why a delivery ended failed. */
export type WebhookFailureReason = 'attempts_exhausted' | 'endpoint_deleted' | 'endpoint_disabled';

export type AttemptOutcome =
  | { status: 'succeeded' }
  | { status: 'failed'; reason: WebhookFailureReason }
  | { status: 'pending'; retryInMs: number };

/**
 * What follows attempt number `attempt` (1-based). `delaysMs[i]` is the wait
 * before attempt i + 1, counted from the end of the previous attempt, so there
 * are `delaysMs.length` attempts in all.
 */
export function afterAttempt(
  attempt: number,
  succeeded: boolean,
  delaysMs: readonly number[],
): AttemptOutcome {
  if (succeeded) {
    assertTransition(WEBHOOK_DELIVERY_STATES, 'pending', 'succeeded');
    return { status: 'succeeded' };
  }
  const nextDelay = delaysMs[attempt];
  if (nextDelay === undefined) {
    assertTransition(WEBHOOK_DELIVERY_STATES, 'pending', 'failed');
    return { status: 'failed', reason: 'attempts_exhausted' };
  }
  return { status: 'pending', retryInMs: nextDelay };
}

/** True when `type` is covered by a subscription list (`*` is every type). */
export const subscribes = (events: readonly string[], type: string): boolean =>
  events.includes('*') || events.includes(type);
