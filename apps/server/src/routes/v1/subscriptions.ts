import { z } from 'zod';
import {
  amountSchema,
  BILLING_INTERVALS,
  currencySchema,
  FINAL_FAILURE_ACTIONS,
  SUBSCRIPTION_STATUSES,
  tanzanianMobileSchema,
} from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { subscriptionObject, type SubscriptionRow } from '../../subscriptions/rows.ts';
import { currencyOut, idParams, livemode, metadataSchema, unix, unixSecondsQuery } from './schemas.ts';

const subscriptionSchema = z.object({
  id: z.string().describe('Begins with sub_'),
  object: z.literal('subscription'),
  customer: z.string(),
  amount: z.number().int().describe('Charged each period, in the currency’s smallest unit'),
  currency: currencyOut,
  interval: z.enum(BILLING_INTERVALS),
  interval_count: z.number().int(),
  phone: z.string().describe('The payer’s mobile money number, normalised to 255XXXXXXXXX'),
  description: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  status: z.enum(SUBSCRIPTION_STATUSES),
  start_date: unix,
  trial_end: unix.nullable(),
  current_period_start: unix
    .nullable()
    .describe('The latest period opened, or the trial; null before either'),
  current_period_end: unix.nullable(),
  next_renewal: unix.nullable().describe('When the next period opens and is charged; null when none will'),
  cancel_at_period_end: z.boolean(),
  canceled_at: unix.nullable(),
  cancellation_reason: z.enum(['requested', 'payment_failed']).nullable(),
  after_final_failure: z.enum(FINAL_FAILURE_ACTIONS),
  livemode,
  created: unix,
});

export const subscriptionRoutes = [
  defineRoute({
    method: 'POST',
    path: '/subscriptions',
    tag: 'Subscriptions',
    summary: 'Create a subscription',
    description:
      'Bills `customer` `amount` every `interval_count` `interval`s by a mobile money push to `phone`. Each period opens an invoice at its start and charges it; month-end start dates roll to the last day of shorter months (31 January, 28/29 February, 31 March), counted in East Africa Time. `trial_period_days` delays the first period; `start_date` (unix seconds, not in the past) sets when the subscription starts. A failed charge makes the subscription `past_due` and is retried on the dunning schedule (days 1, 3 and 5 after the first failure by default); after the last retry it is canceled, or with `after_final_failure: leave_unpaid` it stays `past_due` with its invoice open. See docs/SUBSCRIPTIONS.md.',
    auth: 'secret',
    status: 201,
    body: z.strictObject({
      customer: z.string().min(1).max(255),
      amount: amountSchema,
      currency: currencySchema,
      interval: z.enum(BILLING_INTERVALS, { error: `must be one of ${BILLING_INTERVALS.join(', ')}` }),
      interval_count: z
        .number({ error: 'must be an integer' })
        .int({ error: 'must be an integer' })
        .min(1, { error: 'must be at least 1' })
        .max(365, { error: 'must be at most 365' })
        .default(1),
      phone: tanzanianMobileSchema,
      description: z.string().max(500).optional(),
      metadata: metadataSchema.optional(),
      trial_period_days: z
        .number({ error: 'must be an integer' })
        .int({ error: 'must be an integer' })
        .min(1, { error: 'must be at least 1' })
        .max(730, { error: 'must be at most 730' })
        .optional(),
      start_date: unixSecondsQuery.optional(),
      after_final_failure: z.enum(FINAL_FAILURE_ACTIONS).default('cancel'),
    }),
    response: subscriptionSchema,
    handler: ({ body, auth, db, services, afterCommit }) =>
      services.subscriptions.create(db, auth, body, afterCommit),
  }),
  defineRoute({
    method: 'GET',
    path: '/subscriptions',
    tag: 'Subscriptions',
    summary: 'List subscriptions',
    auth: 'secret',
    query: listQuery.extend({
      status: z.enum(SUBSCRIPTION_STATUSES).optional(),
      customer: z.string().max(255).optional(),
    }),
    response: listEnvelope(subscriptionSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.subscriptions.listSource(auth, query), query, (row: SubscriptionRow) =>
        subscriptionObject(row),
      ),
  }),
  defineRoute({
    method: 'GET',
    path: '/subscriptions/{id}',
    tag: 'Subscriptions',
    summary: 'Retrieve a subscription',
    auth: 'secret',
    params: idParams,
    response: subscriptionSchema,
    handler: ({ params, auth, db, services }) => services.subscriptions.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/subscriptions/{id}/cancel',
    tag: 'Subscriptions',
    summary: 'Cancel a subscription',
    description:
      'Cancels now: no further period opens, no retry runs, and each open invoice of the subscription is voided (`invoice.voided`); one whose charge is still awaiting its outcome is paid if that charge succeeds and voided if it fails. With `at_period_end: true`, cancels when the current period (or trial) ends instead (undo it with `POST /v1/subscriptions/{id}/resume`). Refused for a canceled subscription.',
    auth: 'secret',
    params: idParams,
    body: z.strictObject({ at_period_end: z.boolean().default(false) }),
    response: subscriptionSchema,
    handler: ({ params, body, auth, db, services }) =>
      services.subscriptions.cancel(db, auth, params.id, body.at_period_end),
  }),
  defineRoute({
    method: 'POST',
    path: '/subscriptions/{id}/resume',
    tag: 'Subscriptions',
    summary: 'Resume a subscription set to cancel at period end',
    description:
      'Undoes `cancel` with `at_period_end: true` before the period ends: `cancel_at_period_end` is false again and the next period opens and is charged as if it had never been asked for. Refused (400 `state_transition_invalid`, naming why in `details`) for a canceled subscription (`status`), one with no cancellation scheduled (`cancel_at_period_end`), or once the period has ended (`current_period_end`).',
    auth: 'secret',
    params: idParams,
    response: subscriptionSchema,
    handler: ({ params, auth, db, services }) => services.subscriptions.resume(db, auth, params.id),
  }),
];
