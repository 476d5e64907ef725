import type { FinalFailureAction } from './status.ts';

/** Retries after a period's first failed charge, in days counted from that failure: days 1, 3 and 5. */
export const DEFAULT_RETRY_DAYS: readonly number[] = [1, 3, 5];
const DAY_MS = 24 * 60 * 60 * 1000;

/** What follows a failed charge of a period. */
export type AfterFailure =
  | { kind: 'retry'; at: Date }
  /** `canceled`, or `past_due` with no retry left (`leave_unpaid`). */
  | { kind: 'give_up'; status: 'canceled' | 'past_due' };

/**
 * `attempt` is the failed charge's number (1 is the period's first charge, 2 the first
 * retry, …); `firstFailedAt` is when attempt 1 failed. Each retry is due `retryDays[k]`
 * days after the first failure; after the last one, the configured action.
 */
export function afterFailedCharge(
  attempt: number,
  firstFailedAt: Date,
  retryDays: readonly number[],
  finalAction: FinalFailureAction,
): AfterFailure {
  const days = retryDays[attempt - 1];
  if (days === undefined) {
    return { kind: 'give_up', status: finalAction === 'cancel' ? 'canceled' : 'past_due' };
  }
  return { kind: 'retry', at: new Date(firstFailedAt.getTime() + days * DAY_MS) };
}
