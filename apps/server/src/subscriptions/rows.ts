import {
  billingPeriod,
  SUBSCRIPTION_PERIOD_STATES,
  SUBSCRIPTION_STATES,
  type BillingInterval,
  type Currency,
  type FinalFailureAction,
  type SubscriptionStatus,
} from '@tz/core';
import { unixOrNull, unixSeconds } from '../infra/time.ts';
import { storedStates } from '../infra/transitions.ts';

export const SUBSCRIPTIONS = storedStates(SUBSCRIPTION_STATES, 'subscriptions');
export const SUBSCRIPTION_PERIODS = storedStates(SUBSCRIPTION_PERIOD_STATES, 'subscription_periods', [
  ['subscription_id', 'text'],
  ['period', 'integer'],
]);

export interface SubscriptionRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  customer_id: string;
  amount: number;
  currency: Currency;
  interval: BillingInterval;
  interval_count: number;
  phone: string;
  description: string | null;
  metadata: Record<string, string>;
  status: SubscriptionStatus;
  after_final_failure: FinalFailureAction;
  start_at: Date;
  billing_anchor: Date;
  current_period: number | null;
  next_renewal_at: Date | null;
  cancel_at_period_end: boolean;
  canceled_at: Date | null;
  cancellation_reason: 'requested' | 'payment_failed' | null;
  created_at: Date;
}

export const cycleOf = (row: SubscriptionRow) => ({
  interval: row.interval,
  intervalCount: row.interval_count,
});

/** The period a subscription is in: the latest opened, else its trial, else none yet. */
function currentPeriod(row: SubscriptionRow): { start: Date; end: Date } | null {
  if (row.current_period !== null) return billingPeriod(row.billing_anchor, cycleOf(row), row.current_period);
  if (row.billing_anchor > row.start_at) return { start: row.start_at, end: row.billing_anchor };
  return null;
}

export function subscriptionObject(row: SubscriptionRow) {
  const period = currentPeriod(row);
  return {
    id: row.id,
    object: 'subscription' as const,
    customer: row.customer_id,
    amount: row.amount,
    currency: row.currency,
    interval: row.interval,
    interval_count: row.interval_count,
    phone: row.phone,
    description: row.description,
    metadata: row.metadata,
    status: row.status,
    start_date: unixSeconds(row.start_at),
    trial_end: row.billing_anchor > row.start_at ? unixSeconds(row.billing_anchor) : null,
    current_period_start: period ? unixSeconds(period.start) : null,
    current_period_end: period ? unixSeconds(period.end) : null,
    next_renewal: unixOrNull(row.next_renewal_at),
    cancel_at_period_end: row.cancel_at_period_end,
    canceled_at: unixOrNull(row.canceled_at),
    cancellation_reason: row.cancellation_reason,
    after_final_failure: row.after_final_failure,
    livemode: row.livemode,
    created: unixSeconds(row.created_at),
  };
}
export type SubscriptionObject = ReturnType<typeof subscriptionObject>;
