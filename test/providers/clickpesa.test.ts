import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventually, signUp, startTestServer } from '../support/server.ts';
import { throwingLogger } from '../support/logger.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { clickPesaOptionsFrom, type ClickPesaProvider } from '../../apps/server/src/providers/clickpesa.ts';
import { reconcilePendingClickPesa } from '../../apps/server/src/providers/clickpesa-reconciler.ts';
import { NUMBERS_OF_EVERY_RANGE } from '../support/phones.ts';
import {
  FAKE_PHONES,
  fakeChecksum,
  startFakeClickPesa,
  providerEnvFor,
  type FakeClickPesa,
} from './clickpesa-fake.ts';

const credentials = {
  clientId: 'IDclickpesatest',
  apiKey: 'SKclickpesatest',
  checksumKey: 'CHKclickpesatest',
};
const providerEnv = (baseUrl: string) => providerEnvFor(baseUrl, credentials);

let fake: FakeClickPesa;
let server: RunningServer;
let live: ReturnType<typeof client>;
let callbackUrl: string;

beforeAll(async () => {
  fake = await startFakeClickPesa(credentials);
  server = await startTestServer(providerEnv(fake.url));
  callbackUrl = `${server.url}/callbacks/clickpesa`;
  fake.setCallbackUrl(callbackUrl);
  live = client(server.url, (await signUp(server.url)).keys.secretLive);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const pay = async (phone: string, amount = 10_000, currency = 'TZS') => {
  const created = await live.post('/v1/payments', { amount, currency, phone });
  expect(created.status).toBe(201);
  return created.body as { id: string; status: string; livemode: boolean };
};
const settled = (id: string) =>
  eventually(async () => {
    const r = await live.get(`/v1/payments/${id}`);
    return r.body.status !== 'pending' ? r.body : undefined;
  });
/** Waits for something the fake records in memory. */
const soon = <T>(get: () => T | undefined) => eventually(() => Promise.resolve(get()));
const orderReference = (id: string) => id.replace('_', '');
const eventTypes = async (id: string) =>
  (
    await server.database.pool.query<{ type: string }>(
      `SELECT type FROM events WHERE data->'object'->>'id' = $1 ORDER BY seq`,
      [id],
    )
  ).rows.map((r) => r.type);
const ledgerRows = async (id: string) =>
  (
    await server.database.pool.query(
      'SELECT amount, fee, net FROM ledger_transactions WHERE source_id = $1',
      [id],
    )
  ).rows;
const postCallback = (body: unknown, headers: Record<string, string> = {}) =>
  client(server.url).post('/callbacks/clickpesa', body, headers);
const initiationOf = (id: string) =>
  fake.requests.find(
    (r) =>
      r.path === '/third-parties/payments/initiate-ussd-push-request' &&
      r.body?.orderReference === orderReference(id),
  );

describe('ClickPesa live payments against a local fake of the provider', () => {
  it('sends a checksummed USSD push with a bearer token and goes pending -> paid through the signed callback', async () => {
    const created = await pay('0754 000 001');
    expect(created).toMatchObject({ status: 'pending', livemode: true });

    const initiation = await soon(() => initiationOf(created.id));
    expect(initiation.problem).toBeUndefined();
    expect(initiation.headers.authorization).toMatch(/^Bearer tok1\./);
    expect(initiation.body).toEqual({
      amount: '10000',
      currency: 'TZS',
      orderReference: orderReference(created.id),
      phoneNumber: FAKE_PHONES.pays,
      checksum: fakeChecksum(credentials.checksumKey, initiation.body),
    });
    const token = fake.requests.find((r) => r.path === '/third-parties/generate-token')!;
    expect(token.headers).toMatchObject({ 'client-id': credentials.clientId, 'api-key': credentials.apiKey });

    const paid = await settled(created.id);
    expect(paid).toMatchObject({ status: 'paid', fee: 150, net: 9_850, failure_code: null });
    expect(
      fake.callbacks.find((c) => c.body.data.orderReference === orderReference(created.id)),
    ).toMatchObject({
      status: 200,
      response: { received: true },
    });
    expect(await ledgerRows(created.id)).toEqual([{ amount: 10_000, fee: 150, net: 9_850 }]);
    expect(await eventTypes(created.id)).toEqual(['payment.created', 'payment.succeeded']);
    const stored = await server.database.pool.query(
      'SELECT provider, provider_reference FROM payments WHERE id = $1',
      [created.id],
    );
    expect(stored.rows[0]).toEqual({
      provider: 'clickpesa',
      provider_reference: fake.payments.get(orderReference(created.id))!.id,
    });
  });

  it('fails the payment with a mapped failure code when the callback reports a failure', async () => {
    const created = await pay(FAKE_PHONES.insufficient, 5_000);
    const failed = await settled(created.id);
    expect(failed).toMatchObject({
      status: 'failed',
      failure_code: 'insufficient_funds',
      fee: null,
      net: null,
    });
    expect(await ledgerRows(created.id)).toEqual([]);
    expect(await eventTypes(created.id)).toEqual(['payment.created', 'payment.failed']);
  });

  it('answers 401 to forged, unsigned or tampered callbacks and leaves the payment pending', async () => {
    const created = await pay(FAKE_PHONES.silent, 7_000);
    const reference = orderReference(created.id);
    await soon(() => fake.payments.get(reference));

    const wrongKey = fake.webhookBody(reference, { status: 'SUCCESS', key: 'not-the-checksum-key' });
    const unsigned: Record<string, any> = fake.webhookBody(reference, { status: 'SUCCESS' });
    delete unsigned.checksum;
    const tampered = fake.webhookBody(reference, { status: 'SUCCESS' }) as Record<string, any>;
    tampered.data.collectedAmount = '70';
    const malformed = { ...fake.webhookBody(reference, { status: 'SUCCESS' }), checksum: 'not-hex' };
    const nullChecksum = { ...fake.webhookBody(reference, { status: 'SUCCESS' }), checksum: null };
    const flippedStatus = fake.webhookBody(reference, {
      status: 'FAILED',
      message: 'Insufficient balance',
    }) as Record<string, any>;
    flippedStatus.data.status = 'SUCCESS';

    for (const body of [wrongKey, unsigned, tampered, malformed, nullChecksum, flippedStatus, [1, 2], 42]) {
      const response = await postCallback(body);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ error: 'authentication_error', code: 'signature_invalid' });
    }
    const empty = await postCallback(undefined);
    expect(empty.status).toBe(401);

    const payment = await live.get(`/v1/payments/${created.id}`);
    expect(payment.body.status).toBe('pending');
    expect(await eventTypes(created.id)).toEqual(['payment.created']);
    expect(await ledgerRows(created.id)).toEqual([]);
  });

  it('answers 400 to a body that is not JSON and 404 to a signed callback for a payment it does not know', async () => {
    const notJson = await client(server.url).request('POST', '/callbacks/clickpesa', '{"event":', {
      'Content-Type': 'application/json',
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe('body_invalid_json');

    const unknown = await postCallback(
      fake.webhookBody('pay01jzzzzzzzzzzzzzzzzzzzzzzz', { status: 'SUCCESS' }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'not_found', code: 'resource_missing' });
    const foreign = await postCallback(fake.webhookBody('ORD123456', { status: 'SUCCESS' }));
    expect(foreign.status).toBe(404);

    // Signed but missing what an outcome needs: a 400 naming the field, not a 5xx.
    const partial: Record<string, unknown> = { event: 'PAYMENT RECEIVED', data: { status: 'SUCCESS' } };
    partial.checksum = fakeChecksum(credentials.checksumKey, partial);
    const invalid = await postCallback(partial);
    expect(invalid.status).toBe(400);
    expect(invalid.body.details).toHaveProperty(['data.orderReference']);
  });

  it('accepts a checksum carried inside data as well', async () => {
    const created = await pay(FAKE_PHONES.silent, 1_200);
    const reference = orderReference(created.id);
    await soon(() => fake.payments.get(reference));
    const body = fake.webhookBody(reference, { status: 'SUCCESS' }) as Record<string, any>;
    delete body.checksum;
    body.data.collectedAmount = '1200';
    body.data.checksum = fakeChecksum(credentials.checksumKey, body.data);
    expect((await postCallback(body)).status).toBe(200);
    expect((await live.get(`/v1/payments/${created.id}`)).body.status).toBe('paid');
  });

  it('acknowledges a repeated or contradicting callback without changing anything', async () => {
    const created = await pay(FAKE_PHONES.pays, 3_000);
    const paid = await settled(created.id);
    const reference = orderReference(created.id);
    const original = fake.callbacks.find((c) => c.body.data.orderReference === reference)!;

    for (let i = 0; i < 3; i++) {
      const replay = await postCallback(original.body);
      expect(replay.status).toBe(200);
    }
    const contradicting = await postCallback(
      fake.webhookBody(reference, { status: 'FAILED', message: 'User cancelled' }),
    );
    expect(contradicting.status).toBe(200);

    const after = await live.get(`/v1/payments/${created.id}`);
    expect(after.body).toEqual(paid);
    expect(await ledgerRows(created.id)).toHaveLength(1);
    expect(await eventTypes(created.id)).toEqual(['payment.created', 'payment.succeeded']);
  });

  it('refuses to mark paid a signed callback whose collected amount differs from the payment', async () => {
    const created = await pay(FAKE_PHONES.silent, 9_000);
    const reference = orderReference(created.id);
    await soon(() => fake.payments.get(reference));
    const body = fake.webhookBody(reference, { status: 'SUCCESS' }) as Record<string, any>;
    body.data.collectedAmount = '900';
    body.checksum = fakeChecksum(credentials.checksumKey, body);
    const response = await postCallback(body);
    expect(response.status).toBe(400);
    expect((await live.get(`/v1/payments/${created.id}`)).body.status).toBe('pending');
  });

  it('maps a refusal at initiation to a failure code, and a non-TZS payment to currency_unsupported without calling ClickPesa', async () => {
    const refused = await pay(FAKE_PHONES.refused);
    expect(await settled(refused.id)).toMatchObject({ status: 'failed', failure_code: 'phone_unsupported' });

    const before = fake.requests.length;
    const dollars = await pay(FAKE_PHONES.pays, 1_000, 'USD');
    expect(await settled(dollars.id)).toMatchObject({
      status: 'failed',
      failure_code: 'currency_unsupported',
    });
    expect(fake.requests.length).toBe(before);
  });

  // The last number is the sandbox's "fails" number: in live mode it is an ordinary Mixx by Yas number.
  it.each([...NUMBERS_OF_EVERY_RANGE, ['0700000002', '255700000002', 'mixx'] as const])(
    'sends %s to ClickPesa as %s like any other number and settles it as ClickPesa reports',
    async (phone, sent, network) => {
      const created = await pay(phone);
      expect((await soon(() => initiationOf(created.id))).body.phoneNumber).toBe(sent);
      expect(await settled(created.id)).toMatchObject({ status: 'paid', phone: sent, network });
      const stored = await server.database.pool.query('SELECT provider FROM payments WHERE id = $1', [
        created.id,
      ]);
      expect(stored.rows[0]).toEqual({ provider: 'clickpesa' });
    },
  );

  it('fetches one token for many payments and fetches again only after the provider revokes it', async () => {
    const burst = await Promise.all([
      pay(FAKE_PHONES.silent, 100),
      pay(FAKE_PHONES.silent, 101),
      pay(FAKE_PHONES.silent, 102),
    ]);
    for (const created of burst) expect((await soon(() => initiationOf(created.id))).problem).toBeUndefined();
    expect(fake.tokenRequests).toBe(1);

    fake.revokeTokens();
    const created = await pay(FAKE_PHONES.pays, 2_500);
    expect(await settled(created.id)).toMatchObject({ status: 'paid' });
    expect(fake.tokenRequests).toBe(2);
    const unauthorised = fake.requests.filter((r) => r.problem === 'Unauthorized');
    expect(unauthorised).toHaveLength(1);
  });

  it('keeps a payment pending when initiation got a 5xx but ClickPesa has it, and fails it when ClickPesa does not', async () => {
    fake.failNextInitiation('accept-then-502');
    const accepted = await pay(FAKE_PHONES.pays, 4_000);
    expect(await settled(accepted.id)).toMatchObject({ status: 'paid' });

    fake.failNextInitiation('reject-502');
    const rejected = await pay(FAKE_PHONES.pays, 4_100);
    expect(await settled(rejected.id)).toMatchObject({ status: 'failed', failure_code: 'provider_error' });
  });

  it('reconciles a payment whose callback was lost by asking for its status', async () => {
    const created = await pay(FAKE_PHONES.silent, 6_000);
    const reference = orderReference(created.id);
    await soon(() => fake.payments.get(reference));
    const provider = server.services.liveProvider as ClickPesaProvider;
    expect(await provider.lookup(created.id)).toMatchObject({ state: 'pending' });

    fake.settleSilently(reference, 'SUCCESS');
    const looked = await reconcilePendingClickPesa(
      server.database,
      provider,
      server.services.payments,
      throwingLogger,
      {
        minAgeMs: 0,
        giveUpAfterMs: 3_600_000,
      },
    );
    expect(looked).toBeGreaterThan(0);
    expect((await live.get(`/v1/payments/${created.id}`)).body).toMatchObject({
      status: 'paid',
      fee: 90,
      net: 5_910,
    });
    expect(await provider.lookup('pay_01jzzzzzzzzzzzzzzzzzzzzzzz')).toEqual({ state: 'unknown' });
  });
});

describe('ClickPesa unreachable or misconfigured', () => {
  let down: RunningServer;
  beforeAll(async () => {
    // A port that was just free: nothing listens there.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    down = await startTestServer(providerEnv(`http://127.0.0.1:${port}`));
  });
  afterAll(() => down?.close());

  it('accepts the payment and then fails it with provider_error when ClickPesa cannot be reached, never a 5xx', async () => {
    const api = client(down.url, (await signUp(down.url)).keys.secretLive);
    const created = await api.post('/v1/payments', {
      amount: 1_000,
      currency: 'TZS',
      phone: FAKE_PHONES.pays,
    });
    expect(created.status).toBe(201);
    const failed = await eventually(async () => {
      const r = await api.get(`/v1/payments/${created.body.id}`);
      return r.body.status !== 'pending' ? r.body : undefined;
    });
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'provider_error' });
  });

  it('refuses to start with half of the live provider settings', () => {
    const config = loadConfig({
      PROVIDER_BASE_URL: 'https://api.clickpesa.com/third-parties',
      PROVIDER_CLIENT_ID: 'id',
    });
    expect(() => clickPesaOptionsFrom(config)).toThrow(/PROVIDER_API_KEY, PROVIDER_CHECKSUM_KEY/);
    expect(clickPesaOptionsFrom(loadConfig({}))).toBeUndefined();
  });

  it('has no callback route when live mode is not configured', async () => {
    const plain = await startTestServer();
    try {
      const response = await client(plain.url).post('/callbacks/clickpesa', { event: 'PAYMENT RECEIVED' });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('route_not_found');
    } finally {
      await plain.close();
    }
  });
});
