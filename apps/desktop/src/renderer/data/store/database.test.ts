import { createRxDatabase, getAllCollectionDocuments } from 'rxdb';
import type { RxCollection, RxJsonSchema } from 'rxdb';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { TillStore } from '../api.ts';
import { openDatabase } from './database.ts';
import type { TillCollections } from './database.ts';
import { PULLED_SCHEMAS, commandSchema, kvSchema } from './schema.ts';
import type { CommandDoc } from './schema.ts';
import {
  FakeBridge,
  PAIRING,
  STORE,
  makeCommand,
  makeProduct,
  reopenTestTill,
  settle,
  storeCatalogue,
} from '../../../../test/till-data.ts';

const key = { type: 'string', maxLength: 128 } as const;

/** Products and variants as version 1 stored them: a record per document. */
const versionOne = (extra: Record<string, unknown>): RxJsonSchema<Record<string, unknown>> => ({
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: { id: key, ...extra },
  required: ['id'],
  indexes: [],
});

/** The collections the version before held: categories on their own, the front desk's not at all. */
const OLD: Record<string, RxJsonSchema<Record<string, unknown>>> = {
  ...Object.fromEntries(Object.entries(PULLED_SCHEMAS).filter(([name]) => name !== 'records')),
  products: versionOne({ active: { type: 'boolean' } }),
  variants: versionOne({ product: key }),
  categories: { ...versionOne({}), version: 0 },
};

const pending: CommandDoc = makeCommand();

let store: TillStore | null = null;
afterEach(async () => {
  await store?.close();
  store = null;
});

/** A paired till's database as the version before stored it, with an unsynced sale. */
async function oldTill(name: string, storage: ReturnType<typeof getRxStorageMemory>) {
  const db = await createRxDatabase<TillCollections>({ name, storage, multiInstance: false });
  await db.addCollections({
    ...Object.fromEntries(Object.entries(OLD).map(([c, schema]) => [c, { schema, autoMigrate: false }])),
    commands: { schema: commandSchema },
    kv: { schema: kvSchema },
  });
  const old = makeProduct({ id: 'prod_old', name: 'Sukari ya zamani', barcodes: ['6200000000001'] });
  await db.products.insert(old);
  await (db.collections as unknown as Record<string, RxCollection>)['categories']!.insert({
    id: 'cat_old',
    name: 'Vyakula',
    _deleted: false,
  });
  await db.stores.insert(STORE);
  await db.commands.insert(pending);
  const till = {
    id: PAIRING.till.id,
    name: PAIRING.till.name,
    store: PAIRING.till.store,
    receiptPrefix: PAIRING.till.receipt_prefix,
    merchant: { id: PAIRING.merchant.id, businessName: PAIRING.merchant.business_name },
    livemode: false,
  };
  await db.kv.bulkInsert([
    { id: 'device', value: { till, pairing: 'pairing_1', revoked: false } },
    { id: 'credential', value: PAIRING.credential },
    { id: 'pull:products', value: { pairing: 'pairing_1', checkpoint: { seq: 1, id: 'prod_old' } } },
    { id: 'pull:stores', value: { pairing: 'pairing_1', checkpoint: { seq: 1, id: STORE.id } } },
    { id: 'pull:categories', value: { pairing: 'pairing_1', checkpoint: { seq: 1, id: 'cat_old' } } },
  ]);
  await db.close();
}

