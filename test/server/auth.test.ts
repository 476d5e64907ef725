import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type Merchant } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { Redis } from 'ioredis';
import { createRateLimits } from '../../apps/server/src/infra/rate-limits.ts';

let server: RunningServer;
let merchant: Merchant;

beforeAll(async () => {
  server = await startTestServer();
  merchant = await signUp(server.url);
});
afterAll(() => server?.close());

describe('sign-up and keys', () => {
  it('returns four keys with the documented prefixes, stored only as hashes', async () => {
    const response = await client(server.url).post('/v1/merchants', {
      business_name: 'Hoteli ya Bahari',
      email: `owner-${randomUUID()}@bahari.tz`,
      password: 'a long passphrase',
    });
    expect(response.status).toBe(201);
    const keys = response.body.api_keys as Array<{ key: string; type: string; mode: string }>;
    expect(keys.map((k) => k.key.slice(0, 8)).sort()).toEqual([
      'pk_live_',
      'pk_test_',
      'sk_live_',
      'sk_test_',
    ]);
    for (const key of keys)
      expect(key.key).toMatch(
        new RegExp(`^${key.type === 'secret' ? 'sk' : 'pk'}_${key.mode}_[0-9A-Za-z]{32}$`),
      );
    const stored = await server.database.pool.query(
      'SELECT key_hash, masked FROM api_keys WHERE merchant_id = $1',
      [response.body.id],
    );
    const everything = JSON.stringify(stored.rows);
    for (const key of keys) expect(everything).not.toContain(key.key);
    const merchantRow = await server.database.pool.query(
      'SELECT password_hash FROM merchants WHERE id = $1',
      [response.body.id],
    );
    expect(merchantRow.rows[0].password_hash).toMatch(/^scrypt\$/);
  });

  it('refuses a second account with the same email and weak input', async () => {
    const taken = await client(server.url).post('/v1/merchants', {
      business_name: 'X',
      email: merchant.email.toUpperCase(),
      password: 'another password',
    });
    expect(taken.status).toBe(400);
    expect(taken.body.code).toBe('email_taken');
    const weak = await client(server.url).post('/v1/merchants', {
      business_name: 'X',
      email: 'not-an-email',
      password: 'short',
    });
    expect(weak.status).toBe(400);
    expect(Object.keys(weak.body.details).sort()).toEqual(['email', 'password']);
  });

  it('lists keys of both modes, masked', async () => {
    const listed = await client(server.url, merchant.keys.secretTest).get('/v1/api-keys');
    expect(listed.body.object).toBe('list');
    expect(listed.body.data).toHaveLength(4);
    expect(new Set(listed.body.data.map((k: { mode: string }) => k.mode))).toEqual(new Set(['test', 'live']));
    for (const key of listed.body.data) {
      expect(key.key).toContain('********');
      expect(Object.values(merchant.keys)).not.toContain(key.key);
    }
  });

  it('accepts the key as Bearer or X-API-Key', async () => {
    expect(
      (await client(server.url).get('/v1/balance', { 'X-API-Key': merchant.keys.secretTest })).status,
    ).toBe(200);
    expect((await client(server.url, merchant.keys.secretTest).get('/v1/balance')).status).toBe(200);
  });

  it('creates, rolls and revokes keys', async () => {
    const own = await signUp(server.url);
    const api = client(server.url, own.keys.secretTest);
    const created = await api.post('/v1/api-keys', { type: 'secret', name: 'backend' });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^sk_test_/);
    const extra = client(server.url, created.body.key);
    expect((await extra.get('/v1/balance')).status).toBe(200);

    const rolled = await api.post(`/v1/api-keys/${created.body.id}/roll`, {});
    expect(rolled.status).toBe(201);
    expect((await extra.get('/v1/balance')).status).toBe(401);
    expect((await client(server.url, rolled.body.key).get('/v1/balance')).status).toBe(200);

    const graceful = await api.post(`/v1/api-keys/${rolled.body.id}/roll`, { expires_in_hours: 2 });
    expect((await client(server.url, rolled.body.key).get('/v1/balance')).status).toBe(200);
    expect((await client(server.url, graceful.body.key).get('/v1/balance')).status).toBe(200);

    const revoked = await api.delete(`/v1/api-keys/${graceful.body.id}`);
    expect(revoked.body.status).toBe('revoked');
    expect((await client(server.url, graceful.body.key).get('/v1/balance')).status).toBe(401);
  });

  it('lists the keys of one mode, or of one status', async () => {
    const own = await signUp(server.url);
    const api = client(server.url, own.keys.secretTest);
    const created = await api.post('/v1/api-keys', { type: 'secret', name: 'old' });
    await api.post(`/v1/api-keys/${created.body.id}/roll`, {});
    const listed = async (query: string) =>
      (
        (await api.get(`/v1/api-keys?limit=100&${query}`)).body.data as Array<{
          mode: string;
          status: string;
        }>
      )
        .map((key) => `${key.mode} ${key.status}`)
        .sort();
    expect(await listed('mode=live')).toEqual(['live active', 'live active']);
    expect(await listed('mode=test')).toEqual(['test active', 'test active', 'test active', 'test revoked']);
    expect(await listed('mode=test&status=revoked')).toEqual(['test revoked']);
    const wrong = await api.get('/v1/api-keys?mode=staging');
    expect(wrong.status).toBe(400);
    expect(wrong.body.details).toHaveProperty('mode');
  });

  it('refuses to revoke the last active secret key of a mode, and to manage the other mode’s keys', async () => {
    const own = await signUp(server.url);
    const api = client(server.url, own.keys.secretTest);
    const keys = (await api.get('/v1/api-keys')).body.data as Array<{
      id: string;
      type: string;
      mode: string;
    }>;
    const secretTest = keys.find((k) => k.type === 'secret' && k.mode === 'test')!;
    const secretLive = keys.find((k) => k.type === 'secret' && k.mode === 'live')!;
    const last = await api.delete(`/v1/api-keys/${secretTest.id}`);
    expect(last.status).toBe(400);
    expect(last.body.code).toBe('api_key_last');
    const crossMode = await api.delete(`/v1/api-keys/${secretLive.id}`);
    expect(crossMode.status).toBe(403);
    expect((await api.post('/v1/api-keys', { type: 'secret', mode: 'live' })).status).toBe(403);
  });

  it('hides another merchant’s keys', async () => {
    const other = await signUp(server.url);
    const theirs = (await client(server.url, other.keys.secretTest).get('/v1/api-keys')).body.data[0];
    const attempt = await client(server.url, merchant.keys.secretTest).delete(`/v1/api-keys/${theirs.id}`);
    expect(attempt.status).toBe(404);
  });
});

