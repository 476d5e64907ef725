import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { client, signUp, startTestServer } from '../support/server.ts';

/** A fresh, empty database beside the run's, so migrations really run at start. */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const runUrl = process.env.TEST_DATABASE_URL;
  if (!runUrl) return undefined;
  const name = `fresh_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: runUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(runUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: runUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

describe('starting servers', () => {
  it('brings up servers started together on one empty database, each migrating it once', async () => {
    const fresh = await freshDatabase();
    // On the embedded database each server has its own store, created and migrated at its start
    // (not the run's template); on PostgreSQL they share the fresh one.
    const env = fresh ? { DATABASE_URL: fresh.url } : {};
    const start = () => startTestServer(env, { fresh: true });
    const servers = await Promise.all([start(), start(), start()]);
    try {
      for (const server of servers) expect((await client(server.url).get('/healthz')).status).toBe(200);
      const merchant = await signUp(servers[0].url);
      const other = fresh ? servers[2] : servers[0];
      expect((await client(other.url, merchant.keys.secretTest).get('/v1/balance')).status).toBe(200);
      const applied = await servers[0].database.pool.query(
        'SELECT count(*)::int AS n, count(DISTINCT name)::int AS d FROM pgmigrations',
      );
      expect(applied.rows[0].n).toBe(applied.rows[0].d);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      await fresh?.drop();
    }
    // Three embedded databases created in one process share its one thread: seconds each on a
    // busy machine. How long they take is not what this test is about.
  }, 180_000);
});
