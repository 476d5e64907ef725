import { z } from 'zod';
import { amountSchema, MAX_AMOUNT, tanzanianMobileSchema } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { currencyOut, idParams, livemode, metadataSchema, unix } from './schemas.ts';

const ESCROW_STATUSES = ['held', 'partially_released', 'released', 'refunded'] as const;

const splitSchema = z.object({
  id: z.string().describe('Begins with esp_'),
  object: z.literal('escrow_split'),
  merchant: z.string().nullable().describe('The receiving merchant, for a split to a merchant'),
  phone: z.string().nullable().describe('The receiving mobile number (255XXXXXXXXX), for a split to a phone'),
  network: z.string().nullable(),
  amount: z.number().int(),
  status: z.enum(['held', 'sending', 'released', 'refunded']),
  description: z.string().nullable(),
  failure_code: z
    .string()
    .nullable()
    .describe('Why the last transfer to the phone failed; the split is held again'),
  failure_message: z.string().nullable(),
  released_at: unix.nullable(),
});

const escrowSchema = z.object({
  id: z.string().describe('Begins with esc_'),
  object: z.literal('escrow'),
  payment: z.string().describe('The paid payment whose net is held'),
  amount: z.number().int().describe('The amount held: the payment’s net'),
  currency: currencyOut,
  platform_fee: z.number().int(),
  fee_collected: z.boolean().describe('The fee is taken with the first release'),
  status: z.enum(ESCROW_STATUSES),
  held_amount: z.number().int().describe('Still in escrow: unreleased splits, and the fee until taken'),
  released_amount: z.number().int(),
  refunded_amount: z.number().int(),
  splits: z.array(splitSchema),
  description: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  livemode,
  created: unix,
  released_at: unix.nullable(),
  refunded_at: unix.nullable(),
});

const splitInput = z
  .strictObject({
    amount: amountSchema,
    merchant: z.string().max(255).optional().describe('A merchant on the platform (mer_…)'),
    phone: tanzanianMobileSchema.optional(),
    description: z.string().max(500).optional(),
  })
  .refine((split) => (split.merchant === undefined) !== (split.phone === undefined), {
    error: 'give exactly one of merchant or phone',
  });

export const escrowRoutes = [
  defineRoute({
    method: 'POST',
    path: '/escrow',
    tag: 'Escrow',
    summary: 'Hold a paid payment in escrow',
    description:
      'Moves the net of a paid payment of yours from the available balance into escrow, to be released to `splits` (each to another merchant or to a phone) less `platform_fee`. The splits and the fee must add up to the payment’s net exactly; otherwise a 400 names the last split. A payment is held once; while in escrow it is refunded only through the escrow.',
    auth: 'secret',
    status: 201,
    body: z.strictObject({
      payment: z.string().max(255),
      splits: z.array(splitInput).min(1).max(50),
      platform_fee: z.number().int().min(0).max(MAX_AMOUNT).default(0),
      description: z.string().max(500).optional(),
      metadata: metadataSchema.optional(),
    }),
    response: escrowSchema,
    handler: ({ body, auth, db, services }) => services.escrow.create(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/escrow',
    tag: 'Escrow',
    summary: 'List escrows',
    auth: 'secret',
    query: listQuery.extend({
      status: z.enum(ESCROW_STATUSES).optional(),
      payment: z.string().max(255).optional(),
    }),
    response: listEnvelope(escrowSchema),
    snapshotRead: true,
    handler: ({ query, auth, db, services }) => services.escrow.list(db, auth, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/escrow/{id}',
    tag: 'Escrow',
    summary: 'Retrieve an escrow',
    auth: 'secret',
    params: idParams,
    response: escrowSchema,
    snapshotRead: true,
    handler: ({ params, auth, db, services }) => services.escrow.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/escrow/{id}/release',
    tag: 'Escrow',
    summary: 'Release an escrow, whole or by split',
    description:
      'Releases the splits named in `splits` (split ids), or every held split when it is absent. A split to a merchant is credited to its available balance at once; one to a phone is `sending` until the provider confirms (test mode: 255700000002 fails and the split is held again, 255700000003 stays sending). A split whose transfer failed is held again with `failure_code`; releasing it again sends a new transfer (in live mode under a new provider reference, so a repeat of one transfer never pays twice). The first release also takes the platform fee. A split that is not held is a 400 naming it.',
    auth: 'secret',
    params: idParams,
    body: z.strictObject({
      splits: z.array(z.string().max(255)).min(1).max(50).optional(),
    }),
    response: escrowSchema,
    handler: ({ params, body, auth, db, services, afterCommit }) =>
      services.escrow.release(db, auth, params.id, body.splits, afterCommit),
  }),
  defineRoute({
    method: 'POST',
    path: '/escrow/{id}/refund',
    tag: 'Escrow',
    summary: 'Refund what an escrow still holds to the payer',
    description:
      'Returns the held splits to the payer, and the platform fee when nothing was released yet; released splits stay released. Refused while a split is `sending`.',
    auth: 'secret',
    params: idParams,
    response: escrowSchema,
    handler: ({ params, auth, db, services }) => services.escrow.refund(db, auth, params.id),
  }),
];