describe('publishable keys', () => {
  it('may create a checkout and read only the checkouts it created', async () => {
    const pk = client(server.url, merchant.keys.publishableTest);
    const created = await pk.post('/v1/checkout', { amount: 15000, currency: 'TZS' });
    expect(created.status).toBe(201);
    expect(created.body.checkout_url).toBe(`${server.config.publicUrl}/pay/${created.body.id}`);
    expect((await pk.get(`/v1/checkout/${created.body.id}`)).status).toBe(200);
    const bySecret = await client(server.url, merchant.keys.secretTest).post('/v1/checkout', {
      amount: 100,
      currency: 'TZS',
    });
    expect((await pk.get(`/v1/checkout/${bySecret.body.id}`)).status).toBe(404);
  });

  it('gets 403 on everything else', async () => {
    const pk = client(server.url, merchant.keys.publishableTest);
    for (const [method, path] of [
      ['GET', '/v1/payments'],
      ['POST', '/v1/payments'],
      ['GET', '/v1/balance'],
      ['GET', '/v1/api-keys'],
      ['GET', '/v1/customers'],
    ] as const) {
      const response = await pk.request(
        method,
        path,
        method === 'POST' ? { amount: 1, currency: 'TZS', phone: '0700000001' } : undefined,
      );
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body).toMatchObject({ error: 'permission_error', code: 'publishable_key_forbidden' });
    }
  });
});

