import { z } from 'zod';
import { amountSchema, currencySchema, MOBILE_NETWORKS, tanzanianMobileSchema } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import type { PaymentRow } from '../../payments/service.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { currencyOut, idParams, livemode, metadataSchema, unix, unixSecondsQuery } from './schemas.ts';

export const paymentSchema = z.object({
  id: z.string().describe('Begins with pay_'),
  object: z.literal('payment'),
  amount: z.number().int(),
  currency: currencyOut,
  status: z.enum(['pending', 'paid', 'failed', 'refunded']),
  fee: z.number().int().nullable(),
  net: z.number().int().nullable(),
  payout_status: z
    .enum(['not_applicable', 'pending', 'paid'])
    .describe(
      '`pending` once paid and awaiting a payout, `paid` once a paid payout covered it (payments are paid out oldest first, see docs/PAYOUTS.md), `not_applicable` before it is paid and after a refund',
    ),
  payout: z.string().nullable().describe('The payout that paid this payment out'),
  checkout_url: z.string().nullable().describe('The hosted page, for payments made through a checkout'),
  checkout: z.string().nullable(),
  invoice: z.string().nullable().describe('The invoice this payment pays, when it was asked for one'),
  phone: z.string().describe('Normalised to 255XXXXXXXXX'),
  network: z
    .string()
    .nullable()
    .describe(
      'Hint from the number’s range (mpesa, mixx, airtel, halotel, ttcl); numbers move between networks',
    ),
  description: z.string().nullable(),
  customer: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
  livemode,
  created: unix,
  paid_at: unix.nullable(),
  refunded_at: unix.nullable(),
});

export const paymentRoutes = [
  defineRoute({
    method: 'POST',
    path: '/payments',
    tag: 'Payments',
    summary: 'Create a payment',
    description:
      'Asks the payer’s mobile money wallet for `amount`. The payment starts `pending` and moves to `paid` or `failed` when the provider reports back. `phone` is any Tanzanian mobile number; `network` is a hint from its range (mpesa, mixx, airtel, halotel, ttcl, or null), not a check. In test mode 255700000001 succeeds, 255700000002 fails with insufficient_funds, 255700000003 stays pending and any other number succeeds; in live mode these numbers are ordinary numbers.',
    auth: 'secret',
    status: 201,
    body: z.strictObject({
      amount: amountSchema,
      currency: currencySchema,
      phone: tanzanianMobileSchema,
      description: z.string().max(500).optional(),
      customer: z.string().max(255).optional(),
      metadata: metadataSchema.optional(),
    }),
    response: paymentSchema,
    handler: ({ body, auth, db, services, afterCommit }) =>
      services.payments.create(db, auth, body, afterCommit),
  }),
  defineRoute({
    method: 'GET',
    path: '/payments',
    tag: 'Payments',
    summary: 'List payments',
    description:
      'Newest first. Filters combine: `status`, `customer`, the payer’s `phone` (any written form of the number), its `network` hint, and `created_gte` / `created_lte` (unix seconds, both ends included).',
    auth: 'secret',
    query: listQuery.extend({
      status: z.enum(['pending', 'paid', 'failed', 'refunded']).optional(),
      customer: z.string().max(255).optional(),
      phone: tanzanianMobileSchema.optional(),
      network: z.enum(MOBILE_NETWORKS).optional(),
      created_gte: unixSecondsQuery.optional(),
      created_lte: unixSecondsQuery.optional(),
    }),
    response: listEnvelope(paymentSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.payments.listSource(auth, query), query, (row: PaymentRow) =>
        services.payments.toObject(row),
      ),
  }),
  defineRoute({
    method: 'GET',
    path: '/payments/{id}',
    tag: 'Payments',
    summary: 'Retrieve a payment',
    auth: 'secret',
    params: idParams,
    response: paymentSchema,
    handler: ({ params, auth, db, services }) => services.payments.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/payments/{id}/refund',
    tag: 'Payments',
    summary: 'Refund a paid payment',
    description:
      'Refunds the whole amount and reverses the payment’s ledger postings (the fee is returned too). Refused unless the payment is `paid` and the available balance covers its net. A ticket order’s payment refunds the order too: its tickets void, `event_order.refunded`.',
    auth: 'secret',
    params: idParams,
    response: paymentSchema,
    handler: ({ params, auth, db, services }) => services.payments.refund(db, auth, params.id),
  }),
];
