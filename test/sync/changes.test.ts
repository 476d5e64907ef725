import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import {
  COLLECTION_NAMES,
  collectionTable,
  readChanges,
  type ChangeRow,
  type ChangeScope,
  type Checkpoint,
  type Collection,
} from '../../apps/server/src/sync/changes.ts';
import { client, signUp, startTestServer, until } from '../support/server.ts';
import { makeProduct, sell, type Api } from '../support/retail.ts';

// Real server and database: PostgreSQL when the run has one, embedded PGlite otherwise.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let server: RunningServer;
let api: Api;
let liveApi: Api;
let scope: ChangeScope;

beforeAll(async () => {
  server = await startTestServer();
  const merchant = await signUp(server.url, { business_name: 'Duka la Feed' });
  api = client(server.url, merchant.keys.secretTest);
  liveApi = client(server.url, merchant.keys.secretLive);
  const store = (await api.patch('/v1/retail/store', { name: 'Duka Kuu' })).body;
  scope = {
    merchantId: merchant.id,
    livemode: false,
    storeId: store.id,
    tillId: 'till_none',
    now: new Date(),
  };
});
afterAll(() => server?.close());

const read = (collection: Collection, at: ChangeScope, since: Checkpoint | null, limit: number) =>
  readChanges(server.database.pool, collection, at, since, limit);

interface Pulled {
  rows: ChangeRow[];
  checkpoint: Checkpoint | null;
  pages: number;
}

/**
 * Pulls pages the way a till does until every id in `until` has come (or `timeoutMs`
 * passes). On PostgreSQL the feed holds back rows while older transactions anywhere
 * in the cluster are still open, so "not yet" is normal for a moment.
 */
