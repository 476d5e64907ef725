import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, startTestServer } from '../support/server.ts';
import { anotherMerchant, type SignedUp } from '../support/merchant.ts';
import {
  availableTzs,
  bank,
  eventsOf,
  expectReconciled,
  settledPayment,
  settledPayout,
  wallet,
  WALLET,
} from './support.ts';

let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** A fresh merchant whose available balance holds the nets of payments of these amounts. */
async function funded(...amounts: number[]): Promise<SignedUp & { payments: any[] }> {
  const signed = await anotherMerchant(server);
  const payments = [];
  for (const amount of amounts) payments.push(await settledPayment(signed.api, amount));
  return { ...signed, payments };
}

const payout = (api: SignedUp['api'], amount: number, destination: unknown) =>
  api.post('/v1/payouts', { amount, currency: 'TZS', destination });

/** The sandbox settles a payout once its settle_at has passed: one without stays pending for good. */
const neverDue = async (id: string) =>
  (await server.database.pool.query('SELECT settle_at FROM payouts WHERE id = $1', [id])).rows[0]
    ?.settle_at === null;

describe('payouts through the sandbox', () => {
  it('pays a mobile money payout: the amount leaves the available balance at once, then is sent', async () => {
    const { api, merchant } = await funded(10_000); // net 9,850
    const created = await payout(api, 5_000, wallet('0700000001'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'payout',
      amount: 5_000,
      currency: 'TZS',
      status: 'pending',
      destination: { type: 'mobile_money', phone: WALLET.paid, network: 'mixx' },
      failure_code: null,
      livemode: false,
      paid_at: null,
    });
    expect(created.body.id).toMatch(/^po_/);
    expect(await availableTzs(api)).toBe(4_850);

    const paid = await settledPayout(api, created.body.id);
    expect(paid.status).toBe('paid');
    expect(paid.paid_at).toEqual(expect.any(Number));
    expect(await availableTzs(api)).toBe(4_850);
    const transactions = (await api.get('/v1/transactions?limit=3')).body.data;
    expect(transactions.map((t: any) => [t.type, t.source, t.amount])).toEqual([
      ['payout_paid', created.body.id, 0],
      ['payout', created.body.id, -5_000],
      ['payment', expect.stringMatching(/^pay_/), 10_000],
    ]);
    expect((await eventsOf(server, merchant.id, 'payout.created')).map((o) => o.id)).toEqual([
      created.body.id,
    ]);
    expect(await eventsOf(server, merchant.id, 'payout.paid')).toMatchObject([
      { id: created.body.id, status: 'paid' },
    ]);
    expect(await eventsOf(server, merchant.id, 'payout.failed')).toEqual([]);
    await expectReconciled(server, merchant.id);
  });

  it('fails a payout to 255700000002 and returns its amount to the available balance', async () => {
    const { api, merchant } = await funded(10_000);
    const created = await payout(api, 9_850, wallet('255700000002'));
    expect(created.status).toBe(201);
    expect(await availableTzs(api)).toBe(0);
    const failed = await settledPayout(api, created.body.id);
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'destination_refused', paid_at: null });
    expect(failed.failure_message).toEqual(expect.any(String));
    expect(await availableTzs(api)).toBe(9_850);
    const transactions = (await api.get('/v1/transactions?limit=2')).body.data;
    expect(transactions.map((t: any) => [t.type, t.amount])).toEqual([
      ['payout_reversal', 9_850],
      ['payout', -9_850],
    ]);
    expect(await eventsOf(server, merchant.id, 'payout.failed')).toMatchObject([
      { id: created.body.id, status: 'failed' },
    ]);
    // The payment was never paid out.
    const payment = (await api.get('/v1/payments?limit=1')).body.data[0];
    expect(payment).toMatchObject({ payout_status: 'pending', payout: null });
    await expectReconciled(server, merchant.id);
  });

  it('keeps a payout to 255700000003 pending, its amount in transit', async () => {
    const { api, merchant } = await funded(10_000);
    const created = await payout(api, 1_000, wallet(WALLET.pending));
    expect(await neverDue(created.body.id)).toBe(true);
    expect((await api.get(`/v1/payouts/${created.body.id}`)).body.status).toBe('pending');
    expect(await availableTzs(api)).toBe(8_850);
    await expectReconciled(server, merchant.id);
  });

  it('pays to a bank account, fails one ending in 0002 and keeps one ending in 0003 pending', async () => {
    const { api, merchant } = await funded(50_000); // net 49,250
    const paid = await payout(api, 10_000, bank('0150123456700'));
    expect(paid.status).toBe(201);
    expect(paid.body.destination).toEqual({
      type: 'bank',
      bank_name: 'CRDB Bank',
      account_number: '0150123456700',
      account_name: 'Duka la Mama Neema',
      bic: null,
    });
    const fails = await payout(api, 10_000, bank('0150123450002'));
    const stays = await payout(api, 10_000, bank('0150123450003'));
    expect((await settledPayout(api, paid.body.id)).status).toBe('paid');
    expect(await settledPayout(api, fails.body.id)).toMatchObject({
      status: 'failed',
      failure_code: 'destination_refused',
    });
    expect(await neverDue(stays.body.id)).toBe(true);
    expect((await api.get(`/v1/payouts/${stays.body.id}`)).body.status).toBe('pending');
    expect(await availableTzs(api)).toBe(49_250 - 20_000);
    const listed = await api.get('/v1/payouts?status=failed');
    expect(listed.body.data.map((p: any) => p.id)).toEqual([fails.body.id]);
    const all = await api.get('/v1/payouts?limit=2');
    expect(all.body).toMatchObject({ object: 'list', has_more: true });
    expect(all.body.data.map((p: any) => p.id)).toEqual([stays.body.id, fails.body.id]);
    await expectReconciled(server, merchant.id);
  });
});

