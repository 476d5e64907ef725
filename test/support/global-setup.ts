import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { migrate, openDatabase } from '../../apps/server/src/db/database.ts';

/**
 * With DATABASE_URL, each test run gets a database of its own, created and
 * migrated here and dropped at the end, so concurrent runs never see each
 * other's data. Without it, each server test starts an embedded PGlite of its
 * own from one migrated here (creating and migrating one costs seconds).
 */
export default async function setup(): Promise<() => Promise<void>> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) return embeddedTemplate();
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

/** A migrated embedded database, dumped to a file named by TEST_PGLITE_TEMPLATE (see support/server.ts). */
async function embeddedTemplate(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tz-pglite-template-'));
  const dataDir = path.join(dir, 'data');
  // Migrated the way a server migrates it, then dumped by PGlite itself.
  const database = await openDatabase({ dataDir, poolMax: 1 });
  await migrate(database);
  await database.close();
  // The server's lock file and socket directory are no part of the database.
  await rm(path.join(dataDir, 'server.lock'), { force: true });
  await rm(path.join(dataDir, 'socket'), { recursive: true, force: true });
  const pglite = await PGlite.create(dataDir);
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const file = path.join(dir, 'migrated.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await rm(dataDir, { recursive: true, force: true });
  process.env.TEST_PGLITE_TEMPLATE = file;
  return () => rm(dir, { recursive: true, force: true });
}
