/**
 * The back office's cookie session (docs/OFFICE.md). `/office/session` signs
 * a browser in with email and password (through the login throttle) and
 * answers with an `HttpOnly`, `SameSite=Strict` cookie (`Secure` over HTTPS)
 * holding a session token the page never sees; `/v1` accepts that cookie as a
 * login, and refuses a write carrying it unless the request comes from this
 * server's own pages (its `Origin`, or else its `Referer`).
 */
import Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import { AppError } from '@tz/core';
import type { PipelineDeps, RequestState } from './pipeline.ts';
import { enforceRateLimit } from './rate-limit.ts';
import { readJsonBody } from './body.ts';
import { validationError } from './errors.ts';
import type { Actor } from '../actor.ts';

export const OFFICE_COOKIE = 'office_session';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * A write carrying the cookie must come from this server's own pages: the
 * public address, or the address the request was sent to (a shop's laptop may
 * reach the server by another name than PUBLIC_URL's). A browser sets `Origin`
 * on every write and no page can forge it; without it, `Referer`; with neither,
 * the write is refused.
 */
function assertOwnOrigin(ctx: Koa.Context, publicUrl: string): void {
  const origin = ctx.get('Origin') || originOf(ctx.get('Referer'));
  // Built here: Koa's own `ctx.origin` echoes the request's Origin header.
  const addressed = `${ctx.protocol}://${ctx.host}`;
  if (!origin || (origin !== originOf(publicUrl) && origin !== addressed)) {
    throw new AppError(
      'origin_not_allowed',
      `A write signed in by the back office's cookie must come from its own pages, not ${origin ?? 'an unnamed origin'}`,
    );
  }
}

/** The session token a browser's cookie carries to `/v1`, once a write is known to come from our pages. */
export function cookieCredential(ctx: Koa.Context, publicUrl: string): string | undefined {
  const token = ctx.cookies.get(OFFICE_COOKIE);
  if (!token) return undefined;
  if (!SAFE_METHODS.has(ctx.method)) assertOwnOrigin(ctx, publicUrl);
  return token;
}

function setCookie(ctx: Koa.Context, publicUrl: string, token: string, expiresAt: number | null): void {
  const attributes = [
    `${OFFICE_COOKIE}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    expiresAt === null ? 'Max-Age=0' : `Max-Age=${Math.max(0, expiresAt - Math.floor(Date.now() / 1000))}`,
    ...(ctx.secure || publicUrl.startsWith('https:') ? ['Secure'] : []),
  ];
  ctx.append('Set-Cookie', attributes.join('; '));
  ctx.set('Cache-Control', 'no-store');
}

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
  const token = cookieCredential(ctx, services.publicUrl());
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
    assertOwnOrigin(ctx, services.publicUrl());
    await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
    const body = await bodyOf(ctx, deps, signInBody);
    const { token, session } = await services.sessions.signIn(db, body, ctx.ip);
    setCookie(ctx, services.publicUrl(), token, session.expires_at);
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
    setCookie(ctx, services.publicUrl(), token, session.expires_at);
    ctx.body = session;
  });
  router.delete('/office/session', async (ctx) => {
    const actor = await signedIn(ctx, deps);
    await services.sessions.signOut(db, actor);
    setCookie(ctx, services.publicUrl(), '', null);
    ctx.body = { object: 'sign_out', sessions_ended: 1 };
  });
  router.delete('/office/sessions', async (ctx) => {
    const actor = await signedIn(ctx, deps);
    const ended = await services.sessions.signOutEverywhere(db, actor);
    setCookie(ctx, services.publicUrl(), '', null);
    ctx.body = { object: 'sign_out', sessions_ended: ended };
  });
  return router;
}
