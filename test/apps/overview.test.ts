import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, eventually } from '../support/server.ts';
import { anotherMerchant, withMerchant } from '../support/merchant.ts';
import { paidPayment, type Api } from '../support/retail.ts';

let server: RunningServer;
let api: Api;
let live: Api;

beforeAll(async () => {
  const setup = await withMerchant({ business_name: 'Duka la Hesabu' });
  ({ server, api } = setup);
  live = client(server.url, setup.merchant.keys.secretLive);
}, 180_000); // the embedded database migrates at start, which takes a while on a busy machine
afterAll(() => server?.close());

const NO_PAYOUTS = { count: 0, amount: 0, paid: { count: 0, amount: 0 }, failed: { count: 0, amount: 0 } };

/** An instant in East Africa Time (UTC+03:00). */
const eat = (local: string) => new Date(`${local}+03:00`);
const unix = (date: Date) => date.getTime() / 1000;
/** A day's gross by hour of the day: the hours given, the rest 0. */
const byHour = (at: Record<number, number>) => Array.from({ length: 24 }, (_, hour) => at[hour] ?? 0);
/** Gross by day from `first`, one value a day. */
const byDay = (first: string, values: number[]) =>
  values.map((gross, i) => ({
    date: new Date(Date.parse(`${first}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10),
    gross,
  }));

/** Moves a payment, and the ledger transaction of its payment or refund, to `at`. */
async function movePayment(id: string, at: Date) {
  await server.database.pool.query(
    `UPDATE payments SET created_at = $2::timestamptz, paid_at = CASE WHEN paid_at IS NULL THEN NULL ELSE $2::timestamptz END WHERE id = $1`,
    [id, at],
  );
  await server.database.pool.query(
    `UPDATE ledger_transactions SET created_at = $2 WHERE source_id = $1 AND type = 'payment'`,
    [id, at],
  );
}

async function paidAt(amount: number, at: string, currency = 'TZS') {
  const payment = await paidPayment(api, amount, currency);
  await movePayment(payment.id, eat(at));
  return payment;
}

async function settledAs(phone: string, status: string, at: string) {
  const created = await api.post('/v1/payments', { amount: 777, currency: 'TZS', phone });
  expect(created.status).toBe(201);
  if (status !== 'pending')
    await eventually(async () => (await api.get(`/v1/payments/${created.body.id}`)).body.status === status);
  await movePayment(created.body.id, eat(at));
}

describe('overview', () => {
  it('sums each window of the merchant’s calendar days exactly at their edges, per currency', async () => {
    const refunded = await paidAt(10_000, '2026-01-15T23:59:59'); // today's last second
    await paidAt(5_000, '2026-01-16T00:00:00'); // the next day: in no window
    await paidAt(4_000, '2026-01-15T00:00:00'); // today's first second
    await paidAt(3_000, '2026-01-14T23:59:59'); // yesterday
    await paidAt(2_000, '2026-01-09T00:00:00'); // the 7th day back
    await paidAt(1_000, '2026-01-08T23:59:59'); // the 8th day back
    await paidAt(6_000, '2025-12-17T00:00:00'); // the 30th day back
    await paidAt(8_000, '2025-12-16T23:59:59'); // the 31st day back
    await paidAt(1_000, '2026-01-15T08:00:00', 'KES');
    await settledAs('0700000002', 'failed', '2026-01-15T10:00:00');
    await settledAs('0700000003', 'pending', '2026-01-13T10:00:00');
    const refund = await api.post(`/v1/payments/${refunded.id}/refund`);
    expect(refund.status).toBe(200);
    await server.database.pool.query(
      `UPDATE ledger_transactions SET created_at = $2 WHERE source_id = $1 AND type = 'refund'`,
      [refunded.id, eat('2026-01-15T12:00:00')],
    );

    const response = await api.get('/v1/overview?date=2026-01-15');
    expect(response.status).toBe(200);
    const overview = response.body;
    expect(overview).toMatchObject({
      object: 'overview',
      date: '2026-01-15',
      time_zone: 'Africa/Dar_es_Salaam',
      livemode: false,
      windows: {
        today: { from: unix(eat('2026-01-15T00:00:00')), to: unix(eat('2026-01-16T00:00:00')) },
        last_7_days: { from: unix(eat('2026-01-09T00:00:00')), to: unix(eat('2026-01-16T00:00:00')) },
        last_30_days: { from: unix(eat('2025-12-17T00:00:00')), to: unix(eat('2026-01-16T00:00:00')) },
      },
    });
    expect(overview.currencies.map((c: { currency: string }) => c.currency)).toEqual(['KES', 'TZS']);
    const [kes, tzs] = overview.currencies;
    // Fees are 1.5 %: 10,000 → 150, 4,000 → 60, 3,000 → 45, 2,000 → 30, 1,000 → 15, 6,000 → 90.
    // The refund of 10,000 returns its fee of 150.
    expect(tzs.today).toEqual({
      gross: 14_000,
      fees: 60,
      net: 14_000 - 10_000 - 60,
      refunds: { count: 1, amount: 10_000 },
      payouts: NO_PAYOUTS,
      payments: { pending: 0, paid: 1, failed: 1, refunded: 1, total: 3 },
      // Each window's hours and days add up to its gross, the refunded payment included.
      gross_by_hour: byHour({ 0: 4_000, 23: 10_000 }),
      gross_by_day: byDay('2026-01-15', [14_000]),
    });
    expect(tzs.last_7_days).toEqual({
      gross: 19_000,
      fees: 135,
      net: 19_000 - 10_000 - 135,
      refunds: { count: 1, amount: 10_000 },
      payouts: NO_PAYOUTS,
      payments: { pending: 1, paid: 3, failed: 1, refunded: 1, total: 6 },
      gross_by_hour: byHour({ 0: 6_000, 23: 13_000 }),
      gross_by_day: byDay('2026-01-09', [2_000, 0, 0, 0, 0, 3_000, 14_000]),
    });
    expect(tzs.last_30_days).toEqual({
      gross: 26_000,
      fees: 240,
      net: 26_000 - 10_000 - 240,
      refunds: { count: 1, amount: 10_000 },
      payouts: NO_PAYOUTS,
      payments: { pending: 1, paid: 5, failed: 1, refunded: 1, total: 8 },
      gross_by_hour: byHour({ 0: 12_000, 23: 14_000 }),
      gross_by_day: byDay('2025-12-17', [
        6_000,
        ...new Array(21).fill(0),
        1_000,
        2_000,
        0,
        0,
        0,
        0,
        3_000,
        14_000,
      ]),
    });
    expect(kes.today).toMatchObject({ gross: 1_000, fees: 15, net: 985, payments: { paid: 1, total: 1 } });
    const { gross_by_day: kesDays, ...kesMonth } = kes.last_30_days;
    const { gross_by_day: _kesToday, ...kesDay } = kes.today;
    expect(kesMonth).toEqual(kesDay);
    expect(kesDays).toEqual(byDay('2025-12-17', [...new Array(29).fill(0), 1_000]));
    expect(kes.today.gross_by_hour).toEqual(byHour({ 8: 1_000 }));

    // The balance is the ledger's, now, whatever the windows.
    const balance = (await api.get('/v1/balance')).body;
    for (const [row, currency] of [
      [tzs, 'TZS'],
      [kes, 'KES'],
    ] as const) {
      const of = (list: Array<{ amount: number; currency: string }>) =>
        list.find((b) => b.currency === currency)?.amount ?? 0;
      expect(row.balance).toEqual({
        available: of(balance.available),
        pending: of(balance.pending),
        referral: of(balance.referral),
      });
    }
    expect(tzs.balance.available).toBe(26_000 + 5_000 + 8_000 - 10_000 - (240 + 75 + 120));
  });

  it('counts payouts created, paid and failed in each window by when each happened, per currency', async () => {
    const { api: payer } = await anotherMerchant(server);
    await paidPayment(payer, 100_000); // net 98,500
    await paidPayment(payer, 10_000, 'KES'); // net 9,850
    /** A payout settled by the sandbox number, then moved to when it was created and settled. */
    async function payout(
      amount: number,
      phone: string,
      created: string,
      settled?: string,
      currency = 'TZS',
    ) {
      const answer = await payer.post('/v1/payouts', {
        amount,
        currency,
        destination: { type: 'mobile_money', phone },
      });
      expect(answer.status).toBe(201);
      if (settled)
        await eventually(
          async () => (await payer.get(`/v1/payouts/${answer.body.id}`)).body.status !== 'pending',
        );
      await server.database.pool.query(
        `UPDATE payouts SET created_at = $2, paid_at = CASE WHEN paid_at IS NULL THEN NULL ELSE $3::timestamptz END,
           failed_at = CASE WHEN failed_at IS NULL THEN NULL ELSE $3::timestamptz END WHERE id = $1`,
        [answer.body.id, eat(created), settled ? eat(settled) : null],
      );
    }
    await payout(1_000, '255700000001', '2026-01-15T23:59:59', '2026-01-15T23:59:59'); // paid today
    await payout(2_000, '255700000001', '2026-01-14T10:00:00', '2026-01-15T00:00:00'); // created yesterday, paid today
    await payout(4_000, '255700000002', '2026-01-08T23:59:59', '2026-01-09T00:00:00'); // failed on the 7th day back
    await payout(8_000, '255700000003', '2026-01-15T08:00:00'); // still pending
    await payout(16_000, '255700000001', '2026-01-16T00:00:00', '2026-01-16T00:00:00'); // tomorrow: no window
    await payout(32_000, '255700000001', '2025-12-16T23:59:59', '2025-12-17T00:00:00'); // paid on the 30th day back
    await payout(500, '255700000002', '2026-01-15T09:00:00', '2026-01-15T09:30:00', 'KES');

    const [kes, tzs] = (await payer.get('/v1/overview?date=2026-01-15')).body.currencies;
    expect(tzs.today.payouts).toEqual({
      count: 2,
      amount: 9_000,
      paid: { count: 2, amount: 3_000 },
      failed: { count: 0, amount: 0 },
    });
    expect(tzs.last_7_days.payouts).toEqual({
      count: 3,
      amount: 11_000,
      paid: { count: 2, amount: 3_000 },
      failed: { count: 1, amount: 4_000 },
    });
    expect(tzs.last_30_days.payouts).toEqual({
      count: 4,
      amount: 15_000,
      paid: { count: 3, amount: 35_000 },
      failed: { count: 1, amount: 4_000 },
    });
    expect(kes.currency).toBe('KES');
    expect(kes.today.payouts).toEqual({
      count: 1,
      amount: 500,
      paid: { count: 0, amount: 0 },
      failed: { count: 1, amount: 500 },
    });
    // Another merchant's overview has none of them.
    expect((await api.get('/v1/overview?date=2026-01-15')).body.currencies[1].today.payouts).toEqual(
      NO_PAYOUTS,
    );
  });

  it('defaults to today in East Africa Time and keeps each mode and merchant to itself', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Dar_es_Salaam' }).format(new Date());
    const overview = (await api.get('/v1/overview')).body;
    expect(overview.date).toBe(today);
    expect((await live.get('/v1/overview?date=2026-01-15')).body).toMatchObject({
      livemode: true,
      currencies: [],
    });
    const other = await anotherMerchant(server);
    expect((await other.api.get('/v1/overview?date=2026-01-15')).body.currencies).toEqual([]);
  });

  it('counts days in the merchant’s own time zone', async () => {
    const signedUp = await client(server.url).post('/v1/merchants', {
      business_name: 'Duka la Kolkata',
      email: `tz${Date.now()}@example.tz`,
      password: 'correct horse battery',
      time_zone: 'Asia/Kolkata',
    });
    const key = signedUp.body.api_keys.find(
      (k: { type: string; mode: string }) => k.type === 'secret' && k.mode === 'test',
    ).key;
    const overview = (await client(server.url, key).get('/v1/overview?date=2026-01-15')).body;
    expect(overview.time_zone).toBe('Asia/Kolkata');
    expect(overview.windows.today).toEqual({
      from: unix(new Date('2026-01-15T00:00:00+05:30')),
      to: unix(new Date('2026-01-16T00:00:00+05:30')),
    });
  });

  it('refuses a day that is not on the calendar', async () => {
    for (const date of ['2026-02-30', 'yesterday', '15-01-2026', '1969-12-31']) {
      const response = await api.get(`/v1/overview?date=${date}`);
      expect(response.status, date).toBe(400);
      expect(response.body.details).toHaveProperty('date');
    }
  });

  it('keeps its quarter-hour totals equal to the sums of the rows they stand for, after every write above', async () => {
    const db = server.database.pool;
    // Every write of the tests above (payments made, settled, refunded, moved in time) went through the triggers.
    const kept = await db.query(
      `SELECT merchant_id, livemode, quarter, currency, type, sum(count)::int AS count, sum(amount)::bigint AS amount,
         sum(fee)::bigint AS fee, sum(net)::bigint AS net
       FROM ledger_quarter_totals GROUP BY 1, 2, 3, 4, 5 HAVING sum(count) <> 0 ORDER BY 1, 2, 3, 4, 5`,
    );
    const fromRows = await db.query(
      `SELECT merchant_id, livemode, quarter_of(created_at) AS quarter, currency, type, count(*)::int AS count,
         sum(amount)::bigint AS amount, sum(fee)::bigint AS fee, sum(net)::bigint AS net
       FROM ledger_transactions GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
    );
    expect(fromRows.rows.length).toBeGreaterThan(5);
    expect(kept.rows).toEqual(fromRows.rows);
    const counted = await db.query(
      `SELECT merchant_id, livemode, quarter, currency, status, sum(count)::int AS count
       FROM payment_quarter_counts GROUP BY 1, 2, 3, 4, 5 HAVING sum(count) <> 0 ORDER BY 1, 2, 3, 4, 5`,
    );
    const payments = await db.query(
      `SELECT merchant_id, livemode, quarter_of(created_at) AS quarter, currency, status, count(*)::int AS count
       FROM payments GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
    );
    expect(payments.rows.length).toBeGreaterThan(5);
    expect(counted.rows).toEqual(payments.rows);
  });
});
