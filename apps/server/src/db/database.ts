import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readdir } from 'node:fs/promises';
import pg from 'pg';
import type { Logger } from 'pino';
import { runner } from 'node-pg-migrate';
import { openEmbedded } from './embedded.ts';

/**
 * int8 (counts, amounts, sums cast to bigint) as a JS number, exactly or not at
 * all: a value past 2^53 − 1 (a balance summed past 9,007,199,254,740,991 minor
 * units) fails its query instead of being rounded. Both modes share this parser.
 */
export function exactInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new RangeError(`the integer ${text} is past the largest one kept exact (2^53 − 1)`);
  return value;
}
pg.types.setTypeParser(pg.types.builtins.INT8, exactInteger);
// A calendar date stays the date it names (`2026-12-24`), never an instant in the process's time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (text: string) => text);

/**
 * A statement's text, or a named statement, parsed and planned once per
 * connection: for the hottest writes, whose parsing and planning cost the
 * database more than running them. Only statements whose result columns cannot
 * change under a migration (no `SELECT *`).
 */
export type Statement = string | { name: string; text: string; values?: unknown[] };

export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    statement: Statement,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>>;
}

export interface Transaction extends Queryable {
  /**
   * Sends a statement whose result nobody waits for. It leaves in the same packet
   * as the next statement that is waited for (or COMMIT); if it fails, the
   * transaction fails with its error.
   */
  defer(statement: Statement, values?: unknown[]): void;
  /**
   * Sends `ROLLBACK TO SAVEPOINT name` and waits for it. Once it succeeds, a
   * deferred statement that failed after the savepoint no longer fails the
   * transaction: its work was rolled back with the rest.
   */
  rollbackTo(savepoint: string): Promise<void>;
}

export const isTransaction = (db: Queryable): db is Transaction =>
  typeof (db as Partial<Transaction>).defer === 'function';

/**
 * A write whose result the caller does not need: in a transaction it leaves
 * with the next statement that is waited for (or COMMIT), and its failure fails
 * the commit; elsewhere it runs now.
 */
export async function write(db: Queryable, statement: Statement, values: unknown[]): Promise<void> {
  if (isTransaction(db)) db.defer(statement, values);
  else await db.query(statement, values);
}

/** One pooled connection whose statements, issued in one turn of the event loop, leave in one packet. */
export interface Connection extends Queryable {
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}

