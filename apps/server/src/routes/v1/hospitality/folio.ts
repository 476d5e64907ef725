import { z } from 'zod';
import { checkOutBody, FOLIO_LINE_KINDS, folioChargeBody, folioPaymentBody } from '@tz/core';
import { defineRoute } from '../../../http/route.ts';
import { listPage } from '../../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../../http/list.ts';
import { nightAuditObject, type NightAuditRow } from '../../../hospitality/night-audit.ts';
import { paymentSchema } from '../payments.ts';
import { idParams, livemode, unix } from '../schemas.ts';
import { reservationSchema, tag } from './schemas.ts';

/** A reservation's folio (charges, payments, balance), check-out against it, and the night audit's runs. */

const amount = z.number().int();

const folioLineSchema = z.object({
  id: z.string(),
  object: z.literal('folio_line'),
  kind: z.enum(FOLIO_LINE_KINDS),
  night: z.string().nullable().describe('The night a room, levy or VAT line charges (YYYY-MM-DD)'),
  description: z.string().nullable(),
  amount: amount.describe('Shillings: a charge positive, a payment negative'),
  currency: z.literal('TZS'),
  order: z.string().nullable().describe('The retail sale charged to the room'),
  payment: z.string().nullable().describe('The mobile money payment'),
  foreign: z
    .object({ currency: z.string(), amount, rate: amount })
    .nullable()
    .describe('A payment in another currency and the shillings per whole unit it was taken at'),
  night_audit: z.string().nullable().describe('The night audit that posted it'),
  created: unix,
});

const folioSchema = z.object({
  object: z.literal('folio'),
  reservation: z.string(),
  status: z.enum(['open', 'closed']),
  currency: z.literal('TZS'),
  quote_total: amount.describe('What the stay’s quote comes to: its nights, once all posted, add up to it'),
  charges: amount,
  payments: amount,
  balance: amount.describe('Charges less payments: what the guest owes (negative: is owed)'),
  lines: z.array(folioLineSchema),
  pending_payments: z.array(paymentSchema).describe('Mobile money asked for and not yet paid'),
  closed: unix.nullable(),
  closing_balance: amount.nullable(),
  override: z
    .object({ reason: z.string(), by: z.string().describe('The credential that gave it: kind:id') })
    .nullable(),
  livemode,
});

const nightAuditSchema = z.object({
  id: z.string(),
  object: z.literal('night_audit'),
  ran_at: unix.describe('The audit’s time when it ran'),
  reservations: amount.describe('Stays it charged'),
  nights: amount.describe('Nights it posted'),
  amount: amount.describe('Shillings it posted: rooms, levies and VAT'),
  currency: z.literal('TZS'),
  livemode,
});

const folioPath = '/hospitality/reservations/{id}/folio';

export const folioRoutes = [
  defineRoute({
    method: 'GET',
    path: folioPath,
    tag,
    summary: 'Retrieve a folio',
    description:
      'The stay’s lines (each night’s room, levies and VAT as the night audit posts them, extras, adjustments, payments) and its balance.',
    auth: 'secret',
    params: idParams,
    response: folioSchema,
    handler: ({ params, auth, db, services }) => services.folio.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: `${folioPath}/charges`,
    tag,
    summary: 'Charge a folio',
    description:
      'An extra the guest had (positive), or an adjustment either way, on a folio still open (from booking until check-out).',
    auth: 'secret',
    params: idParams,
    body: folioChargeBody,
    response: folioSchema,
    handler: ({ params, body, auth, db, services }) => services.folio.charge(db, auth, params.id, body),
  }),
  defineRoute({
    method: 'POST',
    path: `${folioPath}/payments`,
    tag,
    summary: 'Pay a folio',
    description:
      'Cash at the desk or a deposit, in shillings or in another currency at the rate given (`foreign`), recorded at once; or mobile money, asked of the payer as a payment through /v1/payments: the folio’s line is posted when it succeeds (test mode: see POST /v1/payments for the sandbox numbers).',
    auth: 'secret',
    params: idParams,
    body: folioPaymentBody,
    response: folioSchema,
    handler: ({ params, body, auth, db, services, afterCommit }) =>
      services.folio.pay(db, auth, params.id, body, afterCommit),
  }),
  defineRoute({
    method: 'POST',
    path: '/hospitality/reservations/{id}/check_out',
    tag,
    summary: 'Check a guest out',
    description:
      'Posts the nights due, then closes the folio: refused with 409 `folio_unsettled` (the balance in `details.balance`) unless the balance is zero or `override.reason` is given, which is kept with the key that gave it. Records `folio.closed`; the room is free from now and marked dirty.',
    auth: 'secret',
    params: idParams,
    body: checkOutBody,
    response: reservationSchema,
    handler: ({ params, body, auth, db, services }) =>
      services.reservations.checkOut(db, auth, params.id, body.override),
  }),
  defineRoute({
    method: 'GET',
    path: '/hospitality/night-audits',
    tag,
    summary: 'List night audits',
    description:
      'Each run of the night audit that posted nights, newest first: when it ran (by its clock), how many stays and nights, and the shillings posted.',
    auth: 'secret',
    query: listQuery,
    response: listEnvelope(nightAuditSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.nightAudit.auditsSource(auth), query, (row: NightAuditRow) =>
        nightAuditObject(row),
      ),
  }),
];
