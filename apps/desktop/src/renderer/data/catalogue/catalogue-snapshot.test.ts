import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { PullDocument, PullResult } from '@tz/core';
import { findByBarcode } from './catalogue.ts';
import { CatalogueIndex } from './catalogue-index.ts';
import { CatalogueSnapshot, SNAPSHOT_KEY, encodeSnapshot, keysIn } from './catalogue-snapshot.ts';
import type { SnapshotValue } from './catalogue-snapshot.ts';
import type { Context } from '../store/context.ts';
import { openDatabase } from '../store/database.ts';
import type { TillDatabase } from '../store/database.ts';
import { Kv } from '../store/kv.ts';
import { CollectionPull } from '../sync/pull.ts';
import { makeProduct, settle, storeCatalogue } from '../../../../test/till-data.ts';

let db: TillDatabase | null = null;
const opened: CatalogueIndex[] = [];
afterEach(async () => {
  for (const index of opened.splice(0)) index.stop();
  await db?.close();
  db = null;
});

const product = (n: number, barcodes: string[], overrides: Partial<PullDocument<'products'>> = {}) =>
  makeProduct({ id: `prod_${n}`, name: `Product ${n}`, sku: `SKU-${n}`, barcodes, ...overrides });

const variant = (id: string, parent: string, barcodes: string[]): PullDocument<'variants'> => ({
  id,
  _deleted: false,
  product: parent,
  name: 'Kubwa',
  sku: null,
  barcodes,
  price: 6000,
  active: true,
});

/** The till as opened: a snapshot read at open and an index not built yet (built only when asked). */
function open(database: TillDatabase, isWriter = true) {
  const snapshot = new CatalogueSnapshot({
    kv: database.kv,
    products: database.products,
    variants: database.variants,
    isWriter: () => isWriter,
    saveAfterMs: 0,
  });
  const index = new CatalogueIndex({ products: database.products, variants: database.variants }, snapshot);
  index.follow();
  opened.push(index);
  const ctx = { db: database, kv: new Kv(database.kv), catalogue: index } as unknown as Context;
  return { snapshot, index, ctx };
}

const storedSnapshot = async (database: TillDatabase) =>
  ((await database.kv.findOne(SNAPSHOT_KEY).exec())?.toJSON().value ?? null) as SnapshotValue | null;

/** A till that was built and saved its snapshot, then "reloaded": a second index over the same storage. */
async function reloadedTill() {
  db = await openDatabase({ name: `snap${Date.now()}`, storage: getRxStorageMemory(), multiInstance: false });
  await storeCatalogue(db.products, [
    product(1, ['6200000000001']),
    product(2, ['6200000000002']),
    product(3, ['6200000000003']),
    product(4, ['6200000000004']),
    product(5, ['6200000000005'], { active: false }),
  ]);
  await storeCatalogue(db.variants, [variant('var_3', 'prod_3', ['6200000000033'])]);
  const first = open(db);
  await first.index.build();
  await settle(async () => expect(await storedSnapshot(db!)).not.toBeNull());
  first.index.stop();
  return open(db);
}