export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly pool: pg.Pool;
  /** Runs `work` in one transaction on one connection; commits or rolls back. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * A transaction whose commit does not wait for the disk. Only for rows whose
   * loss in a crash is harmless or repaired by a later durable commit (the next
   * durable commit flushes them too): request logs, webhook fan-out.
   */
  lazyTransaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Holds one connection for `work`, for statements that must precede a transaction on it. */
  connection<T>(work: (connection: Connection) => Promise<T>): Promise<T>;
  /** A session without the request timeouts, for migrations (an index build may take minutes). */
  unhurried<T>(work: (client: pg.ClientBase) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** SQLSTATE 25P02: a statement after a failed one in the same transaction. */
const TRANSACTION_ABORTED = '25P02';

interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * A pooled client in pipeline mode that holds its writes until the end of the
 * current turn of the event loop, so that BEGIN, the statements of a change,
 * its event and COMMIT cost one packet and one round trip when nothing between
 * them waits for an answer. PostgreSQL runs them in order, as if sent one by one.
 */
class PipelinedConnection implements Connection {
  private holding = false;
  private deferred: Array<Promise<void>> = [];
  private failure: { error: unknown } | undefined;

  constructor(private readonly client: pg.PoolClient) {}

  private get stream(): Corkable {
    return (this.client as unknown as { connection: { stream: Corkable } }).connection.stream;
  }

  private send<R extends pg.QueryResultRow>(
    statement: Statement,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    if (!this.holding) {
      this.holding = true;
      const stream = this.stream;
      stream.cork();
      process.nextTick(() => {
        this.holding = false;
        stream.uncork();
      });
    }
    return typeof statement === 'string'
      ? this.client.query<R>(statement, values)
      : this.client.query<R>({ ...statement, values: values ?? statement.values });
  }

  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    statement: Statement,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    // After a deferred statement failed, later ones fail as "transaction aborted": report the cause.
    return this.send<R>(statement, values).catch((error: unknown) => {
      throw this.cause(error);
    });
  }

  /** The first failure in the transaction explains the "transaction aborted" errors after it. */
  private cause(error: unknown): unknown {
    const failure = this.failure;
    return failure && (error === failure.error || sqlState(error) === TRANSACTION_ABORTED)
      ? failure.error
      : error;
  }

  private sendDeferred(statement: Statement, values?: unknown[]): void {
    this.deferred.push(
      this.send(statement, values).then(
        () => undefined,
        (error: unknown) => {
          this.failure ??= { error };
        },
      ),
    );
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>, lazy = false): Promise<T> {
    this.failure = undefined;
    this.deferred = [];
    this.sendDeferred(lazy ? 'BEGIN; SET LOCAL synchronous_commit TO off' : 'BEGIN');
    // Deferring only exists inside the transaction, where COMMIT reports a deferred failure.
    const tx: Transaction = {
      query: (statement, values) => this.query(statement, values),
      defer: (statement, values) => this.sendDeferred(statement, values),
      rollbackTo: async (savepoint) => {
        await this.query(`ROLLBACK TO SAVEPOINT ${savepoint}`);
        // Every statement sent before it has answered by now; whatever failed was inside the savepoint.
        await Promise.all(this.deferred);
        this.failure = undefined;
      },
    };
    try {
      const result = await work(tx);
      const commit = this.send('COMMIT');
      const [committed] = await Promise.all([commit, ...this.deferred]);
      const failure = this.failure as { error: unknown } | undefined;
      if (failure) throw failure.error;
      // COMMIT of a transaction that failed is answered ROLLBACK; the failure above says why.
      if (committed.command !== 'COMMIT') throw new Error(`transaction ended with ${committed.command}`);
      return result;
    } catch (error) {
      await this.send('ROLLBACK').catch(() => undefined);
      await Promise.all(this.deferred);
      throw this.cause(error);
    } finally {
      this.deferred = [];
      this.failure = undefined;
    }
  }
}

const sqlState = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

export interface DatabaseOptions {
  /** PostgreSQL connection string; without it an embedded PGlite is used. */
  url?: string | undefined;
  /** Directory for the embedded database; `memory://` keeps it in memory. */
  dataDir: string;
  /** Embedded only: a dump (`PGlite.dumpDataDir`) to start from instead of an empty database. */
  embeddedTemplate?: Blob | undefined;
  poolMax: number;
  /** PostgreSQL only: the longest statement; the client gives up half a second later. */
  statementTimeoutMs?: number;
  /** PostgreSQL only: how long a session may sit in an open transaction before PostgreSQL ends it. */
  idleInTransactionTimeoutMs?: number;
  /** Where a lost connection is reported. */
  logger?: Logger | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const embedded = options.url ? undefined : await openEmbedded(options.dataDir, options.embeddedTemplate);
  const connectionString = options.url;
  // One session underneath the embedded database: statements from two connections interleave in
  // it (an unnamed statement parsed on one is bound on the other), so all queries share one
  // connection, and nothing waits on a second client inside a transaction.
  const poolMax = embedded ? 1 : options.poolMax;
  const statementTimeoutMs = options.statementTimeoutMs ?? 3_500;
  const pool = new pg.Pool({
    ...(embedded ? embedded.connection : { connectionString }),
    // Statements sent without waiting for the previous answer (see PipelinedConnection).
    pipeline: true,
    max: poolMax,
    // Embedded mode queues every query behind one connection: allow a longer wait there.
    connectionTimeoutMillis: embedded ? 15_000 : 3_000,
    idleTimeoutMillis: 30_000,
    // A saturated, stuck or unreachable database must fail fast into a 503, never hang a request:
    // the database cancels a statement first; the client gives up on a silent connection after it.
    statement_timeout: embedded ? 10_000 : statementTimeoutMs,
    query_timeout: embedded ? 12_000 : statementTimeoutMs + 500,
    // A session left in a transaction (its server process gone, or cut off half-open) is ended by
    // PostgreSQL, releasing its row locks. The embedded database has one in-process session: not there.
    ...(embedded ? {} : { idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? 5_000 }),
  });
  const connectionLost = (error: Error) => options.logger?.warn({ err: error }, 'database connection lost');
  pool.on('error', connectionLost);
  if (embedded) {
    // The embedded database keeps one session under every connection, with the named statements
    // of connections gone before; a new connection starts by forgetting them, or its first
    // named statement would collide ("prepared statement already exists").
    pool.on('connect', (client) => {
      client.query('DEALLOCATE ALL').catch(() => undefined);
    });
  }

