/**
 * GET and PATCH /v1/account: the business's name and default language, one for both modes, the
 * caller's own only; a new store's receipts start in that language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { officeClient, officeSignIn } from '../support/office.ts';
import { client, signUp, startTestServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('the account', () => {
  it('renames the business in both modes, seen by the back office’s session', async () => {
    const merchant = await signUp(server.url, { business_name: 'Duka la Mama' });
    const other = await signUp(server.url, { business_name: 'Duka Jingine' });
    const test = client(server.url, merchant.keys.secretTest);
    expect((await test.get('/v1/account')).body).toMatchObject({
      object: 'merchant',
      id: merchant.id,
      business_name: 'Duka la Mama',
      livemode: false,
    });
    const renamed = await client(server.url, merchant.keys.secretLive).patch('/v1/account', {
      business_name: '  Duka la Mama Asha ',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ business_name: 'Duka la Mama Asha', livemode: true });
    expect((await test.get('/v1/account')).body.business_name).toBe('Duka la Mama Asha');
    const { cookie } = await officeSignIn(server.url, merchant);
    expect((await officeClient(server.url, cookie).get('/office/session')).body.merchant.business_name).toBe(
      'Duka la Mama Asha',
    );
    expect((await client(server.url, other.keys.secretTest).get('/v1/account')).body.business_name).toBe(
      'Duka Jingine',
    );
  });

  it('keeps a default language, sw unless changed, that new stores’ receipts start in', async () => {
    const merchant = await signUp(server.url);
    const api = client(server.url, merchant.keys.secretTest);
    expect((await api.get('/v1/account')).body.default_language).toBe('sw');
    const first = (await api.post('/v1/retail/stores', { name: 'Duka la Kwanza' })).body;
    expect(first.receipt_language).toBe('sw');

    const changed = await client(server.url, merchant.keys.secretLive).patch('/v1/account', {
      default_language: 'en',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ default_language: 'en', business_name: 'Duka la Mama' });
    expect((await api.get('/v1/account')).body.default_language).toBe('en');
    const { cookie } = await officeSignIn(server.url, merchant);
    expect((await officeClient(server.url, cookie).get('/office/session')).body.merchant).toMatchObject({
      default_language: 'en',
    });

    // New stores start in it, in either mode, unless they name their own; a store keeps its own.
    expect((await api.post('/v1/retail/stores', { name: 'Duka la Pili' })).body.receipt_language).toBe('en');
    expect(
      (await api.post('/v1/retail/stores', { name: 'Duka la Tatu', receipt_language: 'sw' })).body
        .receipt_language,
    ).toBe('sw');
    const live = client(server.url, merchant.keys.secretLive);
    // The default store made on first use (here, live mode's) starts in it too.
    expect((await live.patch('/v1/retail/store', { tin: null })).body.receipt_language).toBe('en');
    expect((await api.get(`/v1/retail/stores/${first.id}`)).body.receipt_language).toBe('sw');

    const refused = await api.patch('/v1/account', { default_language: 'fr' });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toHaveProperty('default_language');
    expect((await api.get('/v1/account')).body.default_language).toBe('en');
  });

  it('names the field of a bad name, and refuses a publishable key', async () => {
    const merchant = await signUp(server.url);
    const api = client(server.url, merchant.keys.secretTest);
    for (const body of [
      { business_name: '  ' },
      { business_name: 'x'.repeat(201) },
      {},
      { email: 'a@b.tz' },
    ]) {
      const refused = await api.patch('/v1/account', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(refused.body.details).length, JSON.stringify(refused.body)).toBeGreaterThan(0);
    }
    expect((await api.get('/v1/account')).body.business_name).toBe('Duka la Mama');
    const publishable = await client(server.url, merchant.keys.publishableTest).patch('/v1/account', {
      business_name: 'Mallory',
    });
    expect(publishable.status).toBeGreaterThanOrEqual(401);
    expect(publishable.status).toBeLessThan(404);
  });
});
