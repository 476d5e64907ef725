import { z } from 'zod';
import { accountLanguageSchema, EAST_AFRICA_TIME_ZONE } from '@tz/core';
import { defineRoute } from '../../http/route.ts';
import { maskedSession, maskedSignUp } from '../../merchants/service.ts';
import { livemode, unix } from './schemas.ts';

export const merchant = z.object({
  id: z.string(),
  object: z.literal('merchant'),
  business_name: z.string(),
  email: z.string(),
  default_language: accountLanguageSchema.describe(
    'The back office’s language for a browser that has not chosen one, and the receipt language a new store starts with',
  ),
  livemode,
  created: unix,
});

export const apiKey = z.object({
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

export const mode = z.enum(['test', 'live']);
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
];
