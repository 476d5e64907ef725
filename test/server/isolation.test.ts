import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventually, signUp, startTestServer, type Merchant } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { v1Routes } from '../../apps/server/src/routes/v1/index.ts';

let server: RunningServer;
let owner: Merchant;
let stranger: ReturnType<typeof client>;
const ownerIds: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  owner = await signUp(server.url);
  stranger = client(server.url, (await signUp(server.url)).keys.secretTest);
  const api = client(server.url, owner.keys.secretTest);
  const paid = await api.post('/v1/payments', { amount: 5000, currency: 'TZS', phone: '0700000001' });
  await eventually(async () => (await api.get(`/v1/payments/${paid.body.id}`)).body.status === 'paid');
  const customer = await api.post('/v1/customers', { name: 'Baraka' });
  const checkout = await api.post('/v1/checkout', { amount: 100, currency: 'TZS' });
  const keys = await api.get('/v1/api-keys');
  const transactions = await api.get('/v1/transactions');
  ownerIds.push(paid.body.id, customer.body.id, checkout.body.id, keys.body.data[0].id, transactions.body.data[0].id);
});
afterAll(() => server?.close());

describe('tenant isolation', () => {
  it('answers 404 to another merchant for every object on every route that takes an id', async () => {
    const routes = v1Routes.filter((route) => route.path.includes('{id}'));
    expect(routes.length).toBeGreaterThan(3);
    for (const route of routes) {
      for (const id of ownerIds) {
        const response = await stranger.request(route.method, `/v1${route.path.replace('{id}', id)}`, route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
        expect(response.status, `${route.method} ${route.path} with ${id}`).not.toBeLessThan(300);
        // A body that fails validation is refused before the lookup; anything else must not reveal the object.
        if (response.status !== 400) expect(response.status, `${route.method} ${route.path} with ${id}`).toBe(404);
      }
    }
  });

  it('keeps other merchants’ objects out of every list', async () => {
    // The request log is left out: it holds the stranger's own requests, which name the ids tried above.
    const lists = v1Routes.filter((route) => route.method === 'GET' && !route.path.includes('{') && route.path !== '/logs');
    for (const route of lists) {
      const response = await stranger.get(`/v1${route.path}`);
      // A singleton the stranger has not made yet (its default store, say) is a 404 of its own.
      expect([200, 404], route.path).toContain(response.status);
      const text = JSON.stringify(response.body);
      for (const id of ownerIds) expect(text, `${route.path} leaks ${id}`).not.toContain(id);
    }
  });
});
