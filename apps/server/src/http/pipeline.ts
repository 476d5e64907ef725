import type Koa from 'koa';
import type { z } from 'zod';
import { AppError, newId } from '@tz/core';
import type pino from 'pino';
import type { Services } from '../services/index.ts';
import { notifyEventsWritten } from '../services/events.ts';
import type { Connection, Queryable, Transaction } from '../db/database.ts';
import { readJsonBody } from './body.ts';
import { toAppError, validationError } from './errors.ts';
import {
  claimIdempotencyKey,
  IDEMPOTENCY_HEADER,
  idempotencyCompletion,
  NOT_CLAIM_HOLDER,
  parseIdempotencyKey,
  releaseIdempotencyKey,
  requestHash,
  type IdempotencyScope,
} from './idempotency.ts';
import { enforceRateLimit, type RateLimits } from './rate-limit.ts';
import type { AnyRoute, Principal } from './route.ts';

export interface PipelineDeps {
  services: Services;
  rateLimits: RateLimits;
  logger: pino.Logger;
}

export interface RequestState {
  requestId: string;
  startedAt: number;
  principal?: Principal;
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
        deps.logger.error({ err: thrown, requestId: ctx.state.requestId, path: ctx.path }, 'request failed');
      }
      ctx.status = error.kind.status;
      if (error.retryAfter !== undefined) ctx.set('Retry-After', String(error.retryAfter));
      ctx.body = error.toBody();
    }
    const principal = ctx.state.principal;
    if (principal && ctx.path.startsWith('/v1/')) {
      deps.services.requestLogs.add({
        principal,
        requestId: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        durationMs: performance.now() - ctx.state.startedAt,
        ip: ctx.ip,
        errorCode,
      });
    }
  };
}

function presentedCredential(ctx: Koa.Context): string | undefined {
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
  const presented = presentedCredential(ctx);
  const principal = presented
    ? await deps.services.merchants.authenticate(deps.services.database.pool, presented)
    : null;
  if (!principal) {
    await enforceRateLimit(ctx, deps.rateLimits.perAddress, ctx.ip);
    throw presented
      ? new AppError('api_key_invalid', 'The API key is invalid, revoked or expired')
      : new AppError(
          'api_key_missing',
          'No API key provided: send `Authorization: Bearer <key>` or `X-API-Key`',
        );
  }
  ctx.state.principal = principal;
  await enforceRateLimit(ctx, deps.rateLimits.perCredential, principal.credentialId);
  if (principal.keyType === 'publishable' && route.auth !== 'publishable') {
    throw new AppError(
      'publishable_key_forbidden',
      'Publishable keys may only create and read checkouts; use a secret key',
    );
  }
  return principal;
}

function parse<T>(schema: z.ZodType<T> | undefined, value: unknown, where: 'body' | 'query' | 'path'): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where, value);
  return result.data;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The per-route chain: auth -> rate limit -> body -> validate -> idempotency -> handler in one transaction. */
