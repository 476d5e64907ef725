/**
 * What every `/trpc` call passes before tRPC sees it, as every `/v1` request
 * does (docs/RELIABILITY.md, "Input"): the caller is known and counted first
 * (a till by its device credential, a pairing by its address), then the body
 * is read once, within the size and time limits, and held to the same JSON
 * and string rules, as are a query's `input` and the stream's
 * `connectionParams`. A push is judged command by command: one that breaks the
 * rules is refused alone, never the whole push, which the till would resend
 * for ever.
 */
import type Koa from 'koa';
import { AppError, PUSH_BODY_MAX_BYTES } from '@tz/core';
import type { TillActor } from '../actor.ts';
import type { SyncService } from '../sync/service.ts';
import { readJsonBody } from './body.ts';
import { parseJsonBody, parseJsonItems } from './input.ts';
import type { RateLimits } from '../infra/rate-limits.ts';
import type { Services } from '../services.ts';
import type { RequestState } from './pipeline.ts';
import { enforceRateLimit } from './rate-limit.ts';

/** What the boundary learnt of a call, handed to the procedures. */
export interface TillCall {
  /** The calling till; null only for `sync.pair`. */
  till: TillActor | null;
  /** The body as read, for tRPC to parse (it never reads the socket itself). */
  body: string | undefined;
  /** A push's commands that break the input rules, by their index in `commands`. */
  refusedCommands: ReadonlyMap<number, AppError>;
}

/** The one procedure a caller without a credential may call. */
const PAIR = 'sync.pair';
const REPORT = 'sync.report';
const PUSH = 'sync.push';

/** Admits a call or throws the AppError that refuses it. */
export async function admitTillCall(
  ctx: Koa.ParameterizedContext<RequestState>,
  services: Services,
  sync: SyncService,
  path: string,
): Promise<TillCall> {
  const till = path === PAIR ? null : await authenticate(ctx, services.rateLimits, sync, path);
  if (!till) await enforceRateLimit(ctx, services.rateLimits.perAddress, ctx.ip);
  const input = ctx.query.input;
  if (input !== undefined) {
    if (typeof input !== 'string') throw duplicateInput();
    parseWithin('input', input);
  }
  const config = services.config;
  if (path === PUSH) {
    const limits = { ...config, MAX_BODY_BYTES: Math.max(config.MAX_BODY_BYTES, PUSH_BODY_MAX_BYTES) };
    const read = await readJsonBody(ctx, limits, (raw) => parseJsonItems(raw, 'commands'));
    return {
      till,
      body: read.value ? read.raw : undefined,
      refusedCommands: read.value?.refused ?? new Map(),
    };
  }
  const read = await readJsonBody(ctx, config);
  return { till, body: read.value === undefined ? undefined : read.raw, refusedCommands: new Map() };
}

/** The till whose credential the call carries (the stream sends it in `connectionParams`). */
async function authenticate(
  ctx: Koa.ParameterizedContext<RequestState>,
  rateLimits: RateLimits,
  sync: SyncService,
  path: string,
): Promise<TillActor> {
  const credential = presentedCredential(ctx);
  try {
    if (!credential) throw new AppError('till_credential_invalid', 'Send the till’s device credential');
    // A removed till still reports its backlog, so the merchant sees what it holds.
    const till = await sync.authenticate(credential, { reporting: path === REPORT });
    await enforceRateLimit(ctx, rateLimits.perCredential, till.credentialId);
    return till;
  } catch (error) {
    // A guessed or stale credential is paid for by the address it comes from.
    if (error instanceof AppError && error.kind.status === 401) {
      await enforceRateLimit(ctx, rateLimits.perAddress, ctx.ip);
    }
    throw error;
  }
}

function presentedCredential(ctx: Koa.Context): string | undefined {
  const header = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'))?.[1];
  if (header) return header;
  const params = ctx.query.connectionParams;
  if (params === undefined) return undefined;
  if (typeof params !== 'string') throw duplicateInput();
  const parsed = parseWithin('connectionParams', params);
  const credential = (parsed as { credential?: unknown } | null)?.credential;
  return typeof credential === 'string' && credential !== '' ? credential : undefined;
}

/** JSON carried in the URL, held to the body's rules; fields are named from the parameter. */
function parseWithin(parameter: string, text: string): unknown {
  try {
    return parseJsonBody(text);
  } catch (error) {
    if (!(error instanceof AppError) || !error.details) throw error;
    const details = Object.fromEntries(
      Object.entries(error.details).map(([field, problem]) => [
        field === 'body' ? parameter : `${parameter}.${field}`,
        problem,
      ]),
    );
    throw new AppError(error.code, `Invalid parameter: ${Object.keys(details).join(', ')}`, { details });
  }
}

const duplicateInput = () =>
  new AppError('parameter_duplicate', 'Duplicate query parameter', {
    details: { query: 'input and connectionParams may each appear once' },
  });
