import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { Checkpoint, PullDocument, PullResult } from '@tz/core';
import { openDatabase } from '../store/database.ts';
import type { TillDatabase } from '../store/database.ts';
import { compactedKey, readPages, SLACK } from '../catalogue/catalogue-pages.ts';
import type { Stored } from '../catalogue/catalogue-pages.ts';
import { KV, Kv } from '../store/kv.ts';
import { CollectionPull } from './pull.ts';
import { makeProduct } from '../../../../test/till-data.ts';

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
  /** The products as the catalogue's pages give them: each one's last copy, the deleted left out. */
  const stored = async () => {
    const current = new Map<string, Stored>();
    for (const page of await readPages(db!.products, ''))
      for (const item of page.items) current.set(item.id, item);
    return [...current.values()]
      .filter((doc) => doc._deleted !== true)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  };
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
    // One stored page per pulled page, under its checkpoint.
    expect((await readPages(db!.products, '')).map((page) => page.id)).toEqual([
      '0000000000000003:prod_3',
      '0000000000000004:prod_4',
      '0000000000000007:prod_5',
    ]);
  });

  it('compacts the catalogue when live edits have grown it past twice its size, losing no state', async () => {
    const { kv, feed, puller, stored } = await setUp();
    for (let n = 1; n <= 10; n++) feed.change(product(n));
    const pull = puller();
    await pull.run();
    // The first sync left 4 pages: noted as the compacted size.
    expect(await kv.get(KV.cataloguePages('products'))).toBe(4);
    // A live edit a pull: a page each. prod_3 is deleted early on and never edited.
    const edits = 2 * 4 + SLACK + 1 - 4;
    const edited = (edit: number) => [1, 2, 4, 5, 6, 7, 8, 9, 10][edit % 9]!;
    for (let edit = 1; edit <= edits; edit++) {
      feed.change(product(edited(edit), { price: 1000 + edit }));
      if (edit === 7) feed.change(product(3, { _deleted: true }));
      await pull.run();
    }
    const pages = await readPages(db!.products, '');
    expect(pages.map((page) => page.id)).toEqual([`0000000000000048:prod_${edited(edits)}+000000000000`]);
    expect(await kv.get(KV.cataloguePages('products'))).toBe(1);
    // Every product's last state, the deletion kept.
    const expected = new Map<string, number>();
    for (let edit = 1; edit <= edits; edit++) expected.set(`prod_${edited(edit)}`, 1000 + edit);
    const docs = await stored();
    expect(docs.map((doc) => doc.id)).not.toContain('prod_3');
    expect(docs).toHaveLength(9);
    for (const doc of docs) expect(doc.price).toBe(expected.get(doc.id) ?? 3500);
    // The next edit is a page after the compacted ones.
    feed.change(product(5, { name: 'Baadaye' }));
    await pull.run();
    expect((await stored()).find((doc) => doc.id === 'prod_5')).toMatchObject({ name: 'Baadaye' });
  });

  it("keys a compaction's pages after those it replaces and before the next pulled page, at a fixed length", () => {
    const first = compactedKey('0000000000000048:prod_5', 0);
    const again = compactedKey(first, 1);
    expect(first).toBe('0000000000000048:prod_5+000000000000');
    expect(again).toBe('0000000000000048:prod_5+000001000001');
    expect(compactedKey(again, 0)).toHaveLength(again.length);
    const keys = ['0000000000000049:prod_1', again, '0000000000000048:prod_5', first];
    expect([...keys].sort()).toEqual(['0000000000000048:prod_5', first, again, '0000000000000049:prod_1']);
  });

  it('stores the door’s tickets as pages among the records, compacted apart from the other kinds', async () => {
    const { kv, feed } = await setUp();
    await db!.records.insert({ id: 'cat_1', kind: 'categories', name: 'Vinywaji' });
    for (let n = 1; n <= 7; n++) feed.change(product(n));
    const pull = new CollectionPull({
      collection: 'tickets',
      target: db!.records,
      kv,
      pairing: 'pair_1',
      pageSize: 3,
      fetch: feed.page,
    });
    await pull.run();
    const pages = () => readPages(db!.records, '', undefined, 'tickets');
    expect((await pages()).map((page) => [page.id, page.kind, page.items.length])).toEqual([
      ['0000000000000003:prod_3', 'tickets', 3],
      ['0000000000000006:prod_6', 'tickets', 3],
      ['0000000000000007:prod_7', 'tickets', 1],
    ]);
    expect(await kv.get(KV.cataloguePages('tickets'))).toBe(3);
    // A change a pull, a page each, until the log passes twice its size: then one page holds all seven.
    for (let edit = 1; edit <= 2 * 3 + SLACK + 1 - 3; edit++) {
      feed.change(product((edit % 7) + 1, { price: edit }));
      await pull.run();
    }
    const compacted = await pages();
    expect(compacted).toHaveLength(1);
    expect(compacted[0]).toMatchObject({ kind: 'tickets' });
    expect(new Set(compacted[0]!.items.map((item) => item.id)).size).toBe(7);
    expect((await db!.records.findOne('cat_1').exec())?.get('name')).toBe('Vinywaji');
  });

  it('stores the other collections one record per document', async () => {
    const { kv, feed } = await setUp();
    feed.change(product(1));
    feed.change(product(2));
    feed.change(product(1, { _deleted: true }));
    await new CollectionPull({
      collection: 'categories',
      target: db!.records,
      kv,
      pairing: 'pair_1',
      pageSize: 10,
      fetch: feed.page,
    }).run();
    expect((await db!.records.find().exec()).map((doc) => [doc.id, doc.get('kind')])).toEqual([
      ['prod_2', 'categories'],
    ]);
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
