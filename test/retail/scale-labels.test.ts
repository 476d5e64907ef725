import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCALE_BARCODE_FORMAT, PULL_DOCUMENTS } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { withMerchant } from '../support/merchant.ts';
import { makeProduct, type Api } from '../support/retail.ts';
import { pairedTill, pullCollection } from '../support/tills.ts';

let server: RunningServer;
let api: Api;

beforeAll(async () => {
  ({ server, api } = await withMerchant({ business_name: 'Bucha ya Kariakoo' }));
});
afterAll(() => server?.close());

/** A PLU no other test in this file uses. */
let plus = 100;
const nextPlu = () => String(++plus);

describe('a product’s PLU', () => {
  it('is kept without leading zeros, changed and cleared by PATCH, and freed when cleared', async () => {
    const plu = nextPlu();
    const beef = await makeProduct(api, {
      name: 'Nyama ya ng’ombe',
      unit: 'kg',
      price: 12_000,
      plu: `00${plu}`,
    });
    expect(beef).toMatchObject({ plu, unit: 'kg' });
    expect((await api.get(`/v1/products/${beef.id}`)).body.plu).toBe(plu);
    expect((await makeProduct(api)).plu).toBeNull();

    const other = nextPlu();
    expect((await api.patch(`/v1/retail/products/${beef.id}`, { plu: other })).body.plu).toBe(other);
    // The old PLU is free again.
    expect((await makeProduct(api, { plu })).plu).toBe(plu);
    expect((await api.patch(`/v1/retail/products/${beef.id}`, { plu: null })).body.plu).toBeNull();
    expect((await makeProduct(api, { plu: other })).plu).toBe(other);
  });

  it('finds its product in a search, like a SKU or barcode', async () => {
    const plu = nextPlu();
    const goat = await makeProduct(api, { name: 'Nyama ya mbuzi', unit: 'kg', plu });
    const found = await api.get(`/v1/products?q=${plu}`);
    expect(found.body.data.map((p: { id: string }) => p.id)).toEqual([goat.id]);
  });

  it('is refused with a 400 naming the field when taken, not digits, too long or zero', async () => {
    const plu = nextPlu();
    await makeProduct(api, { plu });
    const taken = await api.post('/v1/retail/products', { name: 'Copy', price: 1, plu: `0${plu}` });
    expect(taken.status).toBe(400);
    expect(taken.body).toMatchObject({
      error: 'invalid_request_error',
      code: 'plu_taken',
      details: { plu: expect.any(String) },
    });
    for (const bad of ['12a', '1234567', '0000', '', 123]) {
      const refused = await api.post('/v1/retail/products', { name: 'Bad', price: 1, plu: bad });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body).toMatchObject({
        error: 'invalid_request_error',
        details: { plu: expect.any(String) },
      });
    }
    const patched = await api.patch(`/v1/retail/products/${(await makeProduct(api)).id}`, { plu });
    expect(patched.body).toMatchObject({ code: 'plu_taken', details: { plu: expect.any(String) } });
  });
});

describe('a store’s scale label format', () => {
  it('reads "21 PPPPP WWWWW C" as a weight out of the box, and is replaced whole by PATCH', async () => {
    const store = (await api.patch('/v1/retail/store', {})).body;
    expect(store.scale_barcodes).toEqual(DEFAULT_SCALE_BARCODE_FORMAT);
    const format = {
      weight_prefixes: ['28'],
      price_prefixes: ['29', '20'],
      item_code_digits: 4,
      price_check_digit: true,
      match_by: 'barcode',
    };
    const patched = await api.patch(`/v1/retail/stores/${store.id}`, { scale_barcodes: format });
    expect(patched.status).toBe(200);
    expect(patched.body.scale_barcodes).toEqual(format);
    // Other fields leave it as it is.
    expect(
      (await api.patch(`/v1/retail/stores/${store.id}`, { phone: '0712345678' })).body.scale_barcodes,
    ).toEqual(format);
    const created = await api.post('/v1/retail/stores', {
      name: 'Tawi la Mwenge',
      scale_barcodes: { ...DEFAULT_SCALE_BARCODE_FORMAT, item_code_digits: 6 },
    });
    expect(created.body.scale_barcodes.item_code_digits).toBe(6);
  });

  it('is refused with a 400 naming each wrong field', async () => {
    const store = (await api.patch('/v1/retail/store', {})).body;
    const refused = async (scale_barcodes: unknown) => {
      const response = await api.patch(`/v1/retail/stores/${store.id}`, { scale_barcodes });
      expect(response.status, JSON.stringify(scale_barcodes)).toBe(400);
      expect(response.body.error).toBe('invalid_request_error');
      return Object.keys(response.body.details ?? {});
    };
    const base = DEFAULT_SCALE_BARCODE_FORMAT;
    expect(await refused({ ...base, price_prefixes: ['21'] })).toEqual(['scale_barcodes.price_prefixes']);
    expect(await refused({ ...base, weight_prefixes: ['19'] })).toEqual(['scale_barcodes.weight_prefixes.0']);
    expect(await refused({ ...base, item_code_digits: 6, price_check_digit: true })).toEqual([
      'scale_barcodes.item_code_digits',
    ]);
    expect(await refused({ ...base, match_by: 'name' })).toEqual(['scale_barcodes.match_by']);
    expect(await refused({ weight_prefixes: ['21'] })).toContain('scale_barcodes.price_prefixes');
    expect(await refused({ ...base, extra: true })).toEqual(['scale_barcodes.extra']);
    // Nothing changed.
    expect((await api.get(`/v1/retail/stores/${store.id}`)).body.scale_barcodes).toEqual(
      store.scale_barcodes,
    );
  });

  it('reaches the till with the store, and the PLU with the product', async () => {
    const { till, actor } = await pairedTill(server, api);
    const format = { ...DEFAULT_SCALE_BARCODE_FORMAT, weight_prefixes: ['21', '24'] };
    await api.patch(`/v1/retail/stores/${till.store}`, { scale_barcodes: format });
    const plu = nextPlu();
    const fish = await makeProduct(api, { name: 'Samaki', unit: 'kg', plu });
    const stores = await pullCollection(server, actor, 'stores', (docs) =>
      docs.some((doc) => doc.id === till.store),
    );
    const store = stores.find((doc) => doc.id === till.store);
    expect(PULL_DOCUMENTS.stores.parse(store).scale_barcodes).toEqual(format);
    const products = await pullCollection(server, actor, 'products', (docs) =>
      docs.some((doc) => doc.id === fish.id),
    );
    const pulled = products.map((doc) => PULL_DOCUMENTS.products.parse(doc));
    expect(pulled.find((doc) => doc.id === fish.id)?.plu).toBe(plu);
  });
});