export function routeHandler(route: AnyRoute, deps: PipelineDeps): Koa.Middleware<RequestState> {
  const { services, logger } = deps;
  const isWrite = WRITE_METHODS.has(route.method);
  return async (ctx) => {
    const principal = await authenticate(ctx, deps, route);
    const idempotencyKey = isWrite ? parseIdempotencyKey(ctx.headers[IDEMPOTENCY_HEADER]) : undefined;
    const { value: rawBody } = isWrite
      ? await readJsonBody(ctx, services.config)
      : { value: undefined };
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

    const scope: IdempotencyScope | undefined = idempotencyKey
      ? {
          merchantId: principal?.merchantId ?? `public:${ctx.ip}`,
          livemode: principal?.livemode ?? false,
          method: route.method,
          path: ctx.path,
          key: idempotencyKey,
        }
      : undefined;
    // Only keyed requests pay for hashing the body.
    const bodyHash = scope ? requestHash(rawBody ?? null) : '';
    const token = ctx.state.requestId;

    let status: number = route.status ?? 200;
    const afterCommit: Array<() => Promise<void>> = [];
    const run = async (db: Queryable) => {
      const output: unknown = await route.handler({
        body,
        query,
        params,
        auth: principal,
        db,
        services,
        afterCommit: (task) => afterCommit.push(task),
        respondWith: (code) => {
          status = code;
        },
        requestId: ctx.state.requestId,
        ip: ctx.ip,
      });
      if (services.config.VALIDATE_RESPONSES) assertResponseShape(route, output);
      return output;
    };

    const key: KeyUse = { scope, bodyHash, token, ttlHours: services.config.IDEMPOTENCY_TTL_HOURS };
    const outcome: Outcome =
      isWrite && route.transactional !== false
        ? await services.database.connection((connection) =>
            runTransactionalWrite(connection, key, async (tx) => {
              const output = await run(tx);
              if (scope) tx.defer(...idempotencyCompletion(scope, token, status, output));
              return output;
            }),
          )
        : await runWithoutTransaction(services.database.pool, key, async (db) => {
            const output = await run(db);
            if (scope) await db.query(...idempotencyCompletion(scope, token, status, output));
            return output;
          });
    if (outcome.kind === 'replay') {
      ctx.set('Idempotent-Replayed', 'true');
      ctx.status = outcome.status;
      ctx.body = outcome.body;
      return;
    }
    if (isWrite) afterWriteCommitted(afterCommit, logger, ctx.state.requestId);
    ctx.status = status;
    ctx.body = outcome.output;
  };
}

/**
 * After a write committed: its events are in the outbox, so the webhook dispatcher
 * wakes; then the tasks that reach outside the database run, each failure logged.
 */
export function afterWriteCommitted(
  tasks: Array<() => Promise<void>>,
  logger: pino.Logger,
  requestId: string,
): void {
  notifyEventsWritten();
  for (const task of tasks) {
    task().catch((error: unknown) => logger.error({ err: error, requestId }, 'after-commit task failed'));
  }
}

type Outcome = { kind: 'done'; output: unknown } | { kind: 'replay'; status: number; body: unknown };

interface KeyUse {
  scope: IdempotencyScope | undefined;
  bodyHash: string;
  token: string;
  ttlHours: number;
}

/**
 * A write in one transaction, sent in the same packet as its idempotency claim
 * without waiting for the claim's answer: the transaction ends by completing
 * the key, which fails unless this request holds the claim, so a request that
 * lost the claim rolls back whatever it did and answers as the claim says.
 */
async function runTransactionalWrite(
  connection: Connection,
  key: KeyUse,
  work: (tx: Transaction) => Promise<unknown>,
): Promise<Outcome> {
  const { scope } = key;
  const claim = scope
    ? claimIdempotencyKey(connection, scope, key.bodyHash, key.ttlHours, key.token)
    : undefined;
  claim?.catch(() => undefined); // awaited below, after the transaction
  try {
    const output = await connection.transaction(work);
    if (claim && (await claim).kind !== 'claimed')
      throw new Error('a write committed without its idempotency claim');
    return { kind: 'done', output };
  } catch (error) {
    if (!claim || !scope) throw error;
    const claimed = await claim; // a 409 or 422 when another request holds the key
    if (claimed.kind === 'replay') return claimed;
    // Durably: a lost release would leave the key answering 409 until the claim counts as abandoned.
    await releaseIdempotencyKey(connection, scope, key.token).catch(() => undefined);
    if ((error as { code?: unknown }).code === NOT_CLAIM_HOLDER) {
      // Claimed, but taken over as abandoned while this request ran past the limits.
      throw new AppError(
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still being processed',
      );
    }
    throw error;
  }
}

/** A write that must persist across its own failure (login counting), and every read. */
async function runWithoutTransaction(
  pool: Queryable,
  key: KeyUse,
  work: (db: Queryable) => Promise<unknown>,
): Promise<Outcome> {
  const { scope } = key;
  if (scope) {
    const claimed = await claimIdempotencyKey(pool, scope, key.bodyHash, key.ttlHours, key.token);
    if (claimed.kind === 'replay') return claimed;
  }
  try {
    return { kind: 'done', output: await work(pool) };
  } catch (error) {
    if (scope) await releaseIdempotencyKey(pool, scope, key.token).catch(() => undefined);
    throw error;
  }
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