describe('a database made by the version before', () => {
  it('opens with the new schemas, keeps commands and kv, and drops only the changed collections', async () => {
    const storage = getRxStorageMemory();
    const name = `upgrade${Date.now()}`;
    await oldTill(name, storage);
    const db = await openDatabase({ name, storage, multiInstance: false });
    try {
      expect((await db.commands.find().exec()).map((doc) => doc.toJSON())).toEqual([pending]);
      expect(await db.kv.findOne('pull:products').exec()).toBeNull();
      expect(await db.kv.findOne('pull:categories').exec()).toBeNull();
      expect((await db.kv.findOne('pull:stores').exec())?.toJSON().value).toMatchObject({
        pairing: 'pairing_1',
      });
      expect((await db.kv.findOne('device').exec())?.toJSON().value).toMatchObject({ revoked: false });
      expect(await db.products.count().exec()).toBe(0);
      expect(await db.stores.count().exec()).toBe(1);
      const stored = await getAllCollectionDocuments(db.internalStore);
      expect(
        stored
          .filter((doc) => doc.data.name === 'products' || doc.data.name === 'variants')
          .map((doc) => doc.key)
          .sort(),
      ).toEqual(['products-2', 'variants-2']);
      // Categories live in `records` now; their own collection is gone from storage.
      expect(stored.some((doc) => doc.data.name === 'categories')).toBe(false);
      expect(Object.keys(db.collections).sort()).toEqual([
        'commands',
        'customers',
        'employees',
        'kv',
        'orders',
        'print_jobs',
        'printers',
        'products',
        'records',
        'shifts',
        'stock_levels',
        'stores',
        'variants',
      ]);
      expect(await db.records.count().exec()).toBe(0);
    } finally {
      await db.close();
    }
    // Opened again: nothing more is dropped.
    const again = await openDatabase({ name, storage, multiInstance: false });
    await storeCatalogue(again.products, [makeProduct({ id: 'prod_new' })]);
    await again.close();
    const third = await openDatabase({ name, storage, multiInstance: false });
    expect(await third.products.count().exec()).toBe(1);
    expect(await third.commands.count().exec()).toBe(1);
    await third.close();
  }, 30_000);

  it('pulls the catalogue again from the start, finds it from memory, and still pushes the unsynced sale', async () => {
    const storage = getRxStorageMemory();
    const name = `resync${Date.now()}`;
    await oldTill(name, storage);
    const fresh = makeProduct({ id: 'prod_fresh', name: 'Unga wa sembe', barcodes: ['6200000000002'] });
    const reopened = await reopenTestTill({ products: [fresh] }, { storage, name, bridge: new FakeBridge() });
    store = reopened.store;
    const { transport } = reopened;
    await settle(async () =>
      expect((await store!.findByBarcode('6200000000002'))?.productId).toBe('prod_fresh'),
    );
    expect((await store.search('unga')).map((item) => item.productId)).toEqual(['prod_fresh']);
    // The old copy is gone with its store; the server's catalogue is what the till has.
    expect(await store.findByBarcode('6200000000001')).toBeNull();
    const products = transport.pulls.filter((pull) => pull.collection === 'products');
    expect(products[0]?.checkpoint).toBeNull();
    // Categories, retired as a collection of their own, are pulled again from the start into `records`.
    expect(transport.pulls.find((pull) => pull.collection === 'categories')?.checkpoint).toBeNull();
    // Other collections go on from where they were.
    expect(transport.pulls.find((pull) => pull.collection === 'stores')?.checkpoint).toEqual({
      seq: 1,
      id: STORE.id,
    });
    await settle(() =>
      expect(transport.pushes.flat().map((command) => command.id)).toContain(
        'cmd_01JAAAAAAAAAAAAAAAAAAAAAAA',
      ),
    );
  }, 30_000);
});

describe('a database that kept a record per ticket', () => {
  it('drops `records` and the checkpoints of its kinds, so tickets are pulled again as pages', async () => {
    const storage = getRxStorageMemory();
    const name = `tickets${Date.now()}`;
    const old = await createRxDatabase<TillCollections>({ name, storage, multiInstance: false });
    await old.addCollections({
      ...Object.fromEntries(
        Object.entries(PULLED_SCHEMAS).map(([c, schema]) => [
          c,
          { schema: c === 'records' ? { ...schema, version: 0 } : schema, autoMigrate: false },
        ]),
      ),
      commands: { schema: commandSchema },
      kv: { schema: kvSchema },
    });
    await old.records.insert({ id: 'tkt_old', kind: 'tickets', status: 'valid', code: 'x' });
    await old.stores.insert(STORE);
    await old.kv.bulkInsert([
      { id: 'pull:tickets', value: { pairing: 'pairing_1', checkpoint: { seq: 9, id: 'tkt_old' } } },
      { id: 'pull:stores', value: { pairing: 'pairing_1', checkpoint: { seq: 1, id: STORE.id } } },
    ]);
    await old.close();

    const db = await openDatabase({ name, storage, multiInstance: false });
    try {
      expect(await db.records.count().exec()).toBe(0);
      expect(await db.kv.findOne('pull:tickets').exec()).toBeNull();
      expect(await db.kv.findOne('pull:stores').exec()).not.toBeNull();
      expect(await db.stores.count().exec()).toBe(1);
    } finally {
      await db.close();
    }
  });
});
