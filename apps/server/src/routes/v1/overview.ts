import { z } from 'zod';
import { EAST_AFRICA_TIME_ZONE } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { currencyOut, livemode, unix } from './schemas.ts';

const count = z.number().int();

/** A calendar day from 1970 on, as YYYY-MM-DD. */
const calendarDay = z.string().refine(
  (value) => {
    const time = Date.parse(`${value}T00:00:00Z`);
    return /^\d{4}-\d{2}-\d{2}$/.test(value) && time >= 0 && new Date(time).toISOString().startsWith(value);
  },
  { error: 'must be a calendar day from 1970-01-01, YYYY-MM-DD' },
);

const window = z.object({
  gross: count.describe('Amount of payments paid in the window'),
  fees: count.describe('Fees on them, less fees returned by refunds in the window'),
  net: count.describe('gross − refunds.amount − fees: what the window added to the available balance'),
  refunds: z.object({ count, amount: count }),
  payouts: z
    .object({
      count,
      amount: count,
      paid: z.object({ count, amount: count }),
      failed: z.object({ count, amount: count }),
    })
    .describe('Payouts created in the window (count, amount), and those paid and failed in it'),
  payments: z
    .object({ pending: count, paid: count, failed: count, refunded: count, total: count })
    .describe('Payments created in the window, by their status now'),
  gross_by_hour: z
    .array(count)
    .length(24)
    .describe(
      '`gross` by the hour of the day it was paid in (0 = from midnight), summed over the window’s days',
    ),
  gross_by_day: z
    .array(z.object({ date: z.string(), gross: count }))
    .describe('`gross` by calendar day, oldest first: one entry per day of the window'),
});

const bounds = z.object({ from: unix, to: unix.describe('Exclusive') });

export const merchantOverviewRoutes = [
  defineRoute({
    method: 'GET',
    path: '/overview',
    tag: 'Balance',
    summary: 'Overview',
    description: `Per currency: the balance now, and for today, the last 7 and the last 30 calendar days (today included) in the merchant’s time zone (${EAST_AFRICA_TIME_ZONE} unless set at sign-up): gross and net volume, fees, refunds, payouts and payments by status, and the gross by hour of the day and by day. \`date\` moves “today” to another day.`,
    auth: 'secret',
    query: z.object({ date: calendarDay.optional().describe('The last day of every window; default today') }),
    response: z.object({
      object: z.literal('overview'),
      date: z.string(),
      time_zone: z.string(),
      livemode,
      windows: z.object({ today: bounds, last_7_days: bounds, last_30_days: bounds }),
      currencies: z.array(
        z.object({
          currency: currencyOut,
          balance: z.object({ available: count, pending: count, referral: count }),
          today: window,
          last_7_days: window,
          last_30_days: window,
        }),
      ),
    }),
    handler: ({ query, auth, db, services }) => services.overview.of(db, auth, { date: query.date }),
  }),
];
