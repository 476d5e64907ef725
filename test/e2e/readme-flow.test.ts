import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventually, TEST_SECRETS_KEY } from '../support/server.ts';
import { freePort } from '../support/process.ts';
import { ensureWebBuild } from '../../apps/desktop/scripts/ensure-web-build.ts';

/**
 * Starts the server the way the README says (`npm start`), as its own
 * process, and walks a merchant's first session over real HTTP.
 */
const root = path.resolve(import.meta.dirname, '../..');
let child: ChildProcess;
let base: string;
let dataDir: string;
let output = '';
let exited: Promise<void>;

beforeAll(async () => {
  const port = await freePort();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'tz-e2e-'));
  base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    DATA_DIR: dataDir,
    RATE_LIMIT_MAX: '50',
    RATE_LIMIT_WINDOW_SECONDS: '60',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  // PostgreSQL needs the secrets key (README "Configuration"); the embedded database makes its own.
  if (process.env.TEST_DATABASE_URL) {
    env.DATABASE_URL = process.env.TEST_DATABASE_URL;
    env.SECRETS_KEY = TEST_SECRETS_KEY;
  }
  // `npm start` builds the till and the back office first when their builds are stale: built here,
  // under the lock every test file building them takes, so that the start below finds them current.
  await ensureWebBuild();
  await ensureWebBuild(() => undefined, 'office');
  child = spawn('npm', ['start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  exited = new Promise((resolve) => child.once('exit', () => resolve()));
  // Compiling the server on a busy machine takes a while: how long is not what this file tests.
  await eventually(async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.ok, 150_000).catch(
    () => {
      throw new Error(`server did not start:\n${output}`);
    },
  );
}, 240_000);

afterAll(async () => {
  if (child?.pid) {
    process.kill(-child.pid, 'SIGTERM');
    // The server lets go of its data directory as it exits.
    const killed = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000);
    await exited;
    clearTimeout(killed);
  }
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

describe('a merchant’s first session against `npm start`', () => {
  it('signs up, pays with each sandbox number, and reads ledger and balance', async () => {
    const signup = await client(base).post('/v1/merchants', {
      business_name: 'Duka la Juma',
      email: `juma-${Date.now()}@example.tz`,
      password: 'kariakoo market 2026',
    });
    expect(signup.status).toBe(201);
    const key = signup.body.api_keys.find((k: any) => k.type === 'secret' && k.mode === 'test').key;
    const api = client(base, key);

    const outcomes: Record<string, string> = {};
    for (const phone of ['0700000001', '0700000002', '0700000003']) {
      const created = await api.post('/v1/payments', {
        amount: 25_000,
        currency: 'TZS',
        phone,
        description: 'Mchele 5kg',
      });
      expect(created.status).toBe(201);
      outcomes[phone] = created.body.id;
    }
    const paid = await eventually(async () => {
      const r = await api.get(`/v1/payments/${outcomes['0700000001']}`);
      return r.body.status === 'paid' ? r.body : undefined;
    });
    expect(paid.fee + paid.net).toBe(25_000);
    const failed = await eventually(async () => {
      const r = await api.get(`/v1/payments/${outcomes['0700000002']}`);
      return r.body.status === 'failed' ? r.body : undefined;
    });
    expect(failed.failure_code).toBe('insufficient_funds');
    expect((await api.get(`/v1/payments/${outcomes['0700000003']}`)).body.status).toBe('pending');

    const transactions = await api.get('/v1/transactions?limit=10');
    expect(transactions.body.data).toHaveLength(1);
    expect(transactions.body.data[0]).toMatchObject({ source: paid.id, amount: 25_000, net: paid.net });
    const balance = await api.get('/v1/balance');
    expect(balance.body.available).toEqual([{ amount: paid.net, currency: 'TZS' }]);
  });

  it('enforces idempotency, rate limits, errors and isolation over real HTTP', async () => {
    const signup = async (name: string) =>
      (
        await client(base).post('/v1/merchants', {
          business_name: name,
          email: `${name}-${Date.now()}@example.tz`,
          password: 'a good long password',
        })
      ).body.api_keys.find((k: any) => k.type === 'secret' && k.mode === 'test').key as string;
    const a = client(base, await signup('a'));
    const b = client(base, await signup('b'));

    const body = { amount: 1000, currency: 'TZS', phone: '0700000003' };
    const first = await a.post('/v1/payments', body, { 'Idempotency-Key': 'e2e-1' });
    const replay = await a.post('/v1/payments', body, { 'Idempotency-Key': 'e2e-1' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    expect(
      (await a.post('/v1/payments', { ...body, amount: 2 }, { 'Idempotency-Key': 'e2e-1' })).status,
    ).toBe(422);

    const bad = await a.post('/v1/payments', { ...body, amount: 1.5 });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toHaveProperty('amount');

    expect((await b.get(`/v1/payments/${first.body.id}`)).status).toBe(404);

    let limited;
    for (let i = 0; i < 60 && !limited; i++) {
      const r = await b.get('/v1/balance');
      expect(r.headers.get('ratelimit-limit')).toBe('50');
      if (r.status === 429) limited = r;
    }
    expect(limited?.body.code).toBe('rate_limited');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('runs the README’s first session as written, leaving no key in the directory it runs in', async () => {
    const readme = await readFile(path.join(root, 'README.md'), 'utf8');
    const session = /## A first session with curl\s+```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(session).toBeDefined();
    const script = session!
      .replace('B=http://127.0.0.1:4000', `B=${base}`)
      .replace('juma@example.tz', `juma-readme-${Date.now()}@example.tz`);
    // A fresh directory stands in for the checkout the reader runs it from.
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'tz-readme-'));
    try {
      const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd });
      expect(stdout).toMatch(/"sk_live_[0-9A-Za-z]{32}"/); // shown once, on the terminal
      expect(stdout).toMatch(/"object":"payment"/); // step 2 ran with the key taken from step 1
      expect(stdout).toMatch(/"object":"balance"/);
      expect(await readdir(cwd)).toEqual([]);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
