import { createHash } from 'node:crypto';
import { AppError } from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable, Statement } from '../db/database.ts';

/**
 * What a key is unique within: its owner, and an operation (a REST request's
 * method and path, `POST /v1/payments`; a till command's type, `command
 * order.create`). Built by `idempotencyScope` alone.
 */
export interface IdempotencyScope {
  merchantId: string;
  livemode: boolean;
  operation: string;
  key: string;
}

/**
 * Whose keys: a merchant in a mode (an API key, a login, a till); a client
 * address, for a route that takes no key; or a hosted page's object, whose
 * payer has no credential.
 */
export type KeyOwner = Tenant | { address: string } | { page: 'checkout' | 'invoice'; id: string };

/** The one way a scope is made; the owners that are no merchant are kept apart from merchants and each other. */
export function idempotencyScope(owner: KeyOwner, operation: string, key: string): IdempotencyScope {
  if ('merchantId' in owner)
    return { merchantId: owner.merchantId, livemode: owner.livemode, operation, key };
  const merchantId = 'address' in owner ? `public:${owner.address}` : `${owner.page}:${owner.id}`;
  return { merchantId, livemode: false, operation, key };
}

export type Claim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: unknown };

/** Key order and whitespace do not make a body different. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const requestHash = (body: unknown): string =>
  createHash('sha256').update(canonicalJson(body)).digest('hex');

const SCOPE_WHERE = 'merchant_id = $1 AND livemode = $2 AND operation = $3 AND key = $4';
const scopeParams = (s: IdempotencyScope) => [s.merchantId, s.livemode, s.operation, s.key];

/** SQLSTATE raised by `complete_idempotency_key` for a request that does not hold the key. */
export const NOT_CLAIM_HOLDER = 'TZ409';

/**
 * Claims a key for the request with `token`, in one statement committed before
 * the request's transaction (see the `claim_idempotency_key` migrations), or
 * answers with the stored response, a 409 while the first request runs, or a
 * 422 when the body differs. Keys older than the TTL are treated as new.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  scope: IdempotencyScope,
  hash: string,
  ttlHours: number,
  token: string,
): Promise<Claim> {
  const result = await db.query<{
    outcome: 'claimed' | 'replay' | 'reused' | 'in_flight';
    response_status: number | null;
    response_body: unknown;
  }>(
    {
      name: 'claim_idempotency_key',
      text: 'SELECT outcome, response_status, response_body FROM claim_idempotency_key($1, $2, $3, $4, $5, $6, $7)',
    },
    [...scopeParams(scope), hash, ttlHours, token],
  );
  const row = result.rows[0]!;
  switch (row.outcome) {
    case 'claimed':
      return { kind: 'claimed' };
    case 'replay':
      return { kind: 'replay', status: row.response_status ?? 200, body: row.response_body };
    case 'reused':
      throw new AppError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request body',
        {
          details: { 'Idempotency-Key': 'was used with a different body' },
        },
      );
    case 'in_flight':
      throw new AppError(
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still being processed',
        {
          details: { 'Idempotency-Key': 'is in use by a request in flight' },
        },
      );
  }
}

/**
 * The statement storing the response, to run in the transaction of the change
 * it describes. It fails unless the claim is `token`'s, and so rolls back a
 * transaction sent before the claim's answer came. The claim was committed
 * lazily, but before this durable commit, whose flush covers it.
 */
export function idempotencyCompletion(
  scope: IdempotencyScope,
  token: string,
  status: number,
  body: unknown,
): [Statement, unknown[]] {
  return [
    {
      name: 'complete_idempotency_key',
      text: 'SELECT complete_idempotency_key($1, $2, $3, $4, $5, $6, $7)',
    },
    [...scopeParams(scope), token, status, JSON.stringify(body)],
  ];
}

/** A failed request releases its key: nothing it did was committed, so a retry may run it again. */
export async function releaseIdempotencyKey(db: Queryable, scope: IdempotencyScope, token: string) {
  await db.query(
    `DELETE FROM idempotency_keys WHERE ${SCOPE_WHERE} AND state = 'running' AND claim_token = $5`,
    [...scopeParams(scope), token],
  );
}

export async function purgeExpiredIdempotencyKeys(db: Queryable, ttlHours: number): Promise<number> {
  const result = await db.query(
    `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`,
    [ttlHours],
  );
  return result.rowCount ?? 0;
}
