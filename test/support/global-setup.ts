import pg from 'pg';
import { migrate, openDatabase } from '../../apps/server/src/db/database.ts';

/**
 * With DATABASE_URL, each test run gets a database of its own, created and
 * migrated here and dropped at the end, so concurrent runs never see each
 * other's data. Without it, each server test starts an embedded PGlite.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) return async () => {};
  const name = `test_run_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  process.env.TEST_DATABASE_URL = url.toString();
  const database = await openDatabase({ url: url.toString(), dataDir: '', poolMax: 2 });
  await migrate(database);
  await database.close();
  return async () => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
}
