/**
 * Billing periods. Period `n` of a subscription runs from `periodBoundary(anchor, …, n)`
 * to `periodBoundary(anchor, …, n + 1)`. Every boundary is computed from the anchor,
 * never from the previous boundary, so a month-end anchor comes back after a short
 * month: 31 January, 28 (or 29) February, 31 March.
 *
 * Calendar arithmetic runs in East Africa Time (UTC+03:00, no daylight saving), so a
 * subscription started at 00:30 on 31 January in Dar es Salaam renews on the last day
 * of each month there, not on the day before as UTC would have it.
 */
import { EAST_AFRICA_OFFSET_MS } from '../time.ts';

export const BILLING_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/** The longest interval_count of each interval: a period of at most one year. */
export const MAX_INTERVAL_COUNT: { readonly [I in BillingInterval]: number } = {
  day: 365,
  week: 52,
  month: 12,
  year: 1,
};

const DAY_MS = 24 * 60 * 60 * 1000;

export interface BillingCycle {
  interval: BillingInterval;
  intervalCount: number;
}

const daysInMonth = (year: number, month: number): number =>
  new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** The start of period `n` (0 is the anchor itself). */
export function periodBoundary(anchor: Date, cycle: BillingCycle, n: number): Date {
  const steps = n * cycle.intervalCount;
  if (cycle.interval === 'day') return new Date(anchor.getTime() + steps * DAY_MS);
  if (cycle.interval === 'week') return new Date(anchor.getTime() + steps * 7 * DAY_MS);
  const local = new Date(anchor.getTime() + EAST_AFRICA_OFFSET_MS);
  const months = local.getUTCMonth() + steps * (cycle.interval === 'year' ? 12 : 1);
  const year = local.getUTCFullYear() + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  const day = Math.min(local.getUTCDate(), daysInMonth(year, month));
  const shifted = Date.UTC(
    year,
    month,
    day,
    local.getUTCHours(),
    local.getUTCMinutes(),
    local.getUTCSeconds(),
    local.getUTCMilliseconds(),
  );
  return new Date(shifted - EAST_AFRICA_OFFSET_MS);
}

/** Start and end of period `n`. */
export function billingPeriod(anchor: Date, cycle: BillingCycle, n: number): { start: Date; end: Date } {
  return { start: periodBoundary(anchor, cycle, n), end: periodBoundary(anchor, cycle, n + 1) };
}