async function pull(
  collection: Collection,
  at: ChangeScope,
  since: Checkpoint | null,
  limit: number,
  until: readonly string[],
  timeoutMs = 10_000,
): Promise<Pulled> {
  const rows: ChangeRow[] = [];
  let checkpoint = since;
  let pages = 0;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await read(collection, at, checkpoint, limit);
    pages += 1;
    rows.push(...page.rows);
    checkpoint = page.checkpoint;
    if (page.rows.length === limit) continue;
    const seen = new Set(rows.map((row) => row.id));
    if (until.every((id) => seen.has(id))) return { rows, checkpoint, pages };
    if (Date.now() > deadline)
      throw new Error(`feed never brought ${until.filter((id) => !seen.has(id)).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ids = (rows: readonly ChangeRow[]) => rows.map((row) => row.id);
const place = (row: ChangeRow): Checkpoint => ({ seq: row.change_seq, id: row.id });
const before = (a: Checkpoint, b: Checkpoint) => a.seq < b.seq || (a.seq === b.seq && a.id < b.id);

/** Products written in one statement, so they share their transaction's change_seq. */
async function insertProducts(
  count: number,
  prefix: string,
  merchantId = scope.merchantId,
): Promise<string[]> {
  const inserted = await server.database.pool.query<{ id: string }>(
    `INSERT INTO retail_products (id, merchant_id, livemode, name, price, currency, tax_rate, unit, track_stock, active)
     SELECT $1 || lpad(i::text, 4, '0'), $2, false, 'Bulk ' || i, 100 * i, 'TZS', 'standard', 'piece', true, true
     FROM generate_series(1, $3::int) AS i RETURNING id`,
    [`prod_${prefix}`, merchantId, count],
  );
  return ids(inserted.rows as ChangeRow[]);
}

describe('the change feed', () => {
  it('returns every row changed after a checkpoint exactly once across pages, in (change_seq, id) order', async () => {
    const first = await makeProduct(api, { name: 'Kabla' });
    const start = (await pull('products', scope, null, 100, [first.id])).checkpoint;

    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await makeProduct(api, { name: `Moja ${i}` })).id);
    // 17 rows of one transaction share a change_seq: pages must split them by id.
    made.push(...(await insertProducts(17, 'pagesa')));
    for (let i = 0; i < 3; i++) made.push((await makeProduct(api, { name: `Mbili ${i}` })).id);

    const pulled = await pull('products', scope, start, 4, made);
    expect(pulled.pages).toBeGreaterThanOrEqual(Math.ceil(made.length / 4));
    expect(ids(pulled.rows)).toHaveLength(made.length);
    expect(new Set(ids(pulled.rows))).toEqual(new Set(made));
    expect(ids(pulled.rows)).not.toContain(first.id);
    for (let i = 1; i < pulled.rows.length; i++)
      expect(before(place(pulled.rows[i - 1]!), place(pulled.rows[i]!))).toBe(true);
    const bulk = pulled.rows.filter((row) => row.id.startsWith('prod_pagesa'));
    expect(new Set(bulk.map((row) => row.change_seq)).size).toBe(1);
    // Nothing further, and an empty page keeps the checkpoint.
    const rest = await read('products', scope, pulled.checkpoint, 4);
    expect(rest).toEqual({ rows: [], checkpoint: pulled.checkpoint });
  });

  it('returns the columns of its collection with change_seq, id and a deleted flag', async () => {
    const product = await makeProduct(api, {
      name: 'Chai ya Majani',
      price: 1_500,
      barcodes: ['6201234567001'],
    });
    const { rows } = await pull('products', scope, null, 1_000, [product.id]);
    const row = rows.find((r) => r.id === product.id)!;
    expect(row).toMatchObject({
      id: product.id,
      deleted: false,
      name: 'Chai ya Majani',
      price: 1_500,
      barcodes: ['6201234567001'],
      sku: product.sku,
    });
    expect(row.change_seq).toBeGreaterThan(0);
    expect(row).not.toHaveProperty('merchant_id');
    expect(row).not.toHaveProperty('search');
  });

  it('moves an updated row to the end, after rows written before the update', async () => {
    const [a, b, c] = [await makeProduct(api), await makeProduct(api), await makeProduct(api)];
    const caught = await pull('products', scope, null, 1_000, [a.id, b.id, c.id]);
    const cPlace = place(caught.rows.find((row) => row.id === c.id)!);

    expect((await api.patch(`/v1/retail/products/${a.id}`, { price: 9_990 })).status).toBe(200);
    const after = await pull('products', scope, caught.checkpoint, 1_000, [a.id]);
    expect(ids(after.rows)).toEqual([a.id]);
    expect(after.rows[0]).toMatchObject({ price: 9_990, deleted: false });
    expect(before(cPlace, place(after.rows[0]!))).toBe(true);
  });

  it('reports a soft delete as a change with deleted: true', async () => {
    const product = await makeProduct(api, {
      name: 'Juisi',
      variants: [{ name: 'Embe' }, { name: 'Nanasi' }],
    });
    const variant = product.variants[0];
    const products = await pull('products', scope, null, 1_000, [product.id]);
    const variants = await pull('variants', scope, null, 1_000, [variant.id]);

    expect((await api.delete(`/v1/retail/variants/${variant.id}`)).status).toBe(200);
    expect((await api.delete(`/v1/retail/products/${product.id}`)).status).toBe(200);
    const gone = await pull('products', scope, products.checkpoint, 1_000, [product.id]);
    expect(gone.rows).toEqual([expect.objectContaining({ id: product.id, deleted: true, active: false })]);
    const goneVariant = await pull('variants', scope, variants.checkpoint, 1_000, [variant.id]);
    expect(goneVariant.rows.find((row) => row.id === variant.id)).toMatchObject({ deleted: true });
  });

  it('carries a sale made through POST /v1/retail/orders as stock level and order changes', async () => {
    const soap = await makeProduct(api, { name: 'Sabuni', price: 2_000 });
    const rice = await makeProduct(api, { name: 'Mchele', price: 3_000, unit: 'kg' });
    const levels: string[] = [];
    for (const product of [soap, rice]) {
      const counted = await api.post('/v1/retail/stock-adjustments', {
        product: product.id,
        reason: 'count',
        set_on_hand: 50,
      });
      expect(counted.status).toBe(201);
      levels.push(counted.body.id);
    }
    const stock = await pull('stock_levels', scope, null, 1_000, levels);
    const orders = await pull('orders', scope, null, 1_000, []);

    const sale = await sell(api, {
      lines: [
        { product: soap.id, quantity: 2 },
        { product: rice.id, quantity_milli: 1_500 },
      ],
      tenders: [{ method: 'cash', amount: 10_000 }],
      client_order_id: `feed-${soap.id}`,
    });
    expect(sale.status).toBe(201);

    const moved = await pull('stock_levels', scope, stock.checkpoint, 1_000, levels);
    expect(moved.rows).toHaveLength(2);
    const onHand = Object.fromEntries(moved.rows.map((row) => [row.product_id, row.on_hand_milli]));
    expect(onHand).toEqual({ [soap.id]: 48_000, [rice.id]: 48_500 });
    const sold = await pull('orders', scope, orders.checkpoint, 1_000, [sale.body.id]);
    expect(sold.rows).toEqual([
      expect.objectContaining({
        id: sale.body.id,
        store_id: scope.storeId,
        status: 'paid',
        total: 8_500,
        client_order_id: `feed-${soap.id}`,
        deleted: false,
      }),
    ]);
  });

  it('shows a till only its merchant, its mode and its store', async () => {
    // Others' rows are written first; the feed is in write order, so reading up to
    // this scope's own later rows would have met them.
    const other = await signUp(server.url, { business_name: 'Duka Jirani' });
    const otherApi = client(server.url, other.keys.secretTest);
    const otherProduct = await makeProduct(otherApi, { name: 'Ya Jirani' });
    const otherBulk = await insertProducts(3, 'jirani', other.id);
    const liveProduct = await makeProduct(liveApi, { name: 'Ya Kweli' });
    const branch = (await api.post('/v1/retail/stores', { name: 'Tawi la Mwanza' })).body;
    const branchProduct = await makeProduct(api, { name: 'Ya Tawi' });
    const branchLevel = await api.post('/v1/retail/stock-adjustments', {
      store: branch.id,
      product: branchProduct.id,
      reason: 'received',
      adjust_by: 10,
    });
    expect(branchLevel.status).toBe(201);
    const branchSale = await sell(api, {
      store: branch.id,
      lines: [{ product: branchProduct.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 5_000 }],
    });
    expect(branchSale.status).toBe(201);

    const ownProduct = await makeProduct(api, { name: 'Yangu' });
    const ownLevel = await api.post('/v1/retail/stock-adjustments', {
      product: ownProduct.id,
      reason: 'received',
      adjust_by: 3,
    });
    const ownSale = await sell(api, {
      lines: [{ product: ownProduct.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 5_000 }],
    });
    expect(ownSale.status).toBe(201);

    const products = ids(
      (await pull('products', scope, null, 1_000, [ownProduct.id, branchProduct.id])).rows,
    );
    for (const foreign of [otherProduct.id, ...otherBulk, liveProduct.id])
      expect(products).not.toContain(foreign);
    const stock = await pull('stock_levels', scope, null, 1_000, [ownLevel.body.id]);
    expect(ids(stock.rows)).not.toContain(branchLevel.body.id);
    expect(stock.rows.every((row) => row.store_id === scope.storeId)).toBe(true);
    const orders = await pull('orders', scope, null, 1_000, [ownSale.body.id]);
    expect(ids(orders.rows)).not.toContain(branchSale.body.id);
    const stores = await pull('stores', scope, null, 1_000, [scope.storeId]);
    expect(ids(stores.rows)).toEqual([scope.storeId]);

    // Each of those rows is in its own scope's feed.
    const branchScope = { ...scope, storeId: branch.id };
    expect(ids((await pull('stock_levels', branchScope, null, 1_000, [branchLevel.body.id])).rows)).toEqual([
      branchLevel.body.id,
    ]);
    await pull('orders', branchScope, null, 1_000, [branchSale.body.id]);
    await pull('products', { ...scope, livemode: true }, null, 1_000, [liveProduct.id]);
    await pull('products', { ...scope, merchantId: other.id }, null, 1_000, [otherProduct.id, ...otherBulk]);
  });

  it('stamps change_seq with the id of the transaction that wrote the row', async () => {
    const [id] = await insertProducts(1, 'stamp');
    const stamped = await server.database.transaction(async (tx) => {
      const written = await tx.query<{ change_seq: number; xact: number }>(
        `UPDATE retail_products SET price = price + 1 WHERE id = $1
         RETURNING change_seq, pg_current_xact_id()::text::bigint AS xact`,
        [id],
      );
      return written.rows[0]!;
    });
    expect(stamped.change_seq).toBe(stamped.xact);
  });

  it('refuses an unknown collection, a page size out of range, a malformed checkpoint and a read in a transaction', async () => {
    const refusal = async (run: () => Promise<unknown>) => {
      const error = await run().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      return (error as AppError).code;
    };
    expect(await refusal(() => read('payments' as Collection, scope, null, 10))).toBe('parameter_invalid');
    expect(await refusal(() => read('products', scope, null, 0))).toBe('limit_invalid');
    expect(await refusal(() => read('products', scope, null, 1_001))).toBe('limit_invalid');
    expect(await refusal(() => read('products', scope, { seq: -2, id: 'x' }, 10))).toBe('cursor_invalid');
    expect(await refusal(() => read('products', scope, { seq: 1.5, id: 'x' }, 10))).toBe('cursor_invalid');
    await expect(
      server.database.transaction((tx) => readChanges(tx, 'products', scope, null, 10)),
    ).rejects.toThrow(/outside transactions/);
  });

  it('reads only tables that joined the feed in a migration (trigger, change_seq, deleted_at)', async () => {
    for (const collection of COLLECTION_NAMES) {
      const table = collectionTable(collection);
      const found = await server.database.pool.query<{ trigger: boolean; columns: string[] }>(
        `SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = $1::regclass AND tgname = 'change_feed') AS trigger,
           ARRAY(SELECT attname::text FROM pg_attribute WHERE attrelid = $1::regclass AND attname IN ('change_seq', 'deleted_at')
             ORDER BY attname) AS columns`,
        [table],
      );
      expect(found.rows[0], table).toEqual({ trigger: true, columns: ['change_seq', 'deleted_at'] });
    }
  });
});

describe('a transaction that took an earlier change_seq and commits after a later one', () => {
  it.skipIf(!onPostgres)(
    'is not skipped: the feed holds back the later commit until the earlier transaction ends',
    async () => {
      const [early, late] = await insertProducts(2, 'overlap');
      const caught = await pull('products', scope, null, 1_000, [early!, late!]);
      const a = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      const b = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await Promise.all([a.connect(), b.connect()]);
      try {
        // A writes first, so it holds the lower change_seq; B writes after and commits first.
        await a.query('BEGIN');
        await a.query(`UPDATE retail_products SET name = 'A, committed last' WHERE id = $1`, [early]);
        await b.query('BEGIN');
        await b.query(`UPDATE retail_products SET name = 'B, committed first' WHERE id = $1`, [late]);
        await b.query('COMMIT');

        // B's row is committed and visible, yet the feed does not hand it out while A may still commit.
        const visible = await server.database.pool.query(`SELECT name FROM retail_products WHERE id = $1`, [
          late,
        ]);
        expect(visible.rows[0]).toEqual({ name: 'B, committed first' });
        const during = await read('products', scope, caught.checkpoint, 1_000);
        expect(ids(during.rows)).not.toContain(late);
        expect(during.checkpoint).toEqual(caught.checkpoint);

        await a.query('COMMIT');
        const after = await pull('products', scope, during.checkpoint, 1, [early!, late!]);
        expect(ids(after.rows)).toEqual([early, late]);
        expect(after.rows[0]!.change_seq).toBeLessThan(after.rows[1]!.change_seq);
        expect(after.rows.map((row) => row.name)).toEqual(['A, committed last', 'B, committed first']);
      } finally {
        await Promise.all([a.end(), b.end()]);
      }
    },
  );
  // The embedded database has one session and the server one connection to it:
  // two transactions can never be open at once, so none can commit "late". What
  // holds instead is that a read waits for the open transaction and then sees it.
  it.skipIf(onPostgres)(
    'cannot happen on the embedded database: a read waits for the open transaction and sees its row',
    async () => {
      const [id] = await insertProducts(1, 'single');
      const caught = await pull('products', scope, null, 1_000, [id!]);
      const order: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      const writer = server.database.transaction(async (tx) => {
        await tx.query(`UPDATE retail_products SET name = 'open' WHERE id = $1`, [id]);
        written();
        await gate;
        order.push('commit');
      });
      await wrote;
      const reader = read('products', scope, caught.checkpoint, 1_000).then((page) => {
        order.push('read');
        return page;
      });
      // The read is queued for the one connection, which the open transaction holds.
      await until(() => server.database.pool.waitingCount > 0, 10_000, 'the read queued');
      expect(order).toEqual([]);
      release();
      await writer;
      const page = await reader;
      expect(order).toEqual(['commit', 'read']);
      expect(ids(page.rows)).toEqual([id]);
    },
  );
});
