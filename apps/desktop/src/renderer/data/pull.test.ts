import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { Checkpoint, PullDocument, PullResult } from '@tz/core';
import { openDatabase } from './database.ts';
import type { TillDatabase } from './database.ts';
import { KV, Kv } from './kv.ts';
import { CollectionPull } from './pull.ts';
import { makeProduct } from './testing.ts';

/** The server's feed: every version of a document in change order, read by keyset like `readChanges`. */
class Feed {
  rows: Array<{ seq: number; doc: PullDocument<'products'> }> = [];
  fetched: Array<Checkpoint | null> = [];
  failAt: number | null = null;
  private seq = 0;

  change(doc: PullDocument<'products'>): void {
    this.rows.push({ seq: ++this.seq, doc });
  }

  page = (checkpoint: Checkpoint | null, limit: number): Promise<PullResult> => {
    this.fetched.push(checkpoint);
    if (this.failAt === this.fetched.length) return Promise.reject(new TypeError('fetch failed'));
    // Only the newest version of a document is in the feed.
    const newest = this.rows.filter(
      (row) => !this.rows.some((r) => r.doc.id === row.doc.id && r.seq > row.seq),
    );
    const after = newest.filter((row) => !checkpoint || row.seq > checkpoint.seq).slice(0, limit);
    const last = after.at(-1);
    return Promise.resolve({
      documents: after.map((row) => structuredClone(row.doc)),
      checkpoint: last ? { seq: last.seq, id: last.doc.id } : checkpoint,
    });
  };
}

const product = (n: number, overrides: Partial<PullDocument<'products'>> = {}) =>
  makeProduct({
    id: `prod_${n}`,
    name: `Product ${n}`,
    sku: `SKU-${n}`,
    barcodes: [`620${n}`],
    ...overrides,
  });

let db: TillDatabase | null = null;
afterEach(async () => {
  await db?.close();
  db = null;
});

async function setUp(pairing = 'pair_1') {
  db = await openDatabase({
    name: `pull${Math.random().toString(36).slice(2, 10)}`,
    storage: getRxStorageMemory(),
    multiInstance: false,
  });
  const kv = new Kv(db.kv);
  const feed = new Feed();
  const puller = (at = pairing) =>
    new CollectionPull({
      collection: 'products',
      target: db!.products,
      kv,
      pairing: at,
      pageSize: 3,
      fetch: feed.page,
    });
  const stored = async () =>
    (await db!.products.find({ sort: [{ id: 'asc' }] }).exec()).map((doc) => doc.toJSON());
  return { kv, feed, puller, stored };
}

describe('pulling a collection', () => {
  it('writes every page, fetching the next while the current one is written, and keeps the checkpoint', async () => {
    const { kv, feed, puller, stored } = await setUp();
    for (let n = 1; n <= 10; n++) feed.change(product(n));
    const checkpointsSeen: unknown[] = [];
    const page = feed.page;
    feed.page = async (checkpoint, limit) => {
      checkpointsSeen.push(
        (await kv.get<{ checkpoint: Checkpoint }>(KV.pull('products')))?.checkpoint ?? null,
      );
      return page(checkpoint, limit);
    };
    await puller().run();

    expect((await stored()).map((doc) => doc.id).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `prod_${i + 1}`).sort(),
    );
    expect(feed.fetched).toEqual([
      null,
      { seq: 3, id: 'prod_3' },
      { seq: 6, id: 'prod_6' },
      { seq: 9, id: 'prod_9' },
    ]);
    // Page 2 was asked for before page 1's checkpoint was saved, i.e. while page 1 was being written.
    expect(checkpointsSeen[1]).toBeNull();
    expect(await kv.get(KV.pull('products'))).toEqual({
      pairing: 'pair_1',
      checkpoint: { seq: 10, id: 'prod_10' },
    });
    // Stored as the server sent it: products carry no search keys (search is answered from memory).
    const prod4 = (await stored()).find((doc) => doc.id === 'prod_4');
    expect(prod4).toMatchObject({ name: 'Product 4', sku: 'SKU-4', barcodes: ['6204'] });
    expect(prod4).not.toHaveProperty('name_key');
  });

  it('writes an edit and a deletion over the stored document, once', async () => {
    const { feed, puller, stored } = await setUp();
    for (let n = 1; n <= 4; n++) feed.change(product(n));
    const pull = puller();
    await pull.run();
    feed.fetched = [];
    feed.change(product(2, { name: 'Sukari 2kg', price: 7000 }));
    feed.change(product(3, { _deleted: true }));
    feed.change(product(5));
    await pull.run();

    expect(feed.fetched).toEqual([
      { seq: 4, id: 'prod_4' },
      { seq: 7, id: 'prod_5' },
    ]);
    const docs = await stored();
    expect(docs.map((doc) => doc.id)).toEqual(['prod_1', 'prod_2', 'prod_4', 'prod_5']);
    expect(docs[1]).toMatchObject({ name: 'Sukari 2kg', price: 7000 });
    expect(await db!.products.count().exec()).toBe(4);
  });

  it('resumes after a failed page from the last page written, skipping and doubling nothing', async () => {
    const { kv, feed, puller, stored } = await setUp();
    for (let n = 1; n <= 10; n++) feed.change(product(n));
    feed.failAt = 3;
    await expect(puller().run()).rejects.toThrow('fetch failed');
    expect(await kv.get(KV.pull('products'))).toEqual({
      pairing: 'pair_1',
      checkpoint: { seq: 6, id: 'prod_6' },
    });
    expect(await stored()).toHaveLength(6);

    feed.failAt = null;
    feed.fetched = [];
    await puller().run();
    expect(feed.fetched[0]).toEqual({ seq: 6, id: 'prod_6' });
    expect((await stored()).map((doc) => doc.id).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `prod_${i + 1}`).sort(),
    );
  });

  it('starts from the beginning under a new pairing', async () => {
    const { feed, puller } = await setUp();
    feed.change(product(1));
    await puller('pair_1').run();
    feed.fetched = [];
    await puller('pair_2').run();
    expect(feed.fetched).toEqual([null]);
  });

  it('goes round again when asked while it pulls, and stops between pages', async () => {
    const { feed, puller, stored } = await setUp();
    for (let n = 1; n <= 3; n++) feed.change(product(n));
    const pull = puller();
    const first = pull.run();
    feed.change(product(4));
    const second = pull.run();
    await Promise.all([first, second]);
    expect(await stored()).toHaveLength(4);

    for (let n = 5; n <= 12; n++) feed.change(product(n));
    const running = pull.run();
    await pull.stop();
    await running;
    const written = (await stored()).length;
    expect(written).toBeLessThan(12);
    await pull.run();
    expect((await stored()).length).toBe(written);
  });
});
