/**
 * Opens the till's database: 13 collections on the storage it is given (Dexie
 * in the browser, memory in tests). With `multiInstance`, tabs of the same till
 * share it and elect one leader; only the leader pulls, pushes and prints
 * server jobs. RxDB's dev-mode is never loaded: it fetches a page from the
 * internet.
 */
import { addRxPlugin, createRxDatabase } from 'rxdb';
import type { RxCollection, RxDatabase, RxStorage } from 'rxdb';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { PULL_COLLECTIONS } from '@tz/core';
import type { PullCollection } from '@tz/core';
import { PULLED_SCHEMAS, commandSchema, kvSchema } from './schema.ts';
import type { CommandDoc, KvDoc } from './schema.ts';

addRxPlugin(RxDBLeaderElectionPlugin);

export type PulledCollections = { [C in PullCollection]: RxCollection<Record<string, unknown>> };

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
  const pulled = Object.fromEntries(PULL_COLLECTIONS.map((name) => [name, { schema: PULLED_SCHEMAS[name] }]));
  await db.addCollections({
    ...pulled,
    commands: { schema: commandSchema },
    kv: { schema: kvSchema },
  });
  return db;
}