describe('what a payout refuses, moving nothing', () => {
  async function nothingMoved(signed: SignedUp, before: number) {
    expect(await availableTzs(signed.api)).toBe(before);
    const rows = await server.database.pool.query('SELECT 1 FROM payouts WHERE merchant_id = $1', [
      signed.merchant.id,
    ]);
    expect(rows.rowCount).toBe(0);
    expect(await eventsOf(server, signed.merchant.id, 'payout.created')).toEqual([]);
    await expectReconciled(server, signed.merchant.id);
  }

  it('answers 400 insufficient_funds for more than the available balance', async () => {
    const signed = await funded(10_000);
    const refused = await payout(signed.api, 9_851, wallet(WALLET.paid));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: 'invalid_request_error',
      code: 'insufficient_funds',
      details: { amount: 'exceeds the available balance of 9850 TZS' },
    });
    // A currency with no balance at all.
    const usd = await signed.api.post('/v1/payouts', {
      amount: 1,
      currency: 'USD',
      destination: wallet(WALLET.paid),
    });
    expect(usd.status).toBe(400);
    expect(usd.body.code).toBe('insufficient_funds');
    await nothingMoved(signed, 9_850);
  });

  it('counts money in transit as spent: a second payout cannot take it again', async () => {
    const { api, merchant } = await funded(10_000);
    expect((await payout(api, 9_000, wallet(WALLET.pending))).status).toBe(201);
    const second = await payout(api, 1_000, wallet(WALLET.paid));
    expect(second.status).toBe(400);
    expect(second.body.code).toBe('insufficient_funds');
    expect(await availableTzs(api)).toBe(850);
    await expectReconciled(server, merchant.id);
  });

  it('refuses bad destinations with the field named', async () => {
    const signed = await funded(10_000);
    const cases: Array<[unknown, string]> = [
      [{ type: 'mobile_money', phone: '12345' }, 'destination.phone'],
      [{ type: 'mobile_money' }, 'destination.phone'],
      [
        { type: 'bank', bank_name: 'CRDB', account_number: '01501234', account_name: '' },
        'destination.account_name',
      ],
      [
        { type: 'bank', bank_name: 'CRDB', account_number: '12', account_name: 'A' },
        'destination.account_number',
      ],
      [{ ...bank('0150123456700'), bic: 'not a bic!' }, 'destination.bic'],
      [{ type: 'cash' }, 'destination.type'],
    ];
    for (const [destination, field] of cases) {
      const refused = await payout(signed.api, 100, destination);
      expect(refused.status, JSON.stringify(destination)).toBe(400);
      expect(Object.keys(refused.body.details ?? {}), JSON.stringify(refused.body)).toContain(field);
    }
    const noAmount = await signed.api.post('/v1/payouts', {
      currency: 'TZS',
      destination: wallet(WALLET.paid),
    });
    expect(noAmount.status).toBe(400);
    const negative = await payout(signed.api, -5, wallet(WALLET.paid));
    expect(negative.status).toBe(400);
    await nothingMoved(signed, 9_850);
  });

  it('does not show or act on another merchant’s payouts or the other mode’s', async () => {
    const owner = await funded(10_000);
    const created = await payout(owner.api, 1_000, wallet(WALLET.pending));
    const stranger = await anotherMerchant(server);
    const foreign = await stranger.api.get(`/v1/payouts/${created.body.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('resource_missing');
    expect((await stranger.api.get('/v1/payouts')).body.data).toEqual([]);
    const live = client(server.url, owner.merchant.keys.secretLive);
    expect((await live.get(`/v1/payouts/${created.body.id}`)).status).toBe(404);
    expect((await live.get('/v1/payouts')).body.data).toEqual([]);
    // Live mode without a live provider: 503 provider_unavailable, nothing moves.
    const refused = await live.post('/v1/payouts', {
      amount: 100,
      currency: 'TZS',
      destination: wallet(WALLET.paid),
    });
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('provider_unavailable');
    // Other test files share the database when it is PostgreSQL: only this owner's rows count.
    const liveRows = await server.database.pool.query(
      'SELECT 1 FROM payouts WHERE livemode AND merchant_id = $1',
      [owner.merchant.id],
    );
    expect(liveRows.rowCount).toBe(0);
    // The stranger's balance pays nothing out of the owner's.
    const stolen = await payout(stranger.api, 100, wallet(WALLET.paid));
    expect(stolen.body.code).toBe('insufficient_funds');
    expect(await availableTzs(owner.api)).toBe(8_850);
  });

  it('replays a payout created with an idempotency key instead of paying twice', async () => {
    const { api, merchant } = await funded(10_000);
    const body = { amount: 4_000, currency: 'TZS', destination: wallet(WALLET.paid) };
    const first = await api.post('/v1/payouts', body, { 'Idempotency-Key': 'payout-1' });
    const again = await api.post('/v1/payouts', body, { 'Idempotency-Key': 'payout-1' });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await availableTzs(api)).toBe(5_850);
    await settledPayout(api, first.body.id);
    await expectReconciled(server, merchant.id);
  });
});

describe('payout_status of the payments a payout pays out', () => {
  it('moves payments to paid oldest first, whole ones only, as payouts are paid', async () => {
    // Nets 9,850, 19,700 and 4,925.
    const { api, merchant, payments } = await funded(10_000, 20_000, 5_000);
    const [a, b, c] = payments;
    for (const p of payments)
      expect(p).toMatchObject({ status: 'paid', payout_status: 'pending', payout: null });
    const unpaid = await api.post('/v1/payments', { amount: 1_000, currency: 'TZS', phone: WALLET.pending });
    expect(unpaid.body.payout_status).toBe('not_applicable');

    const status = async () =>
      Promise.all(
        [a, b, c].map(async (p) => {
          const r = (await api.get(`/v1/payments/${p.id}`)).body;
          return [r.payout_status, r.payout];
        }),
      );
    // Pays out exactly the first payment's net.
    const first = await payout(api, 9_850, wallet(WALLET.paid));
    await settledPayout(api, first.body.id);
    expect(await status()).toEqual([
      ['paid', first.body.id],
      ['pending', null],
      ['pending', null],
    ]);
    // Covers part of the second only: nothing more moves (payments are never split),
    // and the third waits behind the second though it would fit.
    const second = await payout(api, 10_000, wallet(WALLET.paid));
    await settledPayout(api, second.body.id);
    expect((await status()).map(([s]) => s)).toEqual(['paid', 'pending', 'pending']);
    // A failed payout pays nothing out.
    const failed = await payout(api, 9_700, wallet(WALLET.fails));
    await settledPayout(api, failed.body.id);
    expect((await status()).map(([s]) => s)).toEqual(['paid', 'pending', 'pending']);
    // The rest of the second, with what was left of the last payout, covers it.
    const third = await payout(api, 9_700, wallet(WALLET.paid));
    await settledPayout(api, third.body.id);
    expect(await status()).toEqual([
      ['paid', first.body.id],
      ['paid', third.body.id],
      ['pending', null],
    ]);
    expect(await availableTzs(api)).toBe(4_925);
    // A refund after the payout: the payment is refunded from the available balance.
    const refund = await api.post(`/v1/payments/${c.id}/refund`);
    expect(refund.body).toMatchObject({ status: 'refunded', payout_status: 'not_applicable' });
    expect((await api.get(`/v1/payments/${unpaid.body.id}`)).body.payout_status).toBe('not_applicable');
    await expectReconciled(server, merchant.id);
  });
});
