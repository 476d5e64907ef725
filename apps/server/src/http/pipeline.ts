import type Koa from 'koa';
import type { z } from 'zod';
import { AppError, newId } from '@tz/core';
import type { Logger } from 'pino';
import type { Services } from '../services.ts';
import type { Queryable } from '../db/database.ts';
import { readJsonBody } from './body.ts';
import { toAppError, validationError } from './errors.ts';
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from './idempotency-header.ts';
import type { RateLimits } from '../infra/rate-limits.ts';
import { idempotencyScope } from '../infra/idempotency.ts';
import { enforceRateLimit } from './rate-limit.ts';
import type { Actor } from '../actor.ts';
import { responseForReplay, type AnyRoute } from './route.ts';
import { cookieCredential } from './session-cookie.ts';

export interface PipelineDeps {
  services: Services;
  rateLimits: RateLimits;
  logger: Logger;
}

export interface RequestState {
  requestId: string;
  startedAt: number;
  actor?: Actor;
  /** The path logs show instead of the request's, for pages whose path holds a secret token. */
  loggedPath?: string;
}

/** Outermost middleware: request id, the error object for every failure, and the request log. */
export function requestEnvelope(deps: PipelineDeps): Koa.Middleware<RequestState> {
  return async (ctx, next) => {
    ctx.state.requestId = newId('request');
    ctx.state.startedAt = performance.now();
    ctx.set('X-Request-Id', ctx.state.requestId);
    let errorCode: string | null = null;
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError('route_not_found', `Unrecognized request URL (${ctx.method} ${ctx.path})`);
      }
    } catch (thrown) {
      const error = toAppError(thrown);
      errorCode = error.code;
      if (error.kind.status >= 500) {
        deps.logger.error(
          { err: thrown, requestId: ctx.state.requestId, path: ctx.state.loggedPath ?? ctx.path },
          'request failed',
        );
      }
      ctx.status = error.kind.status;
      if (error.retryAfter !== undefined) ctx.set('Retry-After', String(error.retryAfter));
      ctx.body = error.toBody();
    }
    const actor = ctx.state.actor;
    if (actor && ctx.path.startsWith('/v1/')) {
      deps.services.requestLogs.add({
        actor,
        requestId: ctx.state.requestId,
        method: ctx.method,
        path: ctx.state.loggedPath ?? ctx.path,
        status: ctx.status,
        durationMs: performance.now() - ctx.state.startedAt,
        ip: ctx.ip,
        errorCode,
      });
    }
  };
}

export function presentedCredential(ctx: Koa.Context): string | undefined {
  const authorization = ctx.get('Authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new AppError('api_key_invalid', 'Send the key as `Authorization: Bearer <key>`');
    return match[1];
  }
  return ctx.get('X-API-Key') || undefined;
}

/** Resolves the caller; unauthenticated requests are counted against the client address. */
export async function authenticate(
  ctx: Koa.ParameterizedContext<RequestState>,
  deps: PipelineDeps,
  route: AnyRoute,
) {
  if (route.auth === 'none') {
    await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
    return undefined;
  }
  // A key in a header, or else the back office's cookie (a write only from its own pages).
  const presented = presentedCredential(ctx) ?? cookieCredential(ctx, deps.services.publicUrl);
  const actor = presented
    ? await deps.services.merchants.authenticate(deps.services.database.pool, presented)
    : null;
  if (!actor) {
    await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
    throw presented
      ? new AppError('api_key_invalid', 'The API key is invalid, revoked or expired')
      : new AppError(
          'api_key_missing',
          'No API key provided: send `Authorization: Bearer <key>` or `X-API-Key`',
        );
  }
  ctx.state.actor = actor;
  await enforceRateLimit(ctx, deps.rateLimits.perCredential, actor.credentialId);
  if (actor.keyType === 'publishable' && route.auth !== 'publishable') {
    throw new AppError(
      'publishable_key_forbidden',
      'Publishable keys may only create and read checkouts; use a secret key',
    );
  }
  return actor;
}

function parse<T>(schema: z.ZodType<T> | undefined, value: unknown, where: 'body' | 'query' | 'path'): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where, value);
  return result.data;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The per-route chain: auth -> rate limit -> body -> validate -> the write path (or a read). */
export function routeHandler(route: AnyRoute, deps: PipelineDeps): Koa.Middleware<RequestState> {
  const { services } = deps;
  const isWrite = WRITE_METHODS.has(route.method);
  return async (ctx) => {
    const actor = await authenticate(ctx, deps, route);
    if (route.app && actor) await services.apps.assertInstalled(services.database.pool, actor, route.app);
    const idempotencyKey = isWrite ? parseIdempotencyKey(ctx.headers[IDEMPOTENCY_HEADER]) : undefined;
    const limits = route.maxBodyBytes
      ? { ...services.config, MAX_BODY_BYTES: Math.max(route.maxBodyBytes, services.config.MAX_BODY_BYTES) }
      : services.config;
    const { value: rawBody } = isWrite ? await readJsonBody(ctx, limits) : { value: undefined };
    const params: unknown = parse(route.params, (ctx as unknown as { params: unknown }).params, 'path');
    const query: unknown = parse(route.query, { ...ctx.query }, 'query');
    const body: unknown = parse(route.body, route.body && rawBody === undefined ? {} : rawBody, 'body');
    if (
      !route.body &&
      rawBody !== undefined &&
      !(typeof rawBody === 'object' && rawBody !== null && Object.keys(rawBody).length === 0)
    ) {
      throw new AppError('parameter_unknown', 'This endpoint takes no request body', {
        details: { body: 'must be empty' },
      });
    }

    const run = async (db: Queryable, afterCommit: (task: () => Promise<void>) => void) => {
      let status: number = route.status ?? 200;
      const output: unknown = await route.handler({
        body,
        query,
        params,
        auth: actor,
        db,
        services,
        afterCommit,
        respondWith: (code) => {
          status = code;
        },
        requestId: ctx.state.requestId,
        ip: ctx.ip,
      });
      if (services.config.VALIDATE_RESPONSES) assertResponseShape(route, output);
      return { status, body: output, stored: responseForReplay(route, output) };
    };

    if (!isWrite) {
      const noDeferring = () => {
        throw new Error(`${route.method} ${route.path} is a read: it cannot defer work`);
      };
      const answer = route.snapshotRead
        ? await services.database.transaction(async (tx) => {
            await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
            return run(tx, noDeferring);
          })
        : await run(services.database.pool, noDeferring);
      ctx.status = answer.status;
      ctx.body = answer.body;
      if (route.contentType) ctx.type = route.contentType;
      return;
    }
    const outcome = await services.writes.run({
      idempotency: idempotencyKey
        ? {
            scope: idempotencyScope(
              actor ?? { address: ctx.ip },
              `${route.method} ${ctx.path}`,
              idempotencyKey,
            ),
            body: rawBody,
          }
        : undefined,
      token: ctx.state.requestId,
      transactional: route.transactional !== false,
      work: ({ db, afterCommit }) => run(db, afterCommit),
    });
    if (outcome.kind === 'replay') ctx.set('Idempotent-Replayed', 'true');
    ctx.status = outcome.status;
    ctx.body = outcome.body;
  };
}

/** With VALIDATE_RESPONSES (on in tests), a response that breaks its documented schema is a bug. */
function assertResponseShape(route: AnyRoute, output: unknown): void {
  const checked = route.response.safeParse(output);
  if (!checked.success) {
    throw new Error(
      `Response of ${route.method} ${route.path} does not match its schema: ${JSON.stringify(checked.error.issues).slice(0, 2000)}`,
    );
  }
}
