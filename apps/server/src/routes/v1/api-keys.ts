import { z } from 'zod';
import { defineRoute } from '../../http/route.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { apiKeyObject, maskedNewKey } from '../../merchants/service.ts';
import { idParams } from './schemas.ts';
import { apiKey, mode } from './merchants.ts';

export const apiKeyRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api-keys',
    tag: 'API keys',
    summary: 'List API keys of the authenticated merchant (both modes, masked)',
    description: '`mode` keeps the keys of one mode; `status` those active, expiring or revoked.',
    auth: 'secret',
    query: listQuery.extend({
      mode: mode.optional(),
      status: z.enum(['active', 'expiring', 'revoked']).optional(),
    }),
    response: listEnvelope(apiKey),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.merchants.listKeysQuery(auth, query), query, apiKeyObject),
  }),
  defineRoute({
    method: 'POST',
    path: '/api-keys',
    tag: 'API keys',
    summary: 'Create an API key',
    description:
      'The full key is in this response only. A key of a mode can be created with a secret key or login of that mode.',
    auth: 'secret',
    status: 201,
    body: z.strictObject({
      type: z.enum(['secret', 'publishable']),
      mode: mode.optional(),
      name: z.string().max(100).optional(),
    }),
    response: apiKey,
    storedResponse: maskedNewKey,
    handler: ({ body, auth, db, services }) => services.merchants.createKey(db, auth, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api-keys/{id}/roll',
    tag: 'API keys',
    summary: 'Roll an API key',
    description:
      'Creates a replacement key of the same type and mode. The old key stops at once, or after `expires_in_hours` (up to 168) so deployments can switch over.',
    auth: 'secret',
    status: 201,
    params: idParams,
    body: z.strictObject({ expires_in_hours: z.number().int().min(0).max(168).default(0) }),
    response: apiKey,
    storedResponse: maskedNewKey,
    handler: ({ body, params, auth, db, services, afterCommit }) =>
      services.merchants.rollKey(db, auth, params.id, body.expires_in_hours, afterCommit),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api-keys/{id}',
    tag: 'API keys',
    summary: 'Revoke an API key',
    description:
      'The key stops working at once. The last active secret key of a mode cannot be revoked; roll it instead.',
    auth: 'secret',
    params: idParams,
    response: apiKey,
    handler: ({ params, auth, db, services, afterCommit }) =>
      services.merchants.revokeKey(db, auth, params.id, afterCommit),
  }),
];
