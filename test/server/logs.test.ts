import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventually, signUp, startTestServer, type Merchant } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';

let server: RunningServer;
let merchant: Merchant;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startTestServer();
  merchant = await signUp(server.url);
  api = client(server.url, merchant.keys.secretTest);
});
afterAll(() => server?.close());

describe('GET /v1/logs', () => {
  it('records each request with time, method, path, status, request id, key and duration, filterable', async () => {
    const ok = await api.post('/v1/customers', { name: 'Neema', email: 'neema@example.tz' });
    const bad = await api.post('/v1/payments', { amount: -1, currency: 'TZS', phone: '0700000001' });
    const logs = await eventually(async () => {
      const r = await api.get('/v1/logs?limit=100');
      return r.body.data.length >= 2 ? r.body : undefined;
    });
    const created = logs.data.find((l: any) => l.request_id === ok.headers.get('x-request-id'));
    expect(created).toMatchObject({
      object: 'request_log',
      method: 'POST',
      path: '/v1/customers',
      status: 201,
      livemode: false,
    });
    expect(created.api_key).toMatch(/^key_/);
    expect(created.duration_ms).toBeGreaterThanOrEqual(0);
    expect(typeof created.created).toBe('number');
    const failed = logs.data.find((l: any) => l.request_id === bad.headers.get('x-request-id'));
    expect(failed).toMatchObject({ status: 400, error_code: 'amount_invalid' });

    const onlyErrors = await api.get('/v1/logs?status_class=4xx');
    expect(onlyErrors.body.data.every((l: any) => l.status >= 400 && l.status < 500)).toBe(true);
    expect(onlyErrors.body.data.length).toBeGreaterThan(0);
    const byPath = await api.get('/v1/logs?path=/v1/customers&method=post');
    expect(byPath.body.data.map((l: any) => l.request_id)).toEqual([ok.headers.get('x-request-id')]);
    const byRequest = await api.get(`/v1/logs?request_id=${bad.headers.get('x-request-id')}`);
    expect(byRequest.body.data).toHaveLength(1);
  });

  it('never stores keys, passwords or bodies', async () => {
    await client(server.url).post('/v1/merchants/login', {
      email: merchant.email,
      password: merchant.password,
    });
    await api.post('/v1/payments', {
      amount: 1000,
      currency: 'TZS',
      phone: '0700000003',
      description: 'secret recipe',
    });
    await server.services.requestLogs.flush();
    const rows = await server.database.pool.query('SELECT * FROM request_logs');
    const dump = JSON.stringify(rows.rows);
    for (const key of Object.values(merchant.keys)) expect(dump).not.toContain(key);
    expect(dump).not.toContain(merchant.password);
    expect(dump).not.toContain('secret recipe');
  });

  it('shows a merchant only its own requests, of its own mode', async () => {
    const other = client(server.url, (await signUp(server.url)).keys.secretTest);
    await other.get('/v1/balance');
    await server.services.requestLogs.flush();
    const mine = await api.get('/v1/logs?limit=100');
    expect(mine.body.data.some((l: any) => l.path === '/v1/balance')).toBe(false);
    const live = await client(server.url, merchant.keys.secretLive).get('/v1/logs');
    expect(live.body.data.every((l: any) => l.livemode === true)).toBe(true);
  });
});