describe('login', () => {
  it('returns a session token that acts as the secret key of the mode asked for', async () => {
    const login = await client(server.url).post('/v1/merchants/login', {
      email: merchant.email,
      password: merchant.password,
      mode: 'live',
    });
    expect(login.status).toBe(200);
    expect(login.body.merchant.id).toBe(merchant.id);
    const session = client(server.url, login.body.token);
    const balance = await session.get('/v1/balance');
    expect(balance.body.livemode).toBe(true);
    const defaultMode = await client(server.url).post('/v1/merchants/login', {
      email: merchant.email,
      password: merchant.password,
    });
    expect((await client(server.url, defaultMode.body.token).get('/v1/balance')).body.livemode).toBe(false);
  });

  it('answers a wrong password and an unknown email alike', async () => {
    const wrong = await client(server.url).post('/v1/merchants/login', {
      email: merchant.email,
      password: 'wrong password!',
    });
    const unknown = await client(server.url).post('/v1/merchants/login', {
      email: 'nobody@example.tz',
      password: 'wrong password!',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('blocks an account after ten failed logins', async () => {
    const own = await signUp(server.url);
    for (let i = 0; i < 10; i++) {
      expect(
        (
          await client(server.url).post('/v1/merchants/login', {
            email: own.email,
            password: `guess number ${i}`,
          })
        ).status,
      ).toBe(401);
    }
    const blocked = await client(server.url).post('/v1/merchants/login', {
      email: own.email,
      password: own.password,
    });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('rate limits', () => {
  it('sends RateLimit headers on every /v1 response and 429 with Retry-After past the quota, per key', async () => {
    const limited = await startTestServer({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
    try {
      const own = await signUp(limited.url);
      const api = client(limited.url, own.keys.secretTest);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await api.get('/v1/balance');
        statuses.push(response.status);
        expect(response.headers.get('ratelimit-limit')).toBe('3');
        expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
        if (i < 3) expect(response.headers.get('ratelimit-remaining')).toBe(String(2 - i));
        else {
          expect(response.body).toMatchObject({ error: 'rate_limit_error', code: 'rate_limited' });
          expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await client(limited.url, own.keys.secretLive).get('/v1/balance')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('limits routes without a key per client address', async () => {
    const limited = await startTestServer({
      PUBLIC_RATE_LIMIT_MAX: '2',
      PUBLIC_RATE_LIMIT_WINDOW_SECONDS: '60',
    });
    try {
      const anonymous = client(limited.url);
      const body = { email: 'x@example.tz', password: 'whatever it is' };
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await anonymous.post('/v1/merchants/login', body)).status);
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await limited.close();
    }
  });

  it('shares one quota between server processes, in the database and in Redis', async () => {
    for (const store of [{}, { REDIS_URL: 'redis://127.0.0.1:6379' }] as Array<{ REDIS_URL?: string }>) {
      const prefix = `shared${randomUUID().slice(0, 8)}`;
      const env = {
        RATE_LIMIT_MAX: '4',
        RATE_LIMIT_WINDOW_SECONDS: '60',
        RATE_LIMIT_KEY_PREFIX: prefix,
        ...store,
      };
      if (process.env.TEST_DATABASE_URL) {
        // Two real server processes on one PostgreSQL database.
        const a = await startTestServer(env);
        const b = await startTestServer(env);
        try {
          const own = await signUp(a.url);
          const statuses = [];
          for (let i = 0; i < 6; i++)
            statuses.push(
              (await client(i % 2 ? b.url : a.url, own.keys.secretTest).get('/v1/balance')).status,
            );
          expect(statuses, JSON.stringify(store)).toEqual([200, 200, 200, 200, 429, 429]);
        } finally {
          await a.close();
          await b.close();
        }
      } else {
        // The embedded database belongs to one process: two limiter sets over its store stand in for two processes.
        const settings = {
          redisUrl: env.REDIS_URL,
          max: 4,
          windowSeconds: 60,
          publicMax: 4,
          publicWindowSeconds: 60,
          keyPrefix: prefix,
        };
        const a = createRateLimits(server.database, settings);
        const b = createRateLimits(server.database, settings);
        await Promise.all([a.ready, b.ready]);
        try {
          const outcomes = [];
          for (let i = 0; i < 6; i++) {
            outcomes.push((await (i % 2 ? b : a).perCredential.consume('key_x')).limited ? 'limited' : 'ok');
          }
          expect(outcomes, JSON.stringify(store)).toEqual(['ok', 'ok', 'ok', 'ok', 'limited', 'limited']);
        } finally {
          await a.close();
          await b.close();
        }
      }
      if (store.REDIS_URL) {
        // The counters were in Redis, not in the database standing in for it.
        const redis = new Redis(store.REDIS_URL);
        try {
          expect(await redis.keys(`${prefix}_key*`)).not.toHaveLength(0);
        } finally {
          redis.disconnect();
        }
      }
    }
  });
});
