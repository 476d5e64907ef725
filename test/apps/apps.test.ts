import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_SLUGS, newId, type Command } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { AppInstallations } from '../../apps/server/src/merchants/apps.ts';
import { client, eventually } from '../support/server.ts';
import { anotherMerchant, withMerchant } from '../support/merchant.ts';
import { makeProduct, type Api } from '../support/retail.ts';
import { pairedTill } from '../support/tills.ts';

let server: RunningServer;
let api: Api;
let live: Api;
let merchantId: string;

beforeAll(async () => {
  const setup = await withMerchant({ business_name: 'Duka la Programu' });
  ({ server, api } = setup);
  live = client(server.url, setup.merchant.keys.secretLive);
  merchantId = setup.merchant.id;
});
afterAll(() => server?.close());

const installed = async (which: Api) => {
  const list = await which.get('/v1/apps');
  expect(list.status).toBe(200);
  return Object.fromEntries(
    list.body.data.map((app: { slug: string; installed: boolean }) => [app.slug, app.installed]),
  );
};

describe('apps', () => {
  it('starts a new merchant with every app installed', async () => {
    const list = await api.get('/v1/apps');
    expect(list.body.object).toBe('list');
    expect(list.body.data.map((app: { slug: string }) => app.slug)).toEqual([...APP_SLUGS]);
    expect(
      list.body.data.every(
        (app: { installed: boolean; changed_at: null }) => app.installed && app.changed_at === null,
      ),
    ).toBe(true);
  });

  it('pages the apps by the API’s cursors, as every list does', async () => {
    const first = await api.get('/v1/apps?limit=3');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'list', has_more: true });
    expect(first.body.data.map((app: { id: string }) => app.id)).toEqual(APP_SLUGS.slice(0, 3));
    const second = await api.get(`/v1/apps?limit=3&starting_after=${first.body.data[2].id}`);
    expect(second.body.data.map((app: { id: string }) => app.id)).toEqual(APP_SLUGS.slice(3, 6));
    const last = await api.get(`/v1/apps?limit=3&starting_after=${second.body.data[2].id}`);
    expect(last.body).toMatchObject({ has_more: false, data: [{ id: APP_SLUGS[6], installed: true }] });
    const back = await api.get(`/v1/apps?limit=3&ending_before=${last.body.data[0].id}`);
    expect(back.body.data.map((app: { id: string }) => app.id)).toEqual(APP_SLUGS.slice(3, 6));
    const unknown = await api.get('/v1/apps?starting_after=cinema');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'cursor_invalid' });
    expect((await api.get('/v1/apps?limit=0')).status).toBe(400);
  });

  it('answers 403 app_not_installed on a removed app’s routes, keeps payments working, and shows the data again on reinstall', async () => {
    const product = await makeProduct(api, { name: 'Chai ya Kilimanjaro' });
    const removed = await api.delete('/v1/apps/retail');
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ object: 'app', slug: 'retail', installed: false, livemode: false });

    for (const path of [
      '/v1/products',
      `/v1/products/${product.id}`,
      '/v1/retail',
      '/v1/orders',
      '/v1/tills',
    ]) {
      const refused = await api.get(path);
      expect(refused.status, path).toBe(403);
      expect(refused.body).toMatchObject({ error: 'permission_error', code: 'app_not_installed' });
    }
    const write = await api.post('/v1/retail/products', { name: 'Sukari', price: 3000 });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('app_not_installed');
    expect((await api.get('/v1/payments')).status).toBe(200);
    expect(
      (await api.post('/v1/payments', { amount: 1000, currency: 'TZS', phone: '0700000001' })).status,
    ).toBe(201);
    // Other apps are untouched.
    expect((await api.get('/v1/employees')).status).toBe(200);
    expect((await installed(api)).retail).toBe(false);

    const reinstalled = await api.post('/v1/apps/retail');
    expect(reinstalled.status).toBe(200);
    expect(reinstalled.body).toMatchObject({ slug: 'retail', installed: true });
    const list = await api.get('/v1/products?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(product.id);
  });

  it('keeps one merchant’s removal and one mode’s removal to themselves', async () => {
    const other = await anotherMerchant(server);
    expect((await other.api.delete('/v1/apps/printers')).status).toBe(200);
    expect((await other.api.get('/v1/printers')).body.code).toBe('app_not_installed');
    expect((await api.get('/v1/printers')).status).toBe(200);
    // Test mode's removal leaves live mode installed.
    expect((await live.get('/v1/printers')).status).toBe(200);
    expect((await api.delete('/v1/apps/printers')).status).toBe(200);
    expect((await api.get('/v1/printers')).status).toBe(403);
    expect((await live.get('/v1/printers')).status).toBe(200);
    expect((await installed(live)).printers).toBe(true);
    expect((await api.post('/v1/apps/printers')).status).toBe(200);
  });

  it('removes and installs idempotently, and answers 404 for an unknown app', async () => {
    expect((await api.delete('/v1/apps/employees')).body.installed).toBe(false);
    expect((await api.delete('/v1/apps/employees')).body.installed).toBe(false);
    expect((await api.post('/v1/apps/employees')).body.installed).toBe(true);
    expect((await api.post('/v1/apps/employees')).body.installed).toBe(true);
    const unknown = await api.delete('/v1/apps/bakery');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'resource_missing', details: { slug: expect.any(String) } });
    const body = await api.post('/v1/apps/retail', { surprise: true });
    expect(body.status).toBe(400);
  });

  it('refuses a till’s sale with app_not_installed while retail is removed, and applies it after reinstalling', async () => {
    const product = await makeProduct(api, { price: 1500 });
    const { actor, till } = await pairedTill(server, api);
    const { sync } = server.services;
    const sale = (receipt: string): Command => ({
      id: `cmd_${newId('request').slice(-26).toUpperCase()}`,
      type: 'order.create',
      created_at: Date.now(),
      payload: {
        client_order_id: `sale-${receipt}`,
        store: till.store,
        receipt_number: receipt,
        lines: [{ product: product.id, quantity: 1 }],
        tenders: [{ method: 'cash', amount: 1500 }],
      },
    });
    expect((await api.delete('/v1/apps/retail')).status).toBe(200);
    const [refused] = await sync.push(actor, [sale(`${till.receipt_prefix}-000001`)]);
    expect(refused).toMatchObject({ status: 'refused', error: { code: 'app_not_installed' } });
    expect((await api.post('/v1/apps/retail')).status).toBe(200);
    const [applied] = await sync.push(actor, [sale(`${till.receipt_prefix}-000002`)]);
    expect(applied).toMatchObject({ status: 'applied' });
  });

  it('reaches another server process within its cache time', async () => {
    // Another process's view of the same database, trusting what it read for 1 s.
    const elsewhere = new AppInstallations(1);
    const tenant = { merchantId, livemode: false };
    const check = () =>
      elsewhere.assertInstalled(server.database.pool, tenant, 'employees').then(
        () => 'installed',
        (error: { code?: string }) => error.code,
      );
    expect(await check()).toBe('installed');
    expect((await api.delete('/v1/apps/employees')).status).toBe(200);
    await eventually(async () => (await check()) === 'app_not_installed', 3_000);
    expect((await api.post('/v1/apps/employees')).status).toBe(200);
    await eventually(async () => (await check()) === 'installed', 3_000);
  });
});
