import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type ApiResponse, type Merchant } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';

let server: RunningServer;
let merchant: Merchant;

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_DISPATCH: 'false' });
  merchant = await signUp(server.url);
});
afterAll(() => server?.close());

const SECRET = /^(sk|pk)_(test|live)_[0-9A-Za-z]{32}$|^sess_(test|live)_[0-9A-Za-z]{40}$|^whsec_/;

/** Sends a request twice with one Idempotency-Key: the first answer and its replay. */
async function sentTwice(
  key: string | undefined,
  method: 'POST' | 'DELETE',
  path: string,
  body: unknown,
): Promise<[ApiResponse, ApiResponse]> {
  const headers = { 'Idempotency-Key': `secret-${randomUUID()}` };
  const api = client(server.url, key);
  const first = await api.request(method, path, body, headers);
  const replay = await api.request(method, path, body, headers);
  return [first, replay];
}

describe('responses that show a secret once', () => {
  it('never store the secret, and replay it masked (keys, tokens) or not at all (webhook secrets)', async () => {
    const secrets: string[] = [];
    const sk = merchant.keys.secretTest;

    const [signedUp, signUpReplay] = await sentTwice(undefined, 'POST', '/v1/merchants', {
      business_name: 'Duka la Siri',
      email: `siri-${randomUUID()}@example.tz`,
      password: 'a long passphrase',
    });
    expect(signedUp.status).toBe(201);
    const fullKeys = signedUp.body.api_keys.map((k: { key: string }) => k.key);
    secrets.push(...fullKeys);
    expect(signUpReplay.status).toBe(201);
    expect(signUpReplay.headers.get('idempotent-replayed')).toBe('true');
    expect(signUpReplay.body.id).toBe(signedUp.body.id);
    signUpReplay.body.api_keys.forEach((k: { key: string; id: string }, i: number) => {
      expect(k.id).toBe(signedUp.body.api_keys[i].id);
      expect(k.key).toContain('********');
      expect(k.key.slice(0, 8)).toBe(fullKeys[i].slice(0, 8));
    });

    const [loggedIn, loginReplay] = await sentTwice(undefined, 'POST', '/v1/merchants/login', {
      email: merchant.email,
      password: merchant.password,
    });
    expect(loggedIn.status).toBe(200);
    secrets.push(loggedIn.body.token);
    expect(loginReplay.headers.get('idempotent-replayed')).toBe('true');
    expect(loginReplay.body.token).toContain('********');
    expect((await client(server.url, loginReplay.body.token).get('/v1/balance')).status).toBe(401);
    expect((await client(server.url, loggedIn.body.token).get('/v1/balance')).status).toBe(200);

    const [created, createReplay] = await sentTwice(sk, 'POST', '/v1/api-keys', { type: 'secret' });
    expect(created.status).toBe(201);
    secrets.push(created.body.key);
    expect(createReplay.body).toEqual({ ...created.body, key: expect.stringContaining('********') });

    const [rolled, rollReplay] = await sentTwice(sk, 'POST', `/v1/api-keys/${created.body.id}/roll`, {});
    expect(rolled.status).toBe(201);
    secrets.push(rolled.body.key);
    expect(rollReplay.body.key).toContain('********');

    const [endpoint, endpointReplay] = await sentTwice(sk, 'POST', '/v1/webhooks', {
      url: 'http://127.0.0.1:9/hooks',
      events: ['*'],
    });
    expect(endpoint.status).toBe(201);
    secrets.push(endpoint.body.secret);
    expect(endpointReplay.body.id).toBe(endpoint.body.id);
    expect(endpointReplay.body).not.toHaveProperty('secret');

    const [rotated, rotateReplay] = await sentTwice(
      sk,
      'POST',
      `/v1/webhooks/${endpoint.body.id}/rotate-secret`,
      {},
    );
    expect(rotated.status).toBe(200);
    secrets.push(rotated.body.secret);
    expect(rotateReplay.body).not.toHaveProperty('secret');

    for (const secret of secrets) expect(secret).toMatch(SECRET);
    // No table holds any of them in clear, the endpoint's signing secrets included (sealed: docs/WEBHOOKS.md).
    const tables = await server.database.pool.query<{ name: string }>(
      `SELECT quote_ident(table_name) AS name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    expect(tables.rows.map((t) => t.name)).toEqual(
      expect.arrayContaining(['idempotency_keys', 'webhook_endpoints']),
    );
    // A whsec_ secret is also looked for without its prefix (the base64 of its key bytes).
    const patterns = secrets.flatMap((secret) => [`%${secret}%`, `%${secret.replace(/^whsec_/, '')}%`]);
    for (const { name } of tables.rows) {
      const found = await server.database.pool.query(
        `SELECT count(*)::int AS n FROM ${name} t WHERE t::text LIKE ANY($1)`,
        [patterns],
      );
      expect(found.rows[0].n, name).toBe(0);
    }
  });
});
