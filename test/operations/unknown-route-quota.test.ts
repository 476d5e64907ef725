import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type Merchant } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';

let server: RunningServer;
let merchant: Merchant;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_RATE_LIMIT_MAX: '4', PUBLIC_RATE_LIMIT_WINDOW_SECONDS: '60' });
  merchant = await signUp(server.url); // one point of the address's four
});
afterAll(() => server?.close());

describe('a request to an unknown route', () => {
  it('counts against the valid key it carries, not the address quota that sign-up shares', async () => {
    const misconfigured = client(server.url, merchant.keys.secretTest);
    for (let i = 0; i < 6; i++) {
      const response = await misconfigured.get('/v1/paymentz');
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ error: 'not_found', code: 'route_not_found' });
      expect(response.headers.get('ratelimit-limit')).toBe('10000'); // the key's quota
    }
    const stranger = await client(server.url).post('/v1/merchants', {
      business_name: 'Duka Jipya',
      email: `new-${randomUUID()}@example.tz`,
      password: 'a long passphrase',
    });
    expect(stranger.status).toBe(201);
    // The merchant sees its client's mistakes in its request log.
    await server.services.requestLogs.flush();
    const logged = await misconfigured.get('/v1/logs?path=/v1/paymentz&limit=100');
    expect(logged.body.data).toHaveLength(6);
  });

  it('without a valid key, counts against the address', async () => {
    const anonymous = client(server.url, 'sk_test_notarealkeynotarealkeynotareal');
    const response = await anonymous.get('/v1/nowhere');
    expect(response.status).toBe(404);
    expect(response.headers.get('ratelimit-limit')).toBe('4');
  });
});
