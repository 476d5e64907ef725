import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { migrate, openDatabase } from '../../apps/server/src/db/database.ts';
import { EMBEDDED_EXTENSIONS } from '../../apps/server/src/db/embedded.ts';

/**
 * With DATABASE_URL, each test run gets databases of its own, created and
 * migrated here and dropped at the end, so concurrent runs never see each
 * other's data: one per worker, copied from one migrated here, since the
 * server's background work (webhook dispatch, settlement) takes up the rows of
 * any server on its database with its own settings. Files in one worker run one
 * after another, as the run's files did on one database. Without DATABASE_URL,
 * each server test starts an embedded PGlite of its own from one migrated here
 * (creating and migrating one costs seconds).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The till preview's build, made once by the first file that serves it (support/till-preview.ts).
  const preview = await mkdtemp(path.join(os.tmpdir(), 'tz-till-preview-'));
  process.env.TEST_TILL_PREVIEW_DIR = preview;
  const databases = await databaseSetup(project);
  return async () => {
    await databases();
    await rm(preview, { recursive: true, force: true });
  };
}

async function databaseSetup(project: TestProject): Promise<() => Promise<void>> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) return embeddedTemplate();
  const name = `test_run_${process.pid}_${Date.now().toString(36)}`;
  const url = (database: string) => Object.assign(new URL(baseUrl), { pathname: `/${database}` }).toString();
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  const made: string[] = [];
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    made.push(name);
    const database = await openDatabase({ url: url(name), dataDir: '', poolMax: 2 });
    await migrate(database);
    await database.close();
    const workers =
      project.config.maxWorkers || project.vitest.config.maxWorkers || os.availableParallelism();
    for (let worker = 1; worker <= workers; worker++) {
      await admin.query(`CREATE DATABASE ${name}_w${worker} TEMPLATE ${name}`);
      made.push(`${name}_w${worker}`);
    }
  } finally {
    await admin.end();
  }
  // Worker n's is this one's name with `_w<n>` (support/worker-database.ts).
  process.env.TEST_DATABASES_URL = url(name);
  return async () => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    for (const database of made.reverse())
      await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
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
  const pglite = await PGlite.create(dataDir, { extensions: EMBEDDED_EXTENSIONS });
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const file = path.join(dir, 'migrated.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await rm(dataDir, { recursive: true, force: true });
  process.env.TEST_PGLITE_TEMPLATE = file;
  return () => rm(dir, { recursive: true, force: true });
}
