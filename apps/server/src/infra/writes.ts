/**
 * The one write path. A REST write, the hosted checkout's pay step and a till's
 * command all run here: claim the idempotency key, do the work in one
 * transaction that ends by completing the key, commit, then run the tasks that
 * reach outside the database. Nothing here knows HTTP.
 */
import type { Logger } from 'pino';
import { AppError } from '@tz/core';
import type { Connection, Database, Queryable, Transaction } from '../db/database.ts';
import type { EventSignal } from './events.ts';
import {
  claimIdempotencyKey,
  idempotencyCompletion,
  NOT_CLAIM_HOLDER,
  releaseIdempotencyKey,
  requestHash,
  type IdempotencyScope,
} from './idempotency.ts';

/** What a piece of work answers: the status and body to send, and to store for a replay. */
export interface WriteAnswer<T> {
  status: number;
  body: T;
  /** What a replay shows, when not the body itself: a secret shown once is stored masked. */
  stored?: unknown;
}

export interface WriteContext {
  /** The write's transaction (or the pool, for a write that opts out of one). */
  db: Queryable;
  /** Runs after the commit (asking a provider to start a payment, printing): never before. */
  afterCommit: (task: () => Promise<void>) => void;
}

export interface WriteRequest<T> {
  /** Scope and key when the caller gave one; the body's hash tells a retry from a reuse. */
  idempotency?: { scope: IdempotencyScope; body: unknown } | undefined;
  /** Unique per attempt: only the holder of the claim may complete the key. */
  token: string;
  /**
   * False for a write that must persist across its own failure (counting a failed
   * login): it runs on the pool, statement by statement.
   */
  transactional?: boolean;
  work(context: WriteContext): Promise<WriteAnswer<T>>;
}

export type WriteOutcome<T> =
  { kind: 'done'; status: number; body: T } | { kind: 'replay'; status: number; body: unknown };

export interface WritePath {
  run<T>(request: WriteRequest<T>): Promise<WriteOutcome<T>>;
}

export function createWritePath(
  database: Database,
  ttlHours: number,
  events: EventSignal,
  logger: Logger,
): WritePath {
  return {
    async run<T>(request: WriteRequest<T>): Promise<WriteOutcome<T>> {
      const key = request.idempotency
        ? {
            scope: request.idempotency.scope,
            hash: requestHash(request.idempotency.body ?? null),
            token: request.token,
            ttlHours,
          }
        : undefined;
      const tasks: Array<() => Promise<void>> = [];
      const afterCommit = (task: () => Promise<void>) => tasks.push(task);
      const outcome =
        request.transactional === false
          ? await runOnPool(database.pool, key, (db) => request.work({ db, afterCommit }))
          : await database.connection((connection) =>
              runInTransaction(connection, key, (tx) => request.work({ db: tx, afterCommit })),
            );
      if (outcome.kind === 'done') afterWriteCommitted(tasks, events, logger);
      return outcome;
    },
  };
}

/**
 * After a write committed: its events are in the outbox, so the webhook
 * dispatcher wakes; then the tasks that reach outside the database run, each
 * failure logged.
 */
function afterWriteCommitted(tasks: Array<() => Promise<void>>, events: EventSignal, logger: Logger): void {
  events.notify();
  for (const task of tasks) {
    task().catch((error: unknown) => logger.error({ err: error }, 'after-commit task failed'));
  }
}

const stored = (answer: WriteAnswer<unknown>) => ('stored' in answer ? answer.stored : answer.body);

interface KeyUse {
  scope: IdempotencyScope;
  hash: string;
  token: string;
  ttlHours: number;
}

/**
 * The work in one transaction, sent in the same packet as its idempotency claim
 * without waiting for the claim's answer: the transaction ends by completing
 * the key, which fails unless this attempt holds the claim, so one that lost
 * the claim rolls back whatever it did and answers as the claim says.
 */
async function runInTransaction<T>(
  connection: Connection,
  key: KeyUse | undefined,
  work: (tx: Transaction) => Promise<WriteAnswer<T>>,
): Promise<WriteOutcome<T>> {
  const claim = key
    ? claimIdempotencyKey(connection, key.scope, key.hash, key.ttlHours, key.token)
    : undefined;
  claim?.catch(() => undefined); // awaited below, after the transaction
  try {
    const answer = await connection.transaction(async (tx) => {
      const answer = await work(tx);
      if (key) tx.defer(...idempotencyCompletion(key.scope, key.token, answer.status, stored(answer)));
      return answer;
    });
    if (claim && (await claim).kind !== 'claimed')
      throw new Error('a write committed without its idempotency claim');
    return { kind: 'done', status: answer.status, body: answer.body };
  } catch (error) {
    if (!claim || !key) throw error;
    const claimed = await claim; // a 409 or 422 when another attempt holds the key
    if (claimed.kind === 'replay') return claimed;
    // Durably: a lost release would leave the key answering 409 until the claim counts as abandoned.
    await releaseIdempotencyKey(connection, key.scope, key.token).catch(() => undefined);
    if ((error as { code?: unknown }).code === NOT_CLAIM_HOLDER) {
      // Claimed, but taken over as abandoned while this attempt ran past the limits.
      throw new AppError(
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still being processed',
      );
    }
    throw error;
  }
}

/** A write that must persist across its own failure: the claim first, then the work on the pool. */
async function runOnPool<T>(
  pool: Queryable,
  key: KeyUse | undefined,
  work: (db: Queryable) => Promise<WriteAnswer<T>>,
): Promise<WriteOutcome<T>> {
  if (key) {
    const claimed = await claimIdempotencyKey(pool, key.scope, key.hash, key.ttlHours, key.token);
    if (claimed.kind === 'replay') return claimed;
  }
  try {
    const answer = await work(pool);
    if (key) await pool.query(...idempotencyCompletion(key.scope, key.token, answer.status, stored(answer)));
    return { kind: 'done', status: answer.status, body: answer.body };
  } catch (error) {
    if (key) await releaseIdempotencyKey(pool, key.scope, key.token).catch(() => undefined);
    throw error;
  }
}
