import { z } from 'zod';
import { TILL_EXPORT_MAX_BYTES, TILL_STATUSES, tillExportFile } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { tillObject, type PairingOptions } from '../../tills/tills.ts';
import type { Services } from '../../services.ts';
import { idParams, livemode, unix } from './schemas.ts';

const tag = 'Tills';

export const tillSchema = z.object({
  id: z.string().describe('Begins with till_'),
  object: z.literal('till'),
  name: z.string(),
  store: z.string().describe('The store (store_…) the till sells for'),
  receipt_prefix: z
    .string()
    .describe(
      'Starts the receipt numbers this till issues offline (T01-000123); unique per account and mode',
    ),
  status: z
    .enum(TILL_STATUSES)
    .describe(
      '`unpaired` until a pairing code is exchanged, then `paired`; `retiring` once retired, until the till reports that everything it held has arrived, then `retired`; `revoked` once deleted',
    ),
  paired_at: unix.nullable(),
  last_seen: unix.nullable().describe('When the till last synced or reported'),
  backlog: z
    .number()
    .int()
    .nullable()
    .describe(
      'Commands (sales, refunds…) the till had not yet synced, as it last reported; a revoked till still reports it',
    ),
  app_version: z.string().nullable().describe('The till app’s version, as it last reported'),
  retired_at: unix.nullable().describe('When the till was retired'),
  finished_at: unix
    .nullable()
    .describe('When a retired till reported an empty backlog, and its credential stopped'),
  revoked_at: unix.nullable(),
  livemode,
  created: unix,
});

const recoverySchema = z.object({
  object: z.literal('till_recovery'),
  till: z.string(),
  recovered: z.number().int().describe('Commands this import applied'),
  already_applied: z
    .number()
    .int()
    .describe('Commands the server had already applied (synced before, or imported)'),
  refused: z.number().int(),
  not_tried: z
    .number()
    .int()
    .describe('Commands not tried because the server could not try one: import again'),
  results: z.array(
    z.object({
      id: z.string().describe('The command id (cmd_…)'),
      type: z.string(),
      status: z.enum(['applied', 'refused', 'not_tried']),
      recovered: z.boolean().describe('True when this import applied it'),
      result: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('As a sync answers: e.g. the order and receipt number'),
      error: z
        .object({
          code: z.string(),
          message: z.string(),
          details: z.record(z.string(), z.string()).optional(),
        })
        .optional(),
    }),
  ),
  livemode,
});

const pairingFields = {
  pairing_code: z.string().describe('One use; shown only in this response'),
  pairing_url: z
    .string()
    .describe('`{PUBLIC_URL}/till/?pair=CODE`: opening it on the device pairs it as this till'),
  pairing_expires_at: unix.describe('The code cannot be exchanged after this (15 minutes by default)'),
};
const pairedTillSchema = tillSchema.extend(pairingFields);

/** A replay of a till's creation or new code shows the till, never the one-time code again. */
const withoutPairingCode = ({
  pairing_code: _code,
  pairing_url: _url,
  ...till
}: z.infer<typeof pairedTillSchema>) => till;

const pairing = (services: Services): PairingOptions => ({
  publicUrl: services.publicUrl,
  ttlMinutes: services.config.TILL_PAIRING_TTL_MINUTES,
});

export const tillRoutes = [
  defineRoute({
    method: 'POST',
    path: '/tills',
    tag,
    summary: 'Create a till',
    description:
      'Registers a till at a store (the default store when `store` is left out) and gives it its receipt prefix (T01, T02… per account and mode, never reused) and a one-time pairing code. Open `pairing_url` on the device within `TILL_PAIRING_TTL_MINUTES` (15) to pair it: the device receives a credential of its own (never an API key), which works only for syncing that till.',
    auth: 'secret',
    status: 201,
    body: z.strictObject({
      name: z.string().trim().min(1, { error: 'is required' }).max(100),
      store: z.string().min(1).max(255).optional().describe('Defaults to the default store'),
    }),
    response: pairedTillSchema,
    storedResponse: withoutPairingCode,
    handler: ({ body, auth, db, services }) => services.tills.create(db, auth, body, pairing(services)),
  }),
  defineRoute({
    method: 'GET',
    path: '/tills',
    tag,
    summary: 'List tills',
    description: 'Revoked tills are listed too, with `status: "revoked"`.',
    auth: 'secret',
    query: listQuery.extend({ store: z.string().max(255).optional() }),
    response: listEnvelope(tillSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.tills.listSource(auth, query), query, tillObject),
  }),
  defineRoute({
    method: 'GET',
    path: '/tills/{id}',
    tag,
    summary: 'Retrieve a till',
    auth: 'secret',
    params: idParams,
    response: tillSchema,
    handler: ({ params, auth, db, services }) => services.tills.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/tills/{id}/pairing-code',
    tag,
    summary: 'Issue a new pairing code for a till',
    description:
      'For a new device, or when the code expired. Any earlier code stops working. The till’s current credential keeps working until the new code is exchanged; from then on only the new device’s credential does (re-pairing moves the till to the new device). A revoked till cannot be paired again: create a new till.',
    auth: 'secret',
    params: idParams,
    response: pairedTillSchema,
    storedResponse: withoutPairingCode,
    handler: ({ params, auth, db, services }) =>
      services.tills.newPairingCode(db, auth, params.id, pairing(services)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/tills/{id}',
    tag,
    summary: 'Revoke a till',
    description:
      'The till’s credential and pairing code stop working at once: its next sync is refused with `till_revoked`, and it shows that it was removed. Print jobs waiting for it fail with `till_revoked`. The till stays listed (its receipt prefix is never reused). Revoking again changes nothing.',
    auth: 'secret',
    params: idParams,
    response: tillSchema,
    handler: ({ params, auth, db, services }) => services.tills.revoke(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/tills/{id}/retire',
    tag,
    summary: 'Retire a till',
    description:
      'Ends a till in an orderly way: at its next sync it stops selling, sends every sale it has not synced yet (all are accepted) and reports an empty backlog; the till is then `retired` and its credential stops (`till_retired`). Until then it is `retiring`. A till never paired is retired at once. Retiring again changes nothing; a retiring or retired till may still be revoked. Its pairing code stops working.',
    auth: 'secret',
    params: idParams,
    response: tillSchema,
    handler: ({ params, auth, db, services }) => services.tills.retire(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/tills/{id}/recover',
    tag,
    summary: 'Import a removed till’s unsynced sales',
    description:
      'Takes the file a revoked (or retired) till exported of the sales and other commands it never synced. The file must be this till’s, unaltered: its `signature` is the HMAC-SHA256 of `body` keyed with the till’s export key (derived from its credential; see docs/TILL-API.md), else 400 `till_export_invalid`. Each command runs through the same path as a sync, keyed by its id, so one that reached the server before (pushed, or imported already) applies once: `recovered` tells which this import applied, and a sale applied here is flagged `recovered` (event `order.recovered`). A command refused is answered with its error; one the server could not try now is `not_tried` (import the file again). A till still `paired` sends its own sales: 400 `state_transition_invalid`.',
    auth: 'secret',
    params: idParams,
    body: tillExportFile,
    maxBodyBytes: TILL_EXPORT_MAX_BYTES + 100_000,
    // Each command commits on its own, as when the till pushes.
    transactional: false,
    response: recoverySchema,
    handler: ({ params, auth, body, services }) => services.tillRecovery.recover(auth, params.id, body),
  }),
];
