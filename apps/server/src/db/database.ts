import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdir } from 'node:fs/promises';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { runner } from 'node-pg-migrate';

// int8 (counts, sums cast to bigint, amounts) as JS numbers: amounts are bounded
// far below 2^53, so no precision is lost; both modes share this parser.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Queryable = Pick<pg.PoolClient, 'query'>;

export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly pool: pg.Pool;
  /** Runs `work` in one transaction on one client; commits or rolls back. */
  transaction<T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T>;
  /**
   * A transaction whose commit does not wait for the disk. Only for rows whose
   * loss in a crash is harmless or repaired by a later durable commit (the next
   * durable commit flushes them too): idempotency claims, request logs.
   */
  lazyTransaction<T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

export interface DatabaseOptions {
  /** PostgreSQL connection string; without it an embedded PGlite is used. */
  url?: string | undefined;
  /** Directory for the embedded database; `memory://` keeps it in memory. */
  dataDir: string;
  poolMax: number;
  onPoolError?: (error: Error) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let embedded: { pglite: PGlite; socket: PGLiteSocketServer } | undefined;
  let connectionString = options.url;
  let poolMax = options.poolMax;
  if (!connectionString) {
    if (options.dataDir !== 'memory://') await mkdir(options.dataDir, { recursive: true });
    const pglite = await PGlite.create(options.dataDir === 'memory://' ? undefined : options.dataDir);
    // Above 1 connection so pool clients do not reset each other; queries are serialised inside.
    const socket = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 8 });
    await socket.start();
    connectionString = `postgres://postgres@${socket.getServerConn()}/postgres?sslmode=disable`;
    embedded = { pglite, socket };
    // One session underneath: statements from two connections interleave in it
    // (an unnamed statement parsed on one is bound on the other), so all queries
    // share one connection, and nothing waits on a second client inside a transaction.
    poolMax = 1;
  }
  const pool = new pg.Pool({
    connectionString,
    max: poolMax,
    // Embedded mode queues every query behind one connection: allow a longer wait there.
    connectionTimeoutMillis: embedded ? 15_000 : 3_000,
    idleTimeoutMillis: 30_000,
    // A saturated or stuck database must fail fast into a 503, never hang a request.
    statement_timeout: 10_000,
    query_timeout: 12_000,
  });
  pool.on('error', (error) => options.onPoolError?.(error));

  const run = async <T>(work: (tx: pg.PoolClient) => Promise<T>, lazy: boolean): Promise<T> => {
    const client = await pool.connect();
    // A connection dropped between statements emits 'error' on the checked-out client;
    // unheard, it would end the process. The next statement fails and is answered with a 503.
    const onError = (error: Error) => options.onPoolError?.(error);
    client.on('error', onError);
    try {
      await client.query(lazy ? 'BEGIN; SET LOCAL synchronous_commit TO off' : 'BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.off('error', onError);
      client.release();
    }
  };

  const database: Database = {
    kind: embedded ? 'pglite' : 'postgres',
    pool,
    transaction: (work) => run(work, false),
    lazyTransaction: (work) => run(work, true),
    async close() {
      await pool.end();
      if (embedded) {
        await embedded.socket.stop();
        await embedded.pglite.close();
      }
    },
  };
  return database;
}

/** Applies pending forward-only migrations (node-pg-migrate, SQL files). */
export async function migrate(database: Database): Promise<void> {
  const client = await database.pool.connect();
  const onError = () => undefined; // the runner's own query fails and reports it
  client.on('error', onError);
  try {
    await runner({
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
  } finally {
    client.off('error', onError);
    client.release();
  }
}
