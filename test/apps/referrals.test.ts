import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { ReferralEarner } from '../../apps/server/src/referrals/earner.ts';
import { client, eventually, signUp, type Merchant } from '../support/server.ts';
import { quietLogger, throwingLogger } from '../support/logger.ts';
import { withMerchant } from '../support/merchant.ts';
import { paidPayment, type Api } from '../support/retail.ts';

let server: RunningServer;
let referrer: Api;
let referrerLive: Api;
let code: string;

beforeAll(async () => {
  const setup = await withMerchant({ business_name: 'Wakala Mkuu' });
  ({ server, api: referrer } = setup);
  referrerLive = client(server.url, setup.merchant.keys.secretLive);
  code = (await referrer.get('/v1/referrals')).body.code;
});
afterAll(() => server?.close());

/** Signs up a merchant with a referral code, straight through the API. */
async function referred(referralCode: string, business_name = 'Duka la Rafiki') {
  const response = await client(server.url).post('/v1/merchants', {
    business_name,
    email: `ref${Date.now()}${Math.random().toString(36).slice(2, 8)}@example.tz`,
    password: 'correct horse battery',
    referral_code: referralCode,
  });
  return response;
}

const referralBalance = async (api: Api) => (await api.get('/v1/balance')).body.referral;

describe('referrals', () => {
  it('gives every merchant a code and no referrals to start with', async () => {
    const referrals = await referrer.get('/v1/referrals');
    expect(referrals.status).toBe(200);
    expect(referrals.body).toMatchObject({
      object: 'referrals',
      rule: { fee_share_basis_points: 1000, months: 12 },
      referred: [],
      earnings: [],
      livemode: false,
    });
    expect(code).toMatch(/^[A-Z2-9]{10}$/);
  });

  it('refuses an unknown referral code with a 400 naming it', async () => {
    const response = await referred('NO-SUCH-CODE');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'parameter_invalid',
      details: { referral_code: expect.stringContaining('NO-SUCH-CODE') },
    });
    expect(response.body.message).toContain('NO-SUCH-CODE');
  });

  it('credits the referrer 10 % of the fee on each paid payment of a referred merchant, once, with three pollers at it', async () => {
    const signedUp = await referred(code.toLowerCase(), 'Mgahawa wa Rafiki');
    expect(signedUp.status).toBe(201);
    const friend = client(
      server.url,
      signedUp.body.api_keys.find(
        (k: { type: string; mode: string }) => k.type === 'secret' && k.mode === 'test',
      ).key,
    );

    // Default fee 1.5 %: 10,000 pays a fee of 150, of which the referrer earns 15; 3,333 pays 50 → 5.
    const amounts = [10_000, 3_333, 10_000, 7_777];
    const payments = await Promise.all(amounts.map((amount) => paidPayment(friend, amount)));
    const fees = payments.map((p: { fee: number }) => p.fee);
    expect(fees.slice(0, 2)).toEqual([150, 50]);
    const expected = fees.reduce(
      (sum: number, fee: number) => sum + Math.floor((fee * 1000 + 5000) / 10000),
      0,
    );

    // Two more pollers, as other server processes would run, race the server's own.
    const others = [1, 2].map(
      () => new ReferralEarner(server.database, server.services.events, throwingLogger),
    );
    await Promise.all(others.map((earner) => earner.creditAll()));
    await eventually(async () => (await referralBalance(referrer))[0]?.amount === expected);
    await Promise.all(others.map((earner) => earner.creditAll()));

    expect(await referralBalance(referrer)).toEqual([{ amount: expected, currency: 'TZS' }]);
    const postings = await server.database.pool.query(
      `SELECT count(*)::int AS n FROM ledger_transactions WHERE type = 'referral_earning' AND source_id = ANY($1)`,
      [payments.map((p: { id: string }) => p.id)],
    );
    expect(postings.rows[0].n).toBe(amounts.length);
    // The referred merchant keeps its whole net; the share comes out of the platform's fee.
    const friendBalance = (await friend.get('/v1/balance')).body;
    expect(friendBalance.available).toEqual([
      {
        amount: amounts.reduce((a, b) => a + b) - fees.reduce((a: number, b: number) => a + b),
        currency: 'TZS',
      },
    ]);
    expect(friendBalance.referral).toEqual([]);
    expect(await referralBalance(referrerLive)).toEqual([]);

    const referrals = (await referrer.get('/v1/referrals')).body;
    expect(referrals.referred).toEqual([
      expect.objectContaining({
        merchant: signedUp.body.id,
        business_name: 'Mgahawa wa Rafiki',
        payments: amounts.length,
        earnings: [{ amount: expected, currency: 'TZS' }],
      }),
    ]);
    expect(referrals.referred[0].earning_until - referrals.referred[0].joined).toBeGreaterThan(364 * 86_400);
    expect(referrals.earnings).toEqual([{ amount: expected, currency: 'TZS' }]);
    const transactions = (await referrer.get('/v1/transactions?limit=100')).body.data;
    expect(
      transactions
        .filter((t: { type: string }) => t.type === 'referral_earning')
        .map((t: { source: string }) => t.source)
        .sort(),
    ).toEqual(payments.map((p: { id: string }) => p.id).sort());
    // The referred merchant refers no one.
    expect((await friend.get('/v1/referrals')).body.referred).toEqual([]);
  });

  it('earns nothing on payments made more than 12 months after the referred merchant signed up', async () => {
    const before = (await referralBalance(referrer))[0]?.amount ?? 0;
    const signedUp = await referred(code, 'Duka la Zamani');
    const friend = client(
      server.url,
      signedUp.body.api_keys.find(
        (k: { type: string; mode: string }) => k.type === 'secret' && k.mode === 'test',
      ).key,
    );
    await server.database.pool.query(
      `UPDATE merchants SET created_at = now() - interval '12 months 1 day' WHERE id = $1`,
      [signedUp.body.id],
    );
    const payment = await paidPayment(friend, 20_000);
    await new ReferralEarner(server.database, server.services.events, quietLogger).creditAll();
    expect((await referralBalance(referrer))[0]?.amount ?? 0).toBe(before);
    const due = await server.database.pool.query(
      `SELECT 1 FROM referral_earnings_due WHERE payment_id = $1`,
      [payment.id],
    );
    expect(due.rowCount).toBe(0);
  });

  it('does not credit a merchant for its own payments', async () => {
    const own: Merchant = await signUp(server.url);
    const api = client(server.url, own.keys.secretTest);
    await paidPayment(api, 10_000);
    await new ReferralEarner(server.database, server.services.events, quietLogger).creditAll();
    expect(await referralBalance(api)).toEqual([]);
  });

  it('accepts a time zone at sign-up and refuses an unknown one', async () => {
    const base = { business_name: 'Saa', password: 'correct horse battery' };
    const bad = await client(server.url).post('/v1/merchants', {
      ...base,
      email: `tz${Date.now()}@example.tz`,
      time_zone: 'Mars/Olympus',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toHaveProperty('time_zone');
    const good = await client(server.url).post('/v1/merchants', {
      ...base,
      email: `tz${Date.now()}b@example.tz`,
      time_zone: 'Africa/Nairobi',
    });
    expect(good.status).toBe(201);
  });
});
