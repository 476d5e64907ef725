import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, write, type Database } from '../../apps/server/src/db/database.ts';

// The same query layer on both databases: PostgreSQL when the run has one, embedded PGlite otherwise.
let database: Database;

beforeAll(async () => {
  database = await openDatabase({ url: process.env.TEST_DATABASE_URL, dataDir: 'memory://', poolMax: 4 });
  await migrate(database);
  await database.pool.query(
    `CREATE TABLE IF NOT EXISTS pipeline_probe (id text PRIMARY KEY, n integer NOT NULL CHECK (n >= 0))`,
  );
});
afterAll(async () => {
  await database.pool.query('DROP TABLE IF EXISTS pipeline_probe');
  await database.close();
});

const rows = async (prefix: string) =>
  (
    await database.pool.query<{ id: string }>(`SELECT id FROM pipeline_probe WHERE id LIKE $1 ORDER BY id`, [
      `${prefix}%`,
    ])
  ).rows.map((r) => r.id);

describe('named statements', () => {
  it('still work on a connection that replaced a dropped one', async () => {
    const named = { name: 'probe_insert', text: 'INSERT INTO pipeline_probe VALUES ($1, 1)' };
    await database.transaction((tx) => Promise.resolve(tx.defer(named, ['n1'])));
    // Drop every pooled connection: the next one is new (on the embedded database, over the same session).
    for (let i = 0; i < 4; i++) {
      const client = await database.pool.connect();
      client.release(true);
    }
    await database.transaction((tx) => Promise.resolve(tx.defer(named, ['n2'])));
    expect(await rows('n')).toEqual(['n1', 'n2']);
  });
});

describe('transactions with deferred statements', () => {
  it('commits deferred statements with the transaction, in order', async () => {
    const seen = await database.transaction(async (tx) => {
      tx.defer(`INSERT INTO pipeline_probe VALUES ('a1', 1)`);
      tx.defer(`UPDATE pipeline_probe SET n = n + 1 WHERE id = 'a1'`);
      // A read after deferred writes sees them: they were sent first.
      return (await tx.query<{ n: number }>(`SELECT n FROM pipeline_probe WHERE id = 'a1'`)).rows[0]!.n;
    });
    expect(seen).toBe(2);
    expect(await rows('a')).toEqual(['a1']);
  });

  it('fails the commit with the error of a failed deferred statement and keeps nothing', async () => {
    await expect(
      database.transaction((tx) => {
        tx.defer(`INSERT INTO pipeline_probe VALUES ('b1', 1)`);
        tx.defer(`INSERT INTO pipeline_probe VALUES ('b2', -1)`); // breaks the CHECK
        tx.defer(`INSERT INTO pipeline_probe VALUES ('b3', 1)`);
        return Promise.resolve();
      }),
    ).rejects.toMatchObject({ code: '23514' });
    expect(await rows('b')).toEqual([]);
  });

  it('reports the failed deferred statement, not "transaction aborted", to a read after it', async () => {
    await expect(
      database.transaction(async (tx) => {
        tx.defer(`INSERT INTO pipeline_probe VALUES ('c1', -5)`);
        await tx.query('SELECT 1');
      }),
    ).rejects.toMatchObject({ code: '23514' });
    expect(await rows('c')).toEqual([]);
  });

  it('rolls back deferred statements when the work throws', async () => {
    await expect(
      database.transaction(async (tx) => {
        tx.defer(`INSERT INTO pipeline_probe VALUES ('d1', 1)`);
        await tx.query('SELECT 1');
        throw new Error('refused by a rule');
      }),
    ).rejects.toThrow('refused by a rule');
    expect(await rows('d')).toEqual([]);
  });

  it('leaves the connection usable after each outcome', async () => {
    for (let i = 0; i < 5; i++) {
      const insert = (id: string, n: number) =>
        database.transaction((tx) =>
          Promise.resolve(tx.defer(`INSERT INTO pipeline_probe VALUES ($1, $2)`, [id, n])),
        );
      await insert(`e${i}`, 1);
      await insert(`f${i}`, -1).catch(() => undefined);
    }
    expect(await rows('e')).toHaveLength(5);
    expect(await rows('f')).toEqual([]);
    expect((await database.pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
  });

  it('runs a write at once outside a transaction, and reports its failure there', async () => {
    await database.connection(async (connection) => {
      await expect(
        write(connection, `INSERT INTO pipeline_probe VALUES ('h1', -1)`, []),
      ).rejects.toMatchObject({
        code: '23514',
      });
      await write(connection, `INSERT INTO pipeline_probe VALUES ('h2', 1)`, []);
    });
    expect(await rows('h')).toEqual(['h2']);
  });

  it('sends the statements of one turn of the event loop in one write', async () => {
    type Socket = { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
    const writes = await database.connection(async (connection) => {
      const socket = (connection as unknown as { client: { connection: { stream: Socket } } }).client
        .connection.stream;
      const { _write, _writev } = socket;
      let count = 0;
      socket._write = (...args: unknown[]) => {
        count++;
        _write.apply(socket, args);
      };
      socket._writev = (...args: unknown[]) => {
        count++;
        _writev.apply(socket, args);
      };
      try {
        await connection.transaction((tx) => {
          tx.defer(`INSERT INTO pipeline_probe VALUES ('g1', 1)`);
          tx.defer(`INSERT INTO pipeline_probe VALUES ('g2', 1)`);
          return Promise.resolve();
        });
      } finally {
        Object.assign(socket, { _write, _writev });
      }
      return count;
    });
    expect(await rows('g')).toEqual(['g1', 'g2']);
    // BEGIN, both inserts and COMMIT: one write to the socket, one round trip.
    expect(writes).toBe(1);
  });
});
