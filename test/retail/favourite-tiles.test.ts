import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PULL_DOCUMENTS } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { withMerchant } from '../support/merchant.ts';
import { makeProduct, type Api } from '../support/retail.ts';
import { pairedTill, pullCollection } from '../support/tills.ts';

let server: RunningServer;
let api: Api;

beforeAll(async () => {
  ({ server, api } = await withMerchant({ business_name: 'Duka la Tiles' }));
});
afterAll(() => server?.close());

describe('a product’s place on the Favourites tiles', () => {
  it('is set on create, moved and cleared by PATCH, and absent means none', async () => {
    const bread = await makeProduct(api, { name: 'Mkate', favourite_position: 2 });
    expect(bread.favourite_position).toBe(2);
    expect((await makeProduct(api)).favourite_position).toBeNull();
    const moved = await api.patch(`/v1/retail/products/${bread.id}`, { favourite_position: 1 });
    expect(moved.body.favourite_position).toBe(1);
    expect((await api.patch(`/v1/retail/products/${bread.id}`, { name: 'Mkate mkubwa' })).body).toMatchObject(
      {
        favourite_position: 1,
      },
    );
    const cleared = await api.patch(`/v1/retail/products/${bread.id}`, { favourite_position: null });
    expect(cleared.body.favourite_position).toBeNull();
  });

  it('is refused with a 400 naming the field unless a whole number from 1 to 999', async () => {
    for (const bad of [0, -1, 1000, 1.5, '3', null]) {
      const refused = await api.post('/v1/retail/products', {
        name: 'Bad',
        price: 1,
        favourite_position: bad,
      });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body).toMatchObject({
        error: 'invalid_request_error',
        details: { favourite_position: expect.any(String) },
      });
    }
  });

  it('reaches the till with the product', async () => {
    const { actor } = await pairedTill(server, api);
    const sugar = await makeProduct(api, { name: 'Sukari', favourite_position: 7 });
    // The feed gives a row once no older transaction is open: pulled until it has come.
    const products = await pullCollection(server, actor, 'products', (docs) =>
      docs.some((doc) => doc.id === sugar.id),
    );
    const pulled = products.map((doc) => PULL_DOCUMENTS.products.parse(doc));
    expect(pulled.find((doc) => doc.id === sugar.id)?.favourite_position).toBe(7);
  });
});