describe('the catalogue snapshot', () => {
  it('encodes the barcode map as lines and finds a barcode by its exact line', () => {
    const value = encodeSnapshot(7, {
      barcodes: new Map<string, string | string[]>([
        ['620123', 'p:prod_1'],
        ['6201234', ['p:prod_2', 'v:var_2']],
        ['bad\tcode', 'p:prod_3'],
        // Not on a stored page (yet): left out, the scan waits for the catalogue.
        ['620999', 'p:prod_9'],
      ]),
      variantsOf: new Map([
        ['prod_2', new Set(['var_2'])],
        ['prod_4', new Set<string>()],
      ]),
      pageOf: new Map([
        ['p:prod_1', 'pg1'],
        ['p:prod_2', 'pg1'],
        ['p:prod_3', 'pg2'],
        ['v:var_2', 'pv1'],
      ]),
      parentOf: (id) => (id === 'var_2' ? 'prod_2' : undefined),
    });
    expect(value.generation).toBe(7);
    expect(keysIn(value, '620123')).toEqual(['p:prod_1@0']);
    expect(keysIn(value, '6201234')).toEqual(['p:prod_2@0', 'v:var_2@1@0']);
    expect(value.pages).toEqual(['pg1', 'pv1']);
    expect(keysIn(value, '620999')).toBeNull();
    // A prefix of a barcode is not the barcode.
    expect(keysIn(value, '62012')).toBeNull();
    expect(keysIn(value, 'bad\tcode')).toBeNull();
    expect(value.withVariants).toBe('\nprod_2\n');
  });

  it('answers a scan after a reload before the catalogue is read, from the documents as stored', async () => {
    const { index, ctx } = await reloadedTill();
    const item = await findByBarcode(ctx, '6200000000001');
    expect(item).toMatchObject({ productId: 'prod_1', variantId: null, hasVariants: false });
    // A variant's barcode gives the variant, and its product knows it has variants.
    expect(await findByBarcode(ctx, '6200000000033')).toMatchObject({
      productId: 'prod_3',
      variantId: 'var_3',
    });
    expect((await index.early('6200000000003'))?.products[0]).toMatchObject({ hasVariants: true });
    expect(await findByBarcode(ctx, '6200000000003')).toMatchObject({
      productId: 'prod_3',
      hasVariants: true,
    });
    // An inactive product is not sold, from the snapshot either.
    expect(await index.early('6200000000005')).toBeDefined();
    expect(await findByBarcode(ctx, '6200000000005')).toBeNull();
    // None of that read the catalogue into memory.
    expect(index.isBuilt()).toBe(false);
  });

  it('never answers for a document changed behind it: a barcode moved, a product deleted, one added', async () => {
    const { index, ctx } = await reloadedTill();
    // Written straight to storage (no pull, no event this index sees), as if the snapshot were older.
    const storage = db!.products.storageInstance;
    const [page] = (await storage.query(db!.products.find().getPreparedQuery())).documents;
    const items = (page!.items as Array<{ id: string }>).map((item) =>
      item.id === 'prod_1'
        ? { ...item, barcodes: [] }
        : item.id === 'prod_4'
          ? { ...item, _deleted: true }
          : item,
    );
    await storage.bulkWrite(
      [{ previous: page!, document: { ...page!, items, _meta: { lwt: Date.now() + 1 } } }],
      'test',
    );
    // A till opened now reads the same snapshot, but the page it names no longer holds those two so:
    // no answer for them. One untouched on the same page still answers.
    const later = open(db!, false);
    expect(await later.index.early('6200000000001')).toBeUndefined();
    expect(await later.index.early('6200000000004')).toBeUndefined();
    expect((await later.index.early('6200000000002'))?.products.map((found) => found.product.id)).toEqual([
      'prod_2',
    ]);
    await storeCatalogue(db!.products, [product(6, ['6200000000001']), product(7, ['6200000000077'])]);
    // The snapshot cannot answer for any of them...
    expect(await index.early('6200000000001')).toBeUndefined();
    expect(await index.early('6200000000004')).toBeUndefined();
    expect(await index.early('6200000000077')).toBeUndefined();
    expect(index.isBuilt()).toBe(false);
    // ...so the scans wait for the catalogue and get what is stored now.
    expect(await findByBarcode(ctx, '6200000000001')).toMatchObject({ productId: 'prod_6' });
    expect(await findByBarcode(ctx, '6200000000004')).toBeNull();
    expect(await findByBarcode(ctx, '6200000000077')).toMatchObject({ productId: 'prod_7' });
    expect(index.isBuilt()).toBe(true);
  });

  it('is not used once a pull wrote products, even for a barcode whose documents all still carry it', async () => {
    const { index, ctx } = await reloadedTill();
    // The server gave prod_2's barcode to a new variant of it: the variant must win over the product.
    const pull = (documents: Array<Record<string, unknown>>) =>
      new CollectionPull({
        collection: 'variants',
        target: db!.variants,
        kv: ctx.kv,
        pairing: 'p1',
        pageSize: 100,
        fetch: () => Promise.resolve({ documents, checkpoint: { seq: 1, id: 'x' } } as PullResult),
        writes: index.snapshot!,
      });
    await pull([variant('var_2', 'prod_2', ['6200000000002'])]).run();
    expect(await index.early('6200000000002')).toBeUndefined();
    expect(await findByBarcode(ctx, '6200000000002')).toMatchObject({
      productId: 'prod_2',
      variantId: 'var_2',
    });

    // A till opened after that write but before a new snapshot was saved does not use the old one either.
    const before = await storedSnapshot(db!);
    const again = open(db!, false);
    expect(await again.index.early('6200000000001')).toBeUndefined();
    // Once the built till saved a new one, a reload answers from it again, with the variant.
    await settle(async () => expect((await storedSnapshot(db!))?.generation).not.toBe(before?.generation));
    const fresh = open(db!);
    expect(await fresh.index.early('6200000000002')).toMatchObject({
      variants: [{ variant: { id: 'var_2' } }],
      products: [{ product: { id: 'prod_2' }, hasVariants: true }],
    });
    expect(await findByBarcode(fresh.ctx, '6200000000002')).toMatchObject({ variantId: 'var_2' });
  });

  it('does not use a snapshot saved before it named pages by place', async () => {
    await reloadedTill();
    const saved = (await storedSnapshot(db!))!;
    expect(await open(db!, false).index.early('6200000000001')).toBeDefined();
    const { pages: _pages, ...older } = saved;
    await db!.kv.upsert({ id: SNAPSHOT_KEY, value: older });
    expect(await open(db!, false).index.early('6200000000001')).toBeUndefined();
  });

  it('forgets the snapshot read at open when a product changes in another tab', async () => {
    const { index } = await reloadedTill();
    expect(await index.early('6200000000002')).toBeDefined();
    // An event this index sees, as a write by another tab arrives.
    await storeCatalogue(db!.products, [product(8, ['6200000000088'])]);
    expect(await index.early('6200000000002')).toBeUndefined();
  });
});
