import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client } from '../support/server.ts';
import { anotherMerchant, withMerchant } from '../support/merchant.ts';
import { makeProduct, uniqueCode, type Api } from '../support/retail.ts';

let server: RunningServer;
let api: Api;
let live: Api;
let merchantId: string;

beforeAll(async () => {
  const setup = await withMerchant({ business_name: 'Duka la Mama Asha' });
  ({ server, api } = setup);
  merchantId = setup.merchant.id;
  live = client(server.url, setup.merchant.keys.secretLive);
});
afterAll(() => server?.close());

const eventsOf = async (type: string, objectId: string) => {
  const found = await server.database.pool.query(
    `SELECT data FROM events WHERE merchant_id = $1 AND type = $2 AND data->'object'->>'id' = $3 ORDER BY seq`,
    [merchantId, type, objectId],
  );
  return found.rows.map((row) => row.data.object);
};

describe('catalogue', () => {
  it('creates a product with variants, defaults and a product.created event', async () => {
    const category = await api.post('/v1/retail/categories', { name: 'Vinywaji' });
    expect(category.status).toBe(201);
    expect(category.body).toMatchObject({ object: 'category', name: 'Vinywaji', deleted: false });
    const product = await makeProduct(api, {
      name: 'Soda',
      price: 1_000,
      category: category.body.id,
      variants: [
        { name: '350ml', sku: uniqueCode('SODA-350-'), barcodes: [uniqueCode('6001')], price: 700 },
        { name: '500ml', sku: uniqueCode('SODA-500-') },
      ],
    });
    expect(product).toMatchObject({
      object: 'product',
      name: 'Soda',
      currency: 'TZS',
      tax_rate: 'standard',
      unit: 'piece',
      track_stock: true,
      active: true,
      deleted: false,
      category: category.body.id,
      livemode: false,
    });
    expect(product.id).toMatch(/^prod_/);
    expect(product.variants.map((v: { name: string; price: number }) => [v.name, v.price])).toEqual([
      ['350ml', 700],
      ['500ml', 1_000],
    ]);
    expect(await eventsOf('product.created', product.id)).toHaveLength(1);
    expect((await api.get(`/v1/products/${product.id}`)).body).toEqual(product);
  });

  it('adds, edits and deletes variants, each writing product.updated', async () => {
    const product = await makeProduct(api, { name: 'Juice' });
    const added = await api.post(`/v1/retail/products/${product.id}/variants`, { name: '1L', price: 4_000 });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ object: 'variant', product: product.id, name: '1L', price: 4_000 });
    const patched = await api.patch(`/v1/retail/variants/${added.body.id}`, {
      price: 4_200,
      barcodes: ['600100200300'],
    });
    expect(patched.body).toMatchObject({ price: 4_200, barcodes: ['600100200300'] });
    const deleted = await api.delete(`/v1/retail/variants/${added.body.id}`);
    expect(deleted.body).toMatchObject({ deleted: true, active: false });
    expect((await api.get(`/v1/products/${product.id}`)).body.variants).toEqual([]);
    expect(await eventsOf('product.updated', product.id)).toHaveLength(3);
    // The deleted variant's barcode is free again.
    const reuse = await api.post(`/v1/retail/products/${product.id}/variants`, {
      name: '1L',
      barcodes: ['600100200300'],
    });
    expect(reuse.status).toBe(201);
  });

  it('updates a product and clears fields with null', async () => {
    const product = await makeProduct(api, { description: 'old' });
    const updated = await api.patch(`/v1/retail/products/${product.id}`, {
      name: 'Sabuni Mpya',
      description: null,
      sku: null,
      price: 2_500,
      tax_rate: 'exempt',
      unit: 'kg',
      active: false,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'Sabuni Mpya',
      description: null,
      sku: null,
      price: 2_500,
      tax_rate: 'exempt',
      unit: 'kg',
      active: false,
    });
    expect(await eventsOf('product.updated', product.id)).toHaveLength(1);
  });

  it('refuses a SKU or barcode already used, naming the field, across products and variants', async () => {
    const first = await makeProduct(api);
    const sku = await api.post('/v1/retail/products', {
      name: 'Copy',
      price: 1,
      sku: first.sku.toLowerCase(),
    });
    expect(sku.status).toBe(400);
    expect(sku.body).toMatchObject({
      error: 'invalid_request_error',
      code: 'sku_taken',
      details: { sku: expect.any(String) },
    });
    const barcode = await api.post('/v1/retail/products', {
      name: 'Copy',
      price: 1,
      barcodes: ['x1', first.barcodes[0]],
    });
    expect(barcode.body).toMatchObject({
      code: 'barcode_taken',
      details: { 'barcodes.1': expect.any(String) },
    });
    const variant = await api.post('/v1/retail/products', {
      name: 'Copy',
      price: 1,
      variants: [{ name: 'a', barcodes: [first.barcodes[0]] }],
    });
    expect(variant.body).toMatchObject({
      code: 'barcode_taken',
      details: { 'variants.0.barcodes.0': expect.any(String) },
    });
    const within = await api.post('/v1/retail/products', {
      name: 'Copy',
      price: 1,
      sku: 'SAME-1',
      variants: [{ name: 'a', sku: 'same-1' }],
    });
    expect(within.body).toMatchObject({ code: 'sku_taken', details: { 'variants.0.sku': 'repeats sku' } });
    const patch = await api.patch(`/v1/retail/products/${(await makeProduct(api)).id}`, { sku: first.sku });
    expect(patch.body).toMatchObject({ code: 'sku_taken', details: { sku: expect.any(String) } });
  });

  it('soft-deletes a product: hidden from the list, still retrievable, its codes free again', async () => {
    const product = await makeProduct(api, { name: 'Kiberiti' });
    const deleted = await api.delete(`/v1/retail/products/${product.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: product.id, deleted: true, active: false });
    expect(await eventsOf('product.deleted', product.id)).toHaveLength(1);
    expect((await api.get(`/v1/products/${product.id}`)).body.deleted).toBe(true);
    const listed = await api.get(`/v1/products?q=${product.sku}`);
    expect(listed.body.data).toEqual([]);
    const withDeleted = await api.get(`/v1/products?q=Kiberiti&include_deleted=true`);
    expect(withDeleted.body.data.map((p: { id: string }) => p.id)).toContain(product.id);
    const again = await makeProduct(api, { sku: product.sku, barcodes: product.barcodes });
    expect(again.sku).toBe(product.sku);
    const patch = await api.patch(`/v1/retail/products/${product.id}`, { price: 1 });
    expect(patch.status).toBe(400);
  });

  it('searches by barcode, SKU and name words, including a variant’s barcode', async () => {
    const barcode = uniqueCode('8');
    const variantBarcode = uniqueCode('9');
    const target = await makeProduct(api, {
      name: 'Kilombero Sukari 1kg',
      sku: uniqueCode('SUK-'),
      barcodes: [barcode],
      variants: [{ name: 'Bulk', barcodes: [variantBarcode] }],
    });
    await makeProduct(api, { name: 'Mchele Kyela' });
    const ids = async (q: string) =>
      (await api.get(`/v1/products?q=${encodeURIComponent(q)}`)).body.data.map((p: { id: string }) => p.id);
    expect(await ids(barcode)).toEqual([target.id]);
    expect(await ids(variantBarcode)).toEqual([target.id]);
    expect(await ids(target.sku)).toEqual([target.id]);
    expect(await ids('sukari')).toEqual([target.id]);
    expect(await ids('KILOM suk')).toEqual([target.id]);
    expect(await ids('sukari kyela')).toEqual([]);
  });

  it('filters by category, active and store, and pages with cursors', async () => {
    const category = (await api.post('/v1/retail/categories', { name: 'Filter' })).body;
    const a = await makeProduct(api, { category: category.id });
    const b = await makeProduct(api, { category: category.id, active: false });
    const c = await makeProduct(api, { category: category.id });
    const list = await api.get(`/v1/products?category=${category.id}&limit=2`);
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([c.id, b.id]);
    expect(list.body.has_more).toBe(true);
    const next = await api.get(`/v1/products?category=${category.id}&limit=2&starting_after=${b.id}`);
    expect(next.body.data.map((p: { id: string }) => p.id)).toEqual([a.id]);
    const active = await api.get(`/v1/products?category=${category.id}&active=false`);
    expect(active.body.data.map((p: { id: string }) => p.id)).toEqual([b.id]);
    const store = (await api.post('/v1/retail/stores', { name: 'Tawi la Filter' })).body;
    await api.post('/v1/retail/stock-adjustments', {
      store: store.id,
      product: a.id,
      set_on_hand: 5,
      reason: 'count',
    });
    const stocked = await api.get(`/v1/products?store=${store.id}`);
    expect(stocked.body.data.map((p: { id: string }) => p.id)).toEqual([a.id]);
  });

  it('edits and soft-deletes categories; a deleted category cannot be used', async () => {
    const category = (await api.post('/v1/retail/categories', { name: 'Old', description: 'x' })).body;
    const patched = await api.patch(`/v1/retail/categories/${category.id}`, {
      name: 'New',
      description: null,
    });
    expect(patched.body).toMatchObject({ name: 'New', description: null });
    const deleted = await api.delete(`/v1/retail/categories/${category.id}`);
    expect(deleted.body.deleted).toBe(true);
    const listed = await api.get('/v1/retail/categories?limit=100');
    expect(listed.body.data.map((c: { id: string }) => c.id)).not.toContain(category.id);
    const use = await api.post('/v1/retail/products', { name: 'X', price: 1, category: category.id });
    expect(use.body).toMatchObject({ code: 'parameter_invalid', details: { category: expect.any(String) } });
  });
});

describe('modes and the API description', () => {
  it('keeps test-mode products and codes apart from live mode', async () => {
    const product = await makeProduct(api);
    expect((await live.get(`/v1/products/${product.id}`)).status).toBe(404);
    expect((await live.get(`/v1/products?q=${product.sku}`)).body.data).toEqual([]);
    const sameCodes = await live.post('/v1/retail/products', {
      name: 'Live',
      price: 1,
      sku: product.sku,
      barcodes: product.barcodes,
    });
    expect(sameCodes.status).toBe(201);
    expect(sameCodes.body.livemode).toBe(true);
  });

  it('describes every retail route in the OpenAPI document', async () => {
    const document = await client(server.url).get('/v1/openapi.json');
    expect(document.status).toBe(200);
    const paths = Object.keys(document.body.paths);
    for (const path of [
      '/v1/products',
      '/v1/retail/products',
      '/v1/retail/orders',
      '/v1/orders/{id}/refund',
      '/v1/retail',
    ]) {
      expect(
        paths.some((p) => p === path || p === path.replace('/v1', '')),
        path,
      ).toBe(true);
    }
  });
});

describe('stores', () => {
  it('creates the default store on first PATCH /retail/store, named after the business', async () => {
    const { api: own } = await anotherMerchant(server, { business_name: 'Kibanda cha Juma' });
    expect((await own.get('/v1/retail/store')).status).toBe(404);
    const store = await own.patch('/v1/retail/store', {
      tin: '123456789',
      vrn: '40012345a',
      vat_region: 'zanzibar',
    });
    expect(store.status).toBe(200);
    expect(store.body).toMatchObject({
      object: 'store',
      name: 'Kibanda cha Juma',
      default: true,
      tin: '123-456-789',
      vrn: '40-012345-A',
      vat_region: 'zanzibar',
      currency: 'TZS',
      receipt_language: 'sw',
      receipt_prefix: 'S01',
    });
    expect((await own.get('/v1/retail/store')).body.id).toBe(store.body.id);
    expect((await own.patch('/v1/retail/store', { name: 'Juma Shop' })).body).toMatchObject({
      id: store.body.id,
      name: 'Juma Shop',
    });
  });

  it('creates more stores with their own prefixes and moves the default on request', async () => {
    const { api: own } = await anotherMerchant(server);
    const first = (
      await own.post('/v1/retail/stores', { name: 'Kariakoo', address_lines: ['Mtaa wa Uhuru 12'] })
    ).body;
    const second = await own.post('/v1/retail/stores', {
      name: 'Stone Town',
      vat_region: 'zanzibar',
      receipt_header: ['Karibu'],
      receipt_footer: ['Asante'],
      receipt_language: 'en',
    });
    expect(second.status).toBe(201);
    expect(first).toMatchObject({ default: true, receipt_prefix: 'S01' });
    expect(second.body).toMatchObject({ default: false, receipt_prefix: 'S02', receipt_language: 'en' });
    const moved = await own.patch(`/v1/retail/stores/${second.body.id}`, { default: true });
    expect(moved.body.default).toBe(true);
    expect((await own.get(`/v1/retail/stores/${first.id}`)).body.default).toBe(false);
    expect((await own.get('/v1/retail/store')).body.id).toBe(second.body.id);
    const list = await own.get('/v1/retail/stores');
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([second.body.id, first.id]);
    const refuse = await own.patch(`/v1/retail/stores/${second.body.id}`, { default: false });
    expect(refuse.status).toBe(400);
    const badTin = await own.post('/v1/retail/stores', { name: 'X', tin: '12' });
    expect(badTin.body).toMatchObject({ details: { tin: expect.any(String) } });
  });
});
