import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventually, signUp, startTestServer, type Merchant } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { NUMBERS_OF_EVERY_RANGE } from '../support/phones.ts';

let server: RunningServer;
let merchant: Merchant;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startTestServer();
  merchant = await signUp(server.url);
  api = client(server.url, merchant.keys.secretTest);
});
afterAll(() => server?.close());

const pay = (phone: string, amount = 10_000) => api.post('/v1/payments', { amount, currency: 'TZS', phone });
const settled = (id: string, by = api) =>
  eventually(async () => {
    const r = await by.get(`/v1/payments/${id}`);
    return r.body.status !== 'pending' ? r.body : undefined;
  });

describe('payments through the sandbox provider', () => {
  it('settles 255700000001 as paid with fee + net = amount and a balanced ledger entry', async () => {
    const created = await pay('+255 700 000 001');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'payment',
      status: 'pending',
      phone: '255700000001',
      livemode: false,
    });
    expect(created.body.id).toMatch(/^pay_/);
    const paid = await settled(created.body.id);
    expect(paid.status).toBe('paid');
    expect(paid.fee).toBe(150);
    expect(paid.fee + paid.net).toBe(10_000);
    const transactions = await api.get('/v1/transactions?limit=5');
    expect(transactions.body.data[0]).toMatchObject({
      type: 'payment',
      source: paid.id,
      amount: 10_000,
      fee: 150,
      net: 9_850,
    });
    const sums = await server.database.pool.query(
      `SELECT transaction_id, sum(amount)::bigint AS total FROM ledger_postings WHERE merchant_id = $1 GROUP BY transaction_id`,
      [merchant.id],
    );
    expect(sums.rows.length).toBeGreaterThan(0);
    for (const row of sums.rows) expect(row.total).toBe(0);
  });

  it('fails 255700000002 with insufficient_funds and posts nothing', async () => {
    const created = await pay('0700000002');
    const failed = await settled(created.body.id);
    expect(failed).toMatchObject({
      status: 'failed',
      failure_code: 'insufficient_funds',
      fee: null,
      net: null,
    });
    const postings = await server.database.pool.query(
      'SELECT 1 FROM ledger_transactions WHERE source_id = $1',
      [failed.id],
    );
    expect(postings.rowCount).toBe(0);
  });

  it('keeps 255700000003 pending', async () => {
    const created = await pay('255700000003');
    // One made after it and due as soon as any is has settled: the sandbox has passed its due time.
    expect((await settled((await pay('0700000001')).body.id)).status).toBe('paid');
    expect((await api.get(`/v1/payments/${created.body.id}`)).body.status).toBe('pending');
  });

  it('derives the balance from the ledger and refunds by reversing the postings', async () => {
    const other = await signUp(server.url);
    const own = client(server.url, other.keys.secretTest);
    const a = await own.post('/v1/payments', { amount: 20_000, currency: 'TZS', phone: '0700000001' });
    const b = await own.post('/v1/payments', { amount: 1_000, currency: 'USD', phone: '0700000001' });
    await eventually(async () => (await own.get(`/v1/payments/${b.body.id}`)).body.status === 'paid');
    await eventually(async () => (await own.get(`/v1/payments/${a.body.id}`)).body.status === 'paid');
    const balance = await own.get('/v1/balance');
    expect(balance.body).toEqual({
      object: 'balance',
      available: [
        { amount: 19_700, currency: 'TZS' },
        { amount: 985, currency: 'USD' },
      ],
      pending: [],
      referral: [],
      escrow: [],
      livemode: false,
    });
    const refund = await own.post(`/v1/payments/${a.body.id}/refund`);
    expect(refund.status).toBe(200);
    expect(refund.body.status).toBe('refunded');
    const after = await own.get('/v1/balance');
    expect(after.body.available).toEqual([
      { amount: 0, currency: 'TZS' },
      { amount: 985, currency: 'USD' },
    ]);
    const again = await own.post(`/v1/payments/${a.body.id}/refund`);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_request_error', code: 'state_transition_invalid' });
    // The provider repeating "paid" after the refund changes nothing and is no contradiction.
    await server.services.payments.applyOutcome(a.body.id, { status: 'paid', reference: 'repeat' });
    expect((await own.get(`/v1/payments/${a.body.id}`)).body.status).toBe('refunded');
  });

  it('refunds once when ten refund requests race', async () => {
    const own = client(server.url, (await signUp(server.url)).keys.secretTest);
    const paid = await own.post('/v1/payments', { amount: 8_000, currency: 'TZS', phone: '0700000001' });
    await eventually(async () => (await own.get(`/v1/payments/${paid.body.id}`)).body.status === 'paid');
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => own.post(`/v1/payments/${paid.body.id}/refund`)),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of responses.filter((r) => r.status !== 200))
      expect(r.body.code).toBe('state_transition_invalid');
    const refunds = await server.database.pool.query(
      `SELECT count(*)::int AS n FROM ledger_transactions WHERE source_id = $1 AND type = 'refund'`,
      [paid.body.id],
    );
    expect(refunds.rows[0].n).toBe(1);
    expect((await own.get('/v1/balance')).body.available).toEqual([{ amount: 0, currency: 'TZS' }]);
  });

  it('refuses to refund a pending or failed payment', async () => {
    const pending = await pay('0700000003');
    const refused = await api.post(`/v1/payments/${pending.body.id}/refund`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('state_transition_invalid');
  });

  it('lists payments newest first with cursors in exact creation order', async () => {
    const own = client(server.url, (await signUp(server.url)).keys.secretTest);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await own.post('/v1/payments', { amount: 100 + i, currency: 'TZS', phone: '0700000003' })).body.id,
      );
    const first = await own.get('/v1/payments?limit=2');
    expect(first.body.data.map((p: { id: string }) => p.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.has_more).toBe(true);
    const second = await own.get(`/v1/payments?limit=2&starting_after=${ids[3]}`);
    expect(second.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    const last = await own.get(`/v1/payments?limit=2&starting_after=${ids[1]}`);
    expect(last.body.data.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    expect(last.body.has_more).toBe(false);
    const back = await own.get(`/v1/payments?limit=2&ending_before=${ids[0]}`);
    expect(back.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    expect((await own.get('/v1/payments?limit=101')).body).toMatchObject({ code: 'limit_invalid' });
    expect((await own.get('/v1/payments?limit=0')).status).toBe(400);
  });
});

describe('narrowing the list', () => {
  it('filters by phone in any written form, network, status and creation time, and pages within the filter', async () => {
    const own = client(server.url, (await signUp(server.url)).keys.secretTest);
    const make = async (phone: string) =>
      (await own.post('/v1/payments', { amount: 1_000, currency: 'TZS', phone })).body.id as string;
    const mixx = [await make('0700000001'), await make('0700000001')];
    const mpesa = await make('0722345678');
    const airtel = await make('0662345678');
    const ids = async (query: string) =>
      (await own.get(`/v1/payments?${query}`)).body.data.map((p: { id: string }) => p.id);
    expect(await ids('phone=%2B255 722 345 678')).toEqual([mpesa]);
    expect(await ids('phone=0700000001')).toEqual([mixx[1], mixx[0]]);
    expect(await ids('phone=0700000001&limit=1&starting_after=' + mixx[1])).toEqual([mixx[0]]);
    expect(await ids('network=airtel')).toEqual([airtel]);
    expect(await ids('network=mpesa&phone=0700000001')).toEqual([]);
    await settled(mpesa, own);
    expect(await ids('status=paid&network=mpesa')).toEqual([mpesa]);
    const now = Math.floor(Date.now() / 1000);
    expect((await ids(`created_gte=${now - 600}&created_lte=${now + 600}`)).length).toBe(4);
    expect(await ids(`created_gte=${now + 600}`)).toEqual([]);
    expect(await ids(`created_lte=${now - 600}`)).toEqual([]);
    // Bad filters are the one error object naming the parameter, never a 5xx.
    for (const [query, field] of [
      ['phone=0800123456', 'phone'],
      ['network=vodacom', 'network'],
      ['created_gte=yesterday', 'created_gte'],
    ]) {
      const refused = await own.get(`/v1/payments?${query}`);
      expect(refused.status).toBe(400);
      expect(refused.body.details).toHaveProperty(field!);
    }
  });

  it("lists one payment's ledger lines by `source`", async () => {
    const own = client(server.url, (await signUp(server.url)).keys.secretTest);
    const [first, second] = await Promise.all(
      [5_000, 7_000].map(
        async (amount) =>
          (await own.post('/v1/payments', { amount, currency: 'TZS', phone: '0700000001' })).body
            .id as string,
      ),
    );
    await settled(first!, own);
    await settled(second!, own);
    expect((await own.post(`/v1/payments/${first}/refund`)).status).toBe(200);
    const lines = (await own.get(`/v1/transactions?source=${first}`)).body.data;
    expect(lines.map((l: { type: string; amount: number }) => [l.type, l.amount])).toEqual([
      ['refund', -5_000],
      ['payment', 5_000],
    ]);
    expect((await own.get(`/v1/transactions?source=${second}`)).body.data).toHaveLength(1);
  });
});

describe('payer numbers of every network', () => {
  it.each(NUMBERS_OF_EVERY_RANGE)(
    'takes %s as %s with network hint %s, and the sandbox settles it as paid',
    async (phone, stored, network) => {
      const created = await pay(phone);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ phone: stored, network });
      expect((await settled(created.body.id)).status).toBe('paid');
    },
  );

  it('gives fixed outcomes to the documented sandbox numbers only: a neighbouring number is paid', async () => {
    const [pending, other] = [await pay('0700000003'), await pay('0700000013')];
    expect((await settled(other.body.id)).status).toBe('paid');
    expect((await api.get(`/v1/payments/${pending.body.id}`)).body.status).toBe('pending');
  });

  it('refuses a toll-free number with phone_invalid', async () => {
    const refused = await pay('0800 123 456');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'phone_invalid' });
    expect(refused.body.details.phone).toMatch(/must be a Tanzanian mobile number/);
  });

  it("stores a customer's number normalised and finds the customer by any written form of it", async () => {
    const created = await api.post('/v1/customers', { name: 'Neema', phone: '066-123-4567' });
    expect(created.status).toBe(201);
    expect(created.body.phone).toBe('255661234567');
    const found = await api.get(`/v1/customers?phone=${encodeURIComponent('+255 661 234 567')}`);
    expect(found.body.data.map((c: { id: string }) => c.id)).toEqual([created.body.id]);
    const refused = await api.post('/v1/customers', { name: 'Neema', phone: '022 212 3456' });
    expect(refused.body).toMatchObject({ code: 'phone_invalid' });
  });
});

