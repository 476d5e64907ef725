import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '@tz/core';
import { client, signUp, startTestServer } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const login = (url: string, email: string, password: string) =>
  client(url).post('/v1/merchants/login', { email, password });

describe('login throttling', () => {
  it('checks at most ten passwords for an email from one address however many logins arrive at once', async () => {
    server = await startTestServer();
    const merchant = await signUp(server.url);
    const attempts = Array.from({ length: 100 }, (_, i) =>
      login(server!.url, merchant.email, i === 57 ? merchant.password : `guess number ${i}`),
    );
    const statuses = (await Promise.all(attempts)).map((response) => response.status);
    const checked = statuses.filter((status) => status !== 429);
    expect(checked.length).toBeLessThanOrEqual(10);
    expect(checked.every((status) => status === 401 || status === 200)).toBe(true);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(90);
  });

  it('gives a right password its check back, so a merchant’s own logins never lock it out', async () => {
    server = await startTestServer();
    const merchant = await signUp(server.url);
    for (let i = 0; i < 11; i++)
      expect((await login(server.url, merchant.email, merchant.password)).status).toBe(200);
    for (let i = 0; i < 9; i++)
      expect((await login(server.url, merchant.email, `wrong ${i}`)).status).toBe(401);
    expect((await login(server.url, merchant.email, merchant.password)).status).toBe(200);
  });

  it('charges failed logins to the client address too, across emails, up to its ceiling', async () => {
    // The ceiling is 200 by default; a configured 20 shows it without 200 logins.
    server = await startTestServer({ LOGIN_ATTEMPTS_PER_ADDRESS: '20' });
    const merchant = await signUp(server.url);
    // A stranger guessing at many accounts from one address: 20 failures in all.
    for (let i = 0; i < 20; i++) {
      const response = await login(server.url, `someone-${i}-${randomUUID()}@example.tz`, 'a guess at it');
      expect(response.status).toBe(401);
    }
    const next = await login(server.url, merchant.email, 'another guess');
    expect(next.status).toBe(429);
    expect(next.body).toMatchObject({ error: 'rate_limit_error', code: 'rate_limited' });
    expect(next.body.message).toMatch(/address/);
    expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(0);
    // The merchant's own email was never tried, so its counters are untouched: the address's refusal came first.
    const counted = await server.database.pool.query(
      `SELECT count(*)::int AS n FROM rate_limits WHERE key LIKE '%login%' || $1`,
      [merchant.email.toLowerCase()],
    );
    expect(counted.rows[0].n).toBe(0);
  });

  it('does not let twenty wrong passwords for one email lock out another owner behind the same address', async () => {
    server = await startTestServer();
    const [stranger, owner] = [await signUp(server.url), await signUp(server.url)];
    // Both behind one carrier-grade NAT address (every request here comes from 127.0.0.1).
    const strangers = [];
    for (let i = 0; i < 20; i++)
      strangers.push((await login(server.url, stranger.email, `wrong ${i}`)).status);
    expect(strangers.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(strangers.slice(10)).toEqual(Array(10).fill(429));
    const refused = await login(server.url, stranger.email, stranger.password);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/account/);

    expect((await login(server.url, owner.email, 'a slip of the finger')).status).toBe(401);
    expect((await login(server.url, owner.email, owner.password)).status).toBe(200);
  });

  it('checks at most LOGIN_ATTEMPTS_PER_EMAIL passwords for an email across many addresses at once', async () => {
    server = await startTestServer({ LOGIN_ATTEMPTS_PER_EMAIL: '12' });
    const email = `target-${randomUUID()}@example.tz`;
    let checks = 0;
    const wrong = () => {
      checks += 1;
      return Promise.reject(new AppError('credentials_invalid', 'wrong'));
    };
    // Forty addresses, three guesses each, all at once: each address's pair allows ten, the email twelve.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 120 }, (_, i) =>
        server!.services.loginThrottle.attempt(email, `198.51.100.${i % 40}`, wrong),
      ),
    );
    expect(checks).toBe(12);
    const codes = outcomes.map((o) => (o.status === 'rejected' ? (o.reason as AppError).code : 'ok'));
    expect(codes.filter((code) => code === 'credentials_invalid')).toHaveLength(12);
    expect(codes.filter((code) => code === 'rate_limited')).toHaveLength(108);
  });
});
