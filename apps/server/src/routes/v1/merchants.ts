import { z } from 'zod';
import { EAST_AFRICA_TIME_ZONE } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { apiKeyObject, maskedNewKey, maskedSession, maskedSignUp } from '../../services/merchants.ts';
import { idParams, livemode, unix } from './schemas.ts';

const merchant = z.object({
  id: z.string(),
  object: z.literal('merchant'),
  business_name: z.string(),
  email: z.string(),
  livemode,
  created: unix,
});

const apiKey = z.object({
  id: z.string(),
  object: z.literal('api_key'),
  type: z.enum(['secret', 'publishable']),
  mode: z.enum(['test', 'live']),
  livemode,
  key: z.string().describe('Masked, except in the response that creates the key'),
  name: z.string().nullable(),
  status: z.enum(['active', 'expiring', 'revoked']),
  created: unix,
  expires_at: unix.nullable(),
});

const mode = z.enum(['test', 'live']);
const password = z.string().min(10, { error: 'must be at least 10 characters' }).max(200);

export const merchantRoutes = [
  defineRoute({
    method: 'POST',
    path: '/merchants',
    tag: 'Merchants',
    summary: 'Create a merchant (sign up)',
    description:
      'Returns the merchant and its four API keys in full; this is the only time the keys are shown.',
    auth: 'none',
    status: 201,
    body: z.strictObject({
      business_name: z.string().trim().min(1).max(200),
      email: z.email({ error: 'must be an email address' }).max(254),
      password,
      referral_code: z
        .string()
        .trim()
        .min(1)
        .max(40)
        .optional()
        .describe('Another merchant’s code (GET /v1/referrals); that merchant then earns a share of fees'),
      time_zone: z
        .string()
        .max(64)
        .optional()
        .describe(`IANA time zone of the overview’s days; default ${EAST_AFRICA_TIME_ZONE}`),
    }),
    response: merchant.extend({ merchant, api_keys: z.array(apiKey) }),
    storedResponse: maskedSignUp,
    handler: ({ body, db, services }) => services.merchants.signUp(db, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/merchants/login',
    tag: 'Merchants',
    summary: 'Log in',
    description:
      'Returns a session token that authenticates like the secret key of the mode asked for. Each email has 10 password checks, and each client address 20, per 15 minutes; a right password gives its check back.',
    auth: 'none',
    // Outside a transaction: the failure counter must survive the failed attempt.
    transactional: false,
    body: z.strictObject({
      email: z.email({ error: 'must be an email address' }),
      password: z.string().min(1).max(200),
      mode: mode.default('test'),
    }),
    response: z.object({
      object: z.literal('session'),
      token: z.string(),
      mode,
      livemode,
      expires_at: unix,
      merchant,
    }),
    storedResponse: maskedSession,
    handler: ({ body, db, services, ip }) =>
      services.loginThrottle.attempt(body.email, ip, () => services.merchants.login(db, body)),
  }),
  defineRoute({
    method: 'POST',
    path: '/merchants/password',
    tag: 'Merchants',
    summary: 'Change the password',
    description:
      'Takes the current password (its checks count against the login limits above) and a new one. Every session but the caller’s own ends with the change: the back office’s browsers and API login tokens alike.',
    auth: 'secret',
    // Outside a transaction: a wrong current password must stay counted.
    transactional: false,
    body: z.strictObject({
      current_password: z.string().min(1).max(200),
      new_password: password,
    }),
    response: z.object({
      object: z.literal('password_change'),
      changed: unix,
      sessions_ended: z.number().int().describe('Sessions signed out by the change'),
    }),
    handler: ({ body, auth, db, services, ip }) => services.sessions.changePassword(db, auth, body, ip),
  }),
  defineRoute({
    method: 'GET',
    path: '/api-keys',
    tag: 'API keys',
    summary: 'List API keys of the authenticated merchant (both modes, masked)',
    auth: 'secret',
    query: listQuery,
    response: listEnvelope(apiKey),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.merchants.listKeysQuery(auth), query, apiKeyObject),
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
