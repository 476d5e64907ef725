import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, formatReceiptNumber } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, signUp, startTestServer, type Merchant } from '../support/server.ts';
import type { Api } from '../support/retail.ts';
import { makeTill, pairedTill, refusal } from '../support/tills.ts';

let server: RunningServer;
let merchant: Merchant;
let api: Api;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: 'https://pos.example.tz' });
  merchant = await signUp(server.url, { business_name: 'Duka la Baraka' });
  api = client(server.url, merchant.keys.secretTest);
});
afterAll(() => server?.close());

describe('creating and pairing a till', () => {
  it('answers a till with its prefix, a one-time pairing code and a pairing URL on PUBLIC_URL', async () => {
    const store = (await api.post('/v1/retail/stores', { name: 'Tawi la Mwenge' })).body;
    const response = await api.post('/v1/tills', { name: 'Kaunta ya Mbele', store: store.id });
    expect(response.status).toBe(201);
    const till = response.body;
    expect(till).toMatchObject({
      object: 'till',
      name: 'Kaunta ya Mbele',
      store: store.id,
      status: 'unpaired',
      livemode: false,
      last_seen: null,
      backlog: null,
    });
    expect(till.id).toMatch(/^till_/);
    expect(till.receipt_prefix).toMatch(/^T\d{2}$/);
    expect(till.pairing_code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(till.pairing_url).toBe(`https://pos.example.tz/till/?pair=${till.pairing_code}`);
    expect(till.pairing_expires_at - till.created).toBeGreaterThanOrEqual(15 * 60 - 1);
    expect(till.pairing_expires_at - till.created).toBeLessThanOrEqual(15 * 60 + 1);
    // The code is stored only as a hash.
    const stored = await server.database.pool.query(`SELECT * FROM tills WHERE id = $1`, [till.id]);
    expect(JSON.stringify(stored.rows[0])).not.toContain(till.pairing_code);
    const retrieved = await api.get(`/v1/tills/${till.id}`);
    expect(retrieved.body).not.toHaveProperty('pairing_code');
  });

  it('gives each till of an account and mode its own prefix, T01, T02, …, and the other mode its own series', async () => {
    const fresh = await signUp(server.url);
    const test = client(server.url, fresh.keys.secretTest);
    const live = client(server.url, fresh.keys.secretLive);
    const prefixes: string[] = [];
    for (let i = 0; i < 3; i++) prefixes.push((await makeTill(test, { name: `Kaunta ${i}` })).receipt_prefix);
    expect(prefixes).toEqual(['T01', 'T02', 'T03']);
    expect((await makeTill(live)).receipt_prefix).toBe('T01');
    // Revoking a till never frees its prefix: its receipts are out there.
    const tills = (await test.get('/v1/tills')).body.data;
    await test.delete(`/v1/tills/${tills[0].id}`);
    expect((await makeTill(test)).receipt_prefix).toBe('T04');
    expect(formatReceiptNumber(prefixes[1]!, 7)).toBe('T02-000007');
  });

  it('exchanges a pairing code once for a device credential that authenticates as the till', async () => {
    const till = await makeTill(api);
    const paired = await server.services.tills.pair(server.database.pool, till.pairing_code.toLowerCase());
    expect(paired.credential).toMatch(/^tilld_[0-9A-Za-z]{40}$/);
    expect(paired).toMatchObject({
      till: { id: till.id, status: 'paired' },
      store: { id: till.store, object: 'store' },
      merchant: { id: merchant.id, business_name: 'Duka la Baraka' },
      mode: 'test',
      livemode: false,
    });
    const auth = await server.services.tills.authenticate(server.database.pool, paired.credential);
    expect(auth).toEqual({
      status: 'ok',
      till: {
        kind: 'till',
        keyType: 'secret',
        credentialId: till.id,
        merchantId: merchant.id,
        livemode: false,
        tillId: till.id,
        storeId: till.store,
      },
    });
    // Stored hashed, and never an API key.
    const stored = await server.database.pool.query(`SELECT * FROM tills WHERE id = $1`, [till.id]);
    expect(JSON.stringify(stored.rows[0])).not.toContain(paired.credential);
    expect((await client(server.url, paired.credential).get('/v1/tills')).status).toBe(401);

    const again = await refusal(server.services.tills.pair(server.database.pool, till.pairing_code));
    expect(again.code).toBe('pairing_code_used');
    expect((await api.get(`/v1/tills/${till.id}`)).body.status).toBe('paired');
  });

  it('refuses an expired code and an unknown one, each with its own code', async () => {
    const till = await makeTill(api);
    const later = new Date(Date.now() + 15 * 60_000 + 1_000);
    expect(
      (await refusal(server.services.tills.pair(server.database.pool, till.pairing_code, later))).code,
    ).toBe('pairing_code_expired');
    expect((await refusal(server.services.tills.pair(server.database.pool, 'ZZZZ-ZZZZ-ZZZZ'))).code).toBe(
      'pairing_code_invalid',
    );
    // Just inside the 15 minutes it still pairs.
    const inside = new Date(Date.now() + 14 * 60_000);
    expect((await server.services.tills.pair(server.database.pool, till.pairing_code, inside)).till.id).toBe(
      till.id,
    );
  });

  it('takes the code lifetime from TILL_PAIRING_TTL_MINUTES', async () => {
    const short = await startTestServer({ TILL_PAIRING_TTL_MINUTES: '2' });
    try {
      const owner = client(short.url, (await signUp(short.url)).keys.secretTest);
      const till = await makeTill(owner);
      expect(till.pairing_expires_at - till.created).toBeLessThanOrEqual(2 * 60 + 1);
      const later = new Date(Date.now() + 3 * 60_000);
      expect(
        (await refusal(short.services.tills.pair(short.database.pool, till.pairing_code, later))).code,
      ).toBe('pairing_code_expired');
    } finally {
      await short.close();
    }
  });

  it('keeps no pairing code at rest for a replay: a repeated create shows the till without it', async () => {
    const first = await api.post('/v1/tills', { name: 'Kaunta ya pili' }, { 'Idempotency-Key': 'till-once' });
    expect(first.body.pairing_code).toEqual(expect.any(String));
    const replay = await api.post(
      '/v1/tills',
      { name: 'Kaunta ya pili' },
      { 'Idempotency-Key': 'till-once' },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toMatchObject({ id: first.body.id, receipt_prefix: first.body.receipt_prefix });
    expect(replay.body.pairing_code).toBeUndefined();
    const stored = await server.database.pool.query(
      `SELECT response_body::text AS body FROM idempotency_keys WHERE key = 'till-once'`,
    );
    expect(stored.rows[0].body).not.toContain(first.body.pairing_code);
  });

  it('lets only one of several devices racing with one code pair', async () => {
    const till = await makeTill(api);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => server.services.tills.pair(server.database.pool, till.pairing_code)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
  });
});

describe('re-pairing and revoking', () => {
  it('moves a till to the device that exchanges a new code; the old credential stops then', async () => {
    const { till, credential: first } = await pairedTill(server, api);
    const renewed = await api.post(`/v1/tills/${till.id}/pairing-code`);
    expect(renewed.status).toBe(200);
    expect(renewed.body.pairing_code).not.toBe(till.pairing_code);
    // The old code stopped working; the old credential still works until the new code is used.
    expect((await refusal(server.services.tills.pair(server.database.pool, till.pairing_code))).code).toBe(
      'pairing_code_invalid',
    );
    expect((await server.services.tills.authenticate(server.database.pool, first)).status).toBe('ok');
    const second = await server.services.tills.pair(server.database.pool, renewed.body.pairing_code);
    expect((await server.services.tills.authenticate(server.database.pool, first)).status).toBe('invalid');
    expect((await server.services.tills.authenticate(server.database.pool, second.credential)).status).toBe(
      'ok',
    );
  });

  it('revokes a till: its credential says revoked (not unknown) and its code no longer pairs', async () => {
    const { till, credential } = await pairedTill(server, api);
    const renewed = await api.post(`/v1/tills/${till.id}/pairing-code`);
    const revoked = await api.delete(`/v1/tills/${till.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: till.id, status: 'revoked' });
    expect(revoked.body.revoked_at).toEqual(expect.any(Number));
    expect(await server.services.tills.authenticate(server.database.pool, credential)).toMatchObject({
      status: 'revoked',
      till: { tillId: till.id },
    });
    expect((await refusal(server.services.tills.require(server.database.pool, credential))).code).toBe(
      'till_revoked',
    );
    expect(
      (await refusal(server.services.tills.pair(server.database.pool, renewed.body.pairing_code))).code,
    ).toBe('till_revoked');
    // Revoking again changes nothing; a revoked till cannot be given a new code.
    const again = await api.delete(`/v1/tills/${till.id}`);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    const code = await api.post(`/v1/tills/${till.id}/pairing-code`);
    expect(code.status).toBe(400);
    expect(code.body.code).toBe('state_transition_invalid');
  });

  it('tells an unknown credential from a revoked one', async () => {
    expect(await server.services.tills.authenticate(server.database.pool, `tilld_${'a'.repeat(40)}`)).toEqual(
      {
        status: 'invalid',
      },
    );
    expect(await server.services.tills.authenticate(server.database.pool, merchant.keys.secretTest)).toEqual({
      status: 'invalid',
    });
    const error = await refusal(server.services.tills.require(server.database.pool, 'tilld_nope'));
    expect(error.code).toBe('till_credential_invalid');
    expect(error).toBeInstanceOf(AppError);
  });
});

describe('what a till reports', () => {
  it('shows last_seen, backlog and app_version on GET /v1/tills/{id}', async () => {
    const { till, actor } = await pairedTill(server, api);
    const before = Math.floor(Date.now() / 1000);
    await server.services.tills.report(server.database.pool, actor, { app_version: '1.4.2', backlog: 17 });
    const shown = (await api.get(`/v1/tills/${till.id}`)).body;
    expect(shown).toMatchObject({ status: 'paired', app_version: '1.4.2', backlog: 17 });
    expect(shown.last_seen).toBeGreaterThanOrEqual(before);
    const list = await api.get('/v1/tills?limit=100');
    expect(list.body.data.find((entry: { id: string }) => entry.id === till.id)).toMatchObject({
      backlog: 17,
    });
  });

  it('refuses reports from a revoked till', async () => {
    const { till, actor } = await pairedTill(server, api);
    await api.delete(`/v1/tills/${till.id}`);
    const error = await refusal(
      server.services.tills.report(server.database.pool, actor, { app_version: '1.0.0', backlog: 0 }),
    );
    expect(error.code).toBe('till_revoked');
  });
});

describe('validation and isolation', () => {
  it('names the field of a bad till body', async () => {
    const missing = await api.post('/v1/tills', {});
    expect(missing.status).toBe(400);
    expect(missing.body.details).toHaveProperty('name');
    const other = client(server.url, (await signUp(server.url)).keys.secretTest);
    const otherStore = (await other.post('/v1/retail/stores', { name: 'Tawi' })).body;
    const foreign = await api.post('/v1/tills', { name: 'Kaunta', store: otherStore.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body.details).toEqual({ store: 'is not a store of this account' });
  });

  it('answers 404 for another merchant’s or the other mode’s till', async () => {
    const till = await makeTill(api);
    const stranger = client(server.url, (await signUp(server.url)).keys.secretTest);
    const live = client(server.url, merchant.keys.secretLive);
    for (const other of [stranger, live]) {
      expect((await other.get(`/v1/tills/${till.id}`)).status).toBe(404);
      expect((await other.post(`/v1/tills/${till.id}/pairing-code`)).status).toBe(404);
      expect((await other.delete(`/v1/tills/${till.id}`)).status).toBe(404);
      expect(JSON.stringify((await other.get('/v1/tills')).body)).not.toContain(till.id);
    }
  });
});
