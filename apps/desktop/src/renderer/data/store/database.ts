/**
 * Opens the till's database: 13 collections (`schema.ts`) on the storage it is given (Dexie
 * in the browser, memory in tests). With `multiInstance`, tabs of the same till
 * share it and elect one leader; only the leader pulls, pushes and prints
 * server jobs. RxDB's dev-mode is never loaded: it fetches a page from the
 * internet.
 *
 * A pulled collection stored under an older schema version is not migrated:
 * the server owns its documents, so its storage is removed and it is pulled
 * again from the start; so is a retired one (`RETIRED_COLLECTIONS`, whose
 * documents are now pulled into `records`). `commands` and `kv` (unsynced
 * sales, the cart, the device) are never touched by this, but for the pull
 * checkpoints of what is removed.
 */
import { addRxPlugin, createRxDatabase, getAllCollectionDocuments, removeCollectionStorages } from 'rxdb';
import type { RxCollection, RxDatabase, RxStorage } from 'rxdb';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { PULL_COLLECTIONS } from '@tz/core';
import { KV } from './kv.ts';
import { PULLED_SCHEMAS, PULL_TARGETS, RETIRED_COLLECTIONS, commandSchema, kvSchema } from './schema.ts';
import type { CommandDoc, KvDoc, PulledStorage } from './schema.ts';

addRxPlugin(RxDBLeaderElectionPlugin);

export type PulledCollections = { [C in PulledStorage]: RxCollection<Record<string, unknown>> };

const STORED = Object.keys(PULLED_SCHEMAS) as PulledStorage[];

export type TillCollections = PulledCollections & {
  commands: RxCollection<CommandDoc>;
  kv: RxCollection<KvDoc>;
};

export type TillDatabase = RxDatabase<TillCollections>;

export async function openDatabase(options: {
  name: string;
  storage: RxStorage<unknown, unknown>;
  multiInstance: boolean;
}): Promise<TillDatabase> {
  const db = await createRxDatabase<TillCollections>({
    name: options.name,
    storage: options.storage,
    multiInstance: options.multiInstance,
    // Queries are answered from the change stream where possible, not re-run.
    eventReduce: true,
    closeDuplicates: true,
  });
  await db.addCollections({ commands: { schema: commandSchema }, kv: { schema: kvSchema } });
  await dropOutdated(db);
  // Nothing to migrate: an older version's storage is gone by now (RxDB's migration would need its plugin).
  const pulled = Object.fromEntries(
    STORED.map((name) => [name, { schema: PULLED_SCHEMAS[name], autoMigrate: false }]),
  );
  await db.addCollections(pulled);
  return db;
}

/**
 * Removes the pulled collections stored under an older schema version, and
 * the retired ones, with the checkpoints of what was pulled into them: they
 * are pulled again.
 */
async function dropOutdated(db: TillDatabase): Promise<string[]> {
  const stored = await getAllCollectionDocuments(db.internalStore);
  const outdated = STORED.filter((name) =>
    stored.some((doc) => doc.data.name === name && doc.data.version < PULLED_SCHEMAS[name].version),
  );
  const retired = RETIRED_COLLECTIONS.filter((name) => stored.some((doc) => doc.data.name === name));
  const removed: string[] = [...outdated, ...retired];
  if (removed.length === 0) return [];
  const pulledInto = PULL_COLLECTIONS.filter(
    (collection) =>
      (outdated as string[]).includes(PULL_TARGETS[collection]) || (retired as string[]).includes(collection),
  );
  // Checkpoints first: a till stopped before the storage is gone finds it again next time and finishes.
  const checkpoints = await db.kv.findByIds(pulledInto.map((name) => KV.pull(name))).exec();
  await db.kv.bulkRemove([...checkpoints.keys()]);
  for (const name of removed) {
    await removeCollectionStorages(
      db.storage,
      db.internalStore,
      db.token,
      db.name,
      name,
      db.multiInstance,
      undefined,
      db.hashFunction,
    );
  }
  return removed;
}