  const withConnection = async <T>(work: (connection: PipelinedConnection) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    // A connection dropped between statements emits 'error' on the checked-out client;
    // unheard, it would end the process. The next statement fails and is answered with a 503.
    let broken: Error | undefined;
    const onError = (error: Error) => {
      broken = error;
      connectionLost(error);
    };
    client.on('error', onError);
    try {
      return await work(new PipelinedConnection(client));
    } catch (error) {
      // A statement the client gave up on may still be answered later: the connection goes.
      if (error instanceof Error && /Query read timeout/.test(error.message)) broken ??= error;
      throw error;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  };

  const database: Database = {
    kind: embedded ? 'pglite' : 'postgres',
    pool,
    transaction: (work) => withConnection((connection) => connection.transaction(work)),
    lazyTransaction: (work) => withConnection((connection) => connection.transaction(work, true)),
    connection: withConnection,
    async unhurried(work) {
      // The embedded database has one session, reached through the pool.
      if (embedded) {
        const pooled = await pool.connect();
        const onError = () => undefined; // the next statement fails and reports it
        pooled.on('error', onError);
        try {
          return await work(pooled);
        } finally {
          pooled.off('error', onError);
          pooled.release();
        }
      }
      const client = new pg.Client({ connectionString });
      client.on('error', () => undefined); // the next statement fails and reports it
      try {
        await client.connect();
        return await work(client);
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async close() {
      await pool.end();
      await embedded?.close();
    },
  };
  return database;
}

/**
 * Migrations renamed after they may have run (each had shared its timestamp
 * with another): the name `pgmigrations` recorded, and the file's name now.
 * Each keeps its place in the order, so recording the new name is all an
 * existing database needs: the migration is not run again, and the runner's
 * order check passes.
 */
const RENAMED_MIGRATIONS: ReadonlyArray<readonly [recorded: string, now: string]> = [
  ['20261126100000_sandbox_settle_at', '20261126100100_sandbox_settle_at'],
  ['20261129010000_shift_no_sales', '20261129010100_shift_no_sales'],
];

/** Records renamed migrations under their new names, where the database has run them. */
async function recordRenamedMigrations(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ found: string | null }>(
    `SELECT to_regclass('pgmigrations')::text AS found`,
  );
  if (!rows[0]?.found) return;
  await client.query(
    `UPDATE pgmigrations SET name = renamed.now
     FROM unnest($1::text[], $2::text[]) AS renamed(recorded, now)
     WHERE pgmigrations.name = renamed.recorded`,
    [RENAMED_MIGRATIONS.map(([recorded]) => recorded), RENAMED_MIGRATIONS.map(([, now]) => now)],
  );
}

/** Applies pending forward-only migrations (node-pg-migrate, SQL files). */
export async function migrate(database: Database, options: { upTo?: string } = {}): Promise<void> {
  // Stopping after a named migration serves tests of one migration's move of existing data.
  const count = options.upTo
    ? (await readdir(migrationsDir))
        .filter((name) => name.endsWith('.sql'))
        .sort()
        .indexOf(`${options.upTo}.sql`) + 1
    : undefined;
  if (count === 0) throw new Error(`no migration ${options.upTo}`);
  await database.unhurried(async (client) => {
    await recordRenamedMigrations(client);
    return runner({
      ...(count ? { count } : {}),
      dbClient: client,
      dir: migrationsDir,
      direction: 'up',
      migrationsTable: 'pgmigrations',
      checkOrder: true,
      log: () => undefined,
      // Advisory locks are per session; the embedded database has one session for all clients.
      noLock: database.kind === 'pglite',
      // Processes starting together queue behind the first one's migrations instead of failing.
      advisoryLockMode: 'wait',
    });
  });
}