describe('modes and tenants', () => {
  it('keeps test and live data apart and hides other merchants’ objects', async () => {
    const created = await pay('0700000003');
    const live = client(server.url, merchant.keys.secretLive);
    expect((await live.get(`/v1/payments/${created.body.id}`)).status).toBe(404);
    expect((await live.get('/v1/payments')).body.data).toEqual([]);
    const stranger = client(server.url, (await signUp(server.url)).keys.secretTest);
    const hidden = await stranger.get(`/v1/payments/${created.body.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ error: 'not_found', code: 'resource_missing' });
    expect((await stranger.post(`/v1/payments/${created.body.id}/refund`)).status).toBe(404);
  });

  it('refuses live payments while no live provider is configured, with 503 and Retry-After', async () => {
    const live = client(server.url, merchant.keys.secretLive);
    const refused = await live.post('/v1/payments', { amount: 1000, currency: 'TZS', phone: '0754000000' });
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('provider_unavailable');
    expect(refused.headers.get('retry-after')).toBe('60');
  });
});

describe('the hosted checkout behind its page', () => {
  const hosted = (path: string, init?: RequestInit) =>
    fetch(`${server.url}${path}`, init).then(async (r) => ({ status: r.status, body: await r.json() }));
  const payCheckout = (id: string, phone: string) =>
    hosted(`/pay/${id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone }),
    });

  it("shows the payment's state, refuses a second payment while one waits, and takes a retry after a failure", async () => {
    const checkout = await api.post('/v1/checkout', { amount: 5_000, currency: 'TZS' });
    expect(checkout.status).toBe(201);
    const id = checkout.body.id as string;
    expect((await hosted(`/pay/${id}/status`)).body).toMatchObject({
      payment_status: null,
      failure_message: null,
    });

    expect((await payCheckout(id, '0700000002')).status).toBe(201);
    const failed = await eventually(async () => {
      const view = (await hosted(`/pay/${id}/status`)).body;
      return view.payment_status === 'failed' ? view : undefined;
    });
    expect(failed.failure_message).toEqual(expect.any(String));

    expect((await payCheckout(id, '0700000003')).status).toBe(201);
    expect((await hosted(`/pay/${id}/status`)).body).toMatchObject({
      payment_status: 'pending',
      status: 'open',
    });
    const again = await payCheckout(id, '0700000001');
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('checkout_not_open');
  });
});
