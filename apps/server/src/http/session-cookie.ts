/**
 * The back office's session cookie: `HttpOnly`, `SameSite=Strict` (`Secure`
 * over HTTPS), holding a session token the page never sees. `/v1` accepts it
 * as a login (the pipeline), and refuses a write carrying it unless the
 * request comes from this server's own pages (its `Origin`, or else its
 * `Referer`); `/office/session` sets and clears it (docs/OFFICE.md).
 */
import type Koa from 'koa';
import { AppError } from '@tz/core';

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
export function assertOwnOrigin(ctx: Koa.Context, publicUrl: string): void {
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

export function setCookie(
  ctx: Koa.Context,
  publicUrl: string,
  token: string,
  expiresAt: number | null,
): void {
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
