import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type Merchant } from '../support/server.ts';
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

const body = { amount: 2500, currency: 'TZS', phone: '0700000003' };
const countPayments = async (merchantId: string) =>
  (
    await server.database.pool.query('SELECT count(*)::int AS n FROM payments WHERE merchant_id = $1', [
      merchantId,
    ])
  ).rows[0].n as number;

describe('Idempotency-Key', () => {
  it('replays the stored response for a repeated Idempotency-Key', async () => {
    const first = await api.post('/v1/payments', body, { 'Idempotency-Key': 'order-1001' });
    const second = await api.post('/v1/payments', { ...body }, { 'Idempotency-Key': 'order-1001' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
  });

  it('treats the same body with keys in another order as the same request', async () => {
    const a = await api.post(
      '/v1/payments',
      { phone: body.phone, currency: 'TZS', amount: 2500 },
      { 'Idempotency-Key': 'reorder' },
    );
    const b = await api.post('/v1/payments', body, { 'Idempotency-Key': 'reorder' });
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.id).toBe(a.body.id);
  });

  it('answers 422 when the key is reused with a different body', async () => {
    await api.post('/v1/payments', body, { 'Idempotency-Key': 'k-422' });
    const reused = await api.post('/v1/payments', { ...body, amount: 2501 }, { 'Idempotency-Key': 'k-422' });
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ error: 'idempotency_error', code: 'idempotency_key_reused' });
  });

  it('answers 400 idempotency_key_too_long for a key over 255 characters and stores nothing', async () => {
    const before = await countPayments(merchant.id);
    const long = await api.post('/v1/payments', body, { 'Idempotency-Key': 'x'.repeat(256) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: 'invalid_request_error', code: 'idempotency_key_too_long' });
    expect(await countPayments(merchant.id)).toBe(before);
    const exact = await api.post('/v1/payments', body, { 'Idempotency-Key': 'y'.repeat(255) });
    expect(exact.status).toBe(201);
  });

  it('does not store validation failures: the key stays free for a corrected request', async () => {
    const bad = await api.post('/v1/payments', { ...body, amount: -5 }, { 'Idempotency-Key': 'fix-me' });
    expect(bad.status).toBe(400);
    const good = await api.post('/v1/payments', body, { 'Idempotency-Key': 'fix-me' });
    expect(good.status).toBe(201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
  });

  it('scopes keys by merchant, mode and path', async () => {
    const other = client(server.url, (await signUp(server.url)).keys.secretTest);
    const mine = await api.post('/v1/payments', body, { 'Idempotency-Key': 'shared-key' });
    const theirs = await other.post('/v1/payments', body, { 'Idempotency-Key': 'shared-key' });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    const customer = await api.post('/v1/customers', { name: 'Asha' }, { 'Idempotency-Key': 'shared-key' });
    expect(customer.status).toBe(201);
    expect(customer.body.object).toBe('customer');
  });

  it('creates exactly one payment for 50 concurrent requests with one key', async () => {
    const fresh = await signUp(server.url);
    const own = client(server.url, fresh.keys.secretTest);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => own.post('/v1/payments', body, { 'Idempotency-Key': 'burst' })),
    );
    expect(await countPayments(fresh.id)).toBe(1);
    const statuses = responses.map((r) => r.status);
    for (const status of statuses) expect([201, 409]).toContain(status);
    const created = responses.filter((r) => r.status === 201);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const conflict of responses.filter((r) => r.status === 409)) {
      expect(conflict.body).toMatchObject({ error: 'idempotency_error', code: 'idempotency_key_in_use' });
    }
    const after = await own.post('/v1/payments', body, { 'Idempotency-Key': 'burst' });
    expect(after.headers.get('idempotent-replayed')).toBe('true');
    expect(after.body.id).toBe(created[0]!.body.id);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const scope = [merchant.id, false, 'POST /v1/payments', 'in-flight', 'hash', 'running'];
    await server.database.pool.query(
      `INSERT INTO idempotency_keys (merchant_id, livemode, operation, key, request_hash, state) VALUES ($1,$2,$3,$4,$5,$6)`,
      scope,
    );
    const hashOf = (await import('../../apps/server/src/infra/idempotency.ts')).requestHash;
    await server.database.pool.query(
      `UPDATE idempotency_keys SET request_hash = $1 WHERE key = 'in-flight'`,
      [hashOf(body)],
    );
    const before = await countPayments(merchant.id);
    const busy = await api.post('/v1/payments', body, { 'Idempotency-Key': 'in-flight' });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('idempotency_key_in_use');
    // The write went out with the claim, before its answer: it must have rolled back.
    expect(await countPayments(merchant.id)).toBe(before);
    const events = await server.database.pool.query(
      `SELECT count(*)::int AS n FROM events WHERE merchant_id = $1 AND type = 'payment.created'`,
      [merchant.id],
    );
    expect(events.rows[0].n).toBe(before);
  });

  it('rolls back the write of a request that answers 422 or replays', async () => {
    await api.post('/v1/payments', body, { 'Idempotency-Key': 'settled-key' });
    const before = await countPayments(merchant.id);
    const reused = await api.post(
      '/v1/payments',
      { ...body, amount: 2600 },
      { 'Idempotency-Key': 'settled-key' },
    );
    expect(reused.status).toBe(422);
    const replayed = await api.post('/v1/payments', body, { 'Idempotency-Key': 'settled-key' });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await countPayments(merchant.id)).toBe(before);
  });

  it('lets only the holder of a claim complete the key, so a request whose claim was taken over commits nothing', async () => {
    const scope = [merchant.id, false, 'POST /v1/payments', 'taken-over'];
    const claim = (token: string) =>
      server.database.pool.query(`SELECT * FROM claim_idempotency_key($1, $2, $3, $4, 'h', 24, $5)`, [
        ...scope,
        token,
      ]);
    expect((await claim('first')).rows[0].outcome).toBe('claimed');
    // The first holder stalls past the abandonment limit; a retry takes the key over.
    await server.database.pool.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '3 minutes' WHERE merchant_id = $1 AND key = 'taken-over'`,
      [merchant.id],
    );
    expect((await claim('second')).rows[0].outcome).toBe('claimed');
    const complete = (token: string) =>
      server.database.transaction(async (tx) => {
        await tx.query(`SELECT complete_idempotency_key($1, $2, $3, $4, $5, 201, '{}')`, [...scope, token]);
      });
    await expect(complete('first')).rejects.toMatchObject({ code: 'TZ409' });
    await complete('second');
    expect((await claim('third')).rows[0].outcome).toBe('replay');
  });

  it('lets a new request take over a claim abandoned by a process that died mid-request', async () => {
    await server.database.pool.query(
      `INSERT INTO idempotency_keys (merchant_id, livemode, operation, key, request_hash, state, created_at)
       VALUES ($1, false, 'POST /v1/payments', 'orphaned', 'whatever', 'running', now() - interval '10 minutes')`,
      [merchant.id],
    );
    const taken = await api.post('/v1/payments', body, { 'Idempotency-Key': 'orphaned' });
    expect(taken.status).toBe(201);
    expect(taken.headers.get('idempotent-replayed')).toBeNull();
    const replay = await api.post('/v1/payments', body, { 'Idempotency-Key': 'orphaned' });
    expect(replay.body.id).toBe(taken.body.id);
  });

  it('keeps keys for at least 24 hours and treats older ones as new', async () => {
    const first = await api.post('/v1/payments', body, { 'Idempotency-Key': 'aging' });
    await server.database.pool.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '23 hours' WHERE key = 'aging' AND merchant_id = $1`,
      [merchant.id],
    );
    const replay = await api.post('/v1/payments', body, { 'Idempotency-Key': 'aging' });
    expect(replay.body.id).toBe(first.body.id);
    await server.database.pool.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'aging' AND merchant_id = $1`,
      [merchant.id],
    );
    const fresh = await api.post('/v1/payments', body, { 'Idempotency-Key': 'aging' });
    expect(fresh.status).toBe(201);
    expect(fresh.body.id).not.toBe(first.body.id);
  });
});
