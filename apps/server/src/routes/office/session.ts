/**
 * The back office's session at `/office/session` (docs/OFFICE.md): signs a
 * browser in with email and password (through the login throttle) into the
 * session cookie (http/session-cookie.ts), switches its mode, and signs it out
 * there or everywhere.
 */
import Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import { AppError } from '@tz/core';
import type { PipelineDeps, RequestState } from '../../http/pipeline.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import { readJsonBody } from '../../http/body.ts';
import { validationError } from '../../http/errors.ts';
import type { Actor } from '../../actor.ts';
import { assertOwnOrigin, cookieCredential, setCookie } from '../../http/session-cookie.ts';

const mode = z.enum(['test', 'live']);
const signInBody = z.strictObject({
  email: z.email({ error: 'must be an email address' }),
  password: z.string().min(1).max(200),
  mode: mode.default('test'),
});
const modeBody = z.strictObject({ mode });

async function bodyOf<T>(ctx: Koa.Context, deps: PipelineDeps, schema: z.ZodType<T>): Promise<T> {
  const { value } = await readJsonBody(ctx, { ...deps.services.config, MAX_BODY_BYTES: 10_000 });
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'body', value ?? {});
  return parsed.data;
}

/** The signed-in browser, from its cookie alone (an API key is no browser session). */
async function signedIn(ctx: Koa.ParameterizedContext<RequestState>, deps: PipelineDeps): Promise<Actor> {
  const { services } = deps;
  const token = cookieCredential(ctx, services.publicUrl);
  const actor = token ? await services.merchants.authenticate(services.database.pool, token) : null;
  if (!actor || actor.kind !== 'login') {
    await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
    throw new AppError('api_key_invalid', 'Not signed in, or the session has ended; sign in again');
  }
  ctx.state.actor = actor;
  await enforceRateLimit(ctx, deps.rateLimits.perCredential, actor.credentialId);
  return actor;
}

export function officeSessionRoutes(deps: PipelineDeps): Router<RequestState> {
  const router = new Router<RequestState>();
  const { services } = deps;
  const db = services.database.pool;

  router.post('/office/session', async (ctx) => {
    // Signing in is a write with no cookie yet: only this server's pages may ask for one.
    assertOwnOrigin(ctx, services.publicUrl);
    await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
    const body = await bodyOf(ctx, deps, signInBody);
    const { token, session } = await services.sessions.signIn(db, body, ctx.ip);
    setCookie(ctx, services.publicUrl, token, session.expires_at);
    ctx.status = 201;
    ctx.body = session;
  });
  router.get('/office/session', async (ctx) => {
    const actor = await signedIn(ctx, deps);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await services.sessions.current(db, actor);
  });
  router.post('/office/session/mode', async (ctx) => {
    const actor = await signedIn(ctx, deps);
    const body = await bodyOf(ctx, deps, modeBody);
    const { token, session } = await services.sessions.switchMode(db, actor, body.mode);
    setCookie(ctx, services.publicUrl, token, session.expires_at);
    ctx.body = session;
  });
  router.delete('/office/session', async (ctx) => {
    const actor = await signedIn(ctx, deps);
    await services.sessions.signOut(db, actor);
    setCookie(ctx, services.publicUrl, '', null);
    ctx.body = { object: 'sign_out', sessions_ended: 1 };
  });
  router.delete('/office/sessions', async (ctx) => {
    const actor = await signedIn(ctx, deps);
    const ended = await services.sessions.signOutEverywhere(db, actor);
    setCookie(ctx, services.publicUrl, '', null);
    ctx.body = { object: 'sign_out', sessions_ended: ended };
  });
  return router;
}
