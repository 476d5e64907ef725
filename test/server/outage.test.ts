import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventually, signUp } from '../support/server.ts';
import { startServerBehindProxy, type CuttableProxy } from '../support/proxy.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';

let proxy: CuttableProxy;
let server: RunningServer;
let stop: () => Promise<void>;
let restore: () => Promise<void>;

beforeAll(async () => {
  ({ server, proxy, stop, restore } = await startServerBehindProxy());
});
afterAll(() => stop?.());

describe('a database outage', () => {
  it('answers 503 with Retry-After and the error object, says so on /healthz, and recovers by itself', async () => {
    const merchant = await signUp(server.url);
    const api = client(server.url, merchant.keys.secretTest);
    expect((await api.get('/v1/balance')).status).toBe(200);

    proxy.cut();
    const started = Date.now();
    const during = await api.post('/v1/payments', { amount: 1000, currency: 'TZS', phone: '0700000001' });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(during.status).toBe(503);
    expect(during.body).toMatchObject({ error: 'api_error', code: 'service_unavailable' });
    expect(Number(during.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(during.headers.get('x-request-id')).toMatch(/^req_/);
    const health = await client(server.url).get('/healthz');
    expect(health.status).toBe(503);
    expect(health.body.status).toBe('unavailable');
    expect(health.body.database).toMatch(/^unreachable/);

    await restore();
    await eventually(async () => (await client(server.url).get('/healthz')).status === 200, 10_000);
    const after = await api.post('/v1/payments', { amount: 1000, currency: 'TZS', phone: '0700000001' });
    expect(after.status).toBe(201);
  });
});
