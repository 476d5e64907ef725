import { z } from 'zod';
import { amountSchema, currencySchema, tanzanianMobileSchema } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { payoutObject, type PayoutRow } from '../../payouts/service.ts';
import type { PayoutDestination } from '../../providers/provider.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { currencyOut, idParams, livemode, metadataSchema, unix } from './schemas.ts';

const statuses = z.enum(['pending', 'paid', 'failed']);
const text = (max: number) => z.string().trim().min(1).max(max);

const destinationIn = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('mobile_money'), phone: tanzanianMobileSchema }),
  z.strictObject({
    type: z.literal('bank'),
    bank_name: text(100),
    account_number: z
      .string()
      .regex(/^[0-9A-Za-z]{4,34}$/, { error: 'must be 4 to 34 letters or digits' })
      .describe('In test mode an account number ending in 0002 fails and one ending in 0003 stays pending'),
    account_name: text(100),
    bic: z
      .string()
      .regex(/^[A-Za-z0-9]{8}([A-Za-z0-9]{3})?$/, { error: 'must be an 8 or 11 character BIC' })
      .transform((value) => value.toUpperCase())
      .optional()
      .describe('The bank’s BIC (SWIFT code); required for live payouts'),
  }),
]);

const destinationOut = z.discriminatedUnion('type', [
  z.object({ type: z.literal('mobile_money'), phone: z.string(), network: z.string().nullable() }),
  z.object({
    type: z.literal('bank'),
    bank_name: z.string(),
    account_number: z.string(),
    account_name: z.string(),
    bic: z.string().nullable(),
  }),
]);

export const payoutSchema = z.object({
  id: z.string().describe('Begins with po_'),
  object: z.literal('payout'),
  amount: z.number().int().describe('What the destination receives; payouts carry no fee'),
  currency: currencyOut,
  status: statuses,
  destination: destinationOut,
  description: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
  livemode,
  created: unix,
  paid_at: unix.nullable(),
  failed_at: unix.nullable(),
});

const toDestination = (input: z.infer<typeof destinationIn>): PayoutDestination =>
  input.type === 'mobile_money'
    ? input
    : {
        type: 'bank',
        bankName: input.bank_name,
        accountNumber: input.account_number,
        accountName: input.account_name,
        bic: input.bic ?? null,
      };

export const payoutRoutes = [
  defineRoute({
    method: 'POST',
    path: '/payouts',
    tag: 'Payouts',
    summary: 'Create a payout',
    description:
      'Sends `amount` from the available balance to a mobile money number or a bank account. The amount leaves the available balance at once (400 `insufficient_funds` when it is more than the available balance, and nothing moves); the payout starts `pending` and moves to `paid` or, returning the amount to the available balance, `failed`. In test mode 255700000002 and bank account numbers ending in 0002 fail, 255700000003 and account numbers ending in 0003 stay pending, anything else is paid. Live payouts go through ClickPesa (503 `provider_unavailable` where it is not configured).',
    auth: 'secret',
    status: 201,
    body: z.strictObject({
      amount: amountSchema,
      currency: currencySchema,
      destination: destinationIn,
      description: z.string().max(500).optional(),
      metadata: metadataSchema.optional(),
    }),
    response: payoutSchema,
    handler: ({ body, auth, db, services, afterCommit }) =>
      services.payouts.create(
        db,
        auth,
        { ...body, destination: toDestination(body.destination) },
        afterCommit,
      ),
  }),
  defineRoute({
    method: 'GET',
    path: '/payouts',
    tag: 'Payouts',
    summary: 'List payouts',
    auth: 'secret',
    query: listQuery.extend({ status: statuses.optional() }),
    response: listEnvelope(payoutSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.payouts.listSource(auth, query), query, (row: PayoutRow) => payoutObject(row)),
  }),
  defineRoute({
    method: 'GET',
    path: '/payouts/{id}',
    tag: 'Payouts',
    summary: 'Retrieve a payout',
    auth: 'secret',
    params: idParams,
    response: payoutSchema,
    handler: ({ params, auth, db, services }) => services.payouts.retrieve(db, auth, params.id),
  }),
];
