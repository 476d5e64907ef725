import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../apps/server/src/db/database.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { anotherMerchant, withMerchant } from '../support/merchant.ts';
import { draftInvoice, makeCustomer } from '../invoices/support.ts';

/**
 * Invoice numbers when the scheduler opens a batch of periods at once: the
 * batch takes its numbers in one counter update, so an invoice finalised
 * through the API meanwhile, and a batch that fails and is rolled back, must
 * still leave each merchant's numbers unique and without gaps.
 */
const clock = movableClock(new Date('2027-05-01T06:00:00Z'));
let server: RunningServer;
let dropDatabase = async () => {};

/**
 * On PostgreSQL, a database of this file's own: every scheduler claims whatever is due by its
 * clock, so another file's server would otherwise open and charge these subscriptions too.
 */
async function ownDatabase(): Promise<Record<string, string>> {
  const runUrl = process.env.TEST_DATABASE_URL;
  if (!runUrl) return {};
  const url = new URL(runUrl);
  const name = `${url.pathname.slice(1)}_numbers`;
  const admin = new pg.Client({ connectionString: runUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), dataDir: '', poolMax: 2 });
  await migrate(database);
  await database.close();
  dropDatabase = async () => {
    const client = new pg.Client({ connectionString: runUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
  return { DATABASE_URL: url.toString() };
}

beforeAll(async () => {
  ({ server } = await withMerchant({
    clock,
    env: { SUBSCRIPTION_SCHEDULER: 'false', SANDBOX_SETTLE_MS: '3600000', ...(await ownDatabase()) },
  }));
});
afterAll(async () => {
  await server?.close();
  await dropDatabase();
});

const query = async <T = Record<string, unknown>>(text: string, values: unknown[]) =>
  (await server.database.pool.query(text, values)).rows as T[];

const numbersTo = (n: number) => Array.from({ length: n }, (_, i) => `INV-${String(i + 1).padStart(6, '0')}`);

/** `count` monthly subscriptions of the merchant for `customer`, due at the clock's time. */
async function dueSubscriptions(merchantId: string, customer: string, count: number, tag: string) {
  const rows = await query<{ id: string }>(
    `INSERT INTO subscriptions (id, merchant_id, livemode, customer_id, amount, currency, interval, interval_count,
       phone, status, after_final_failure, start_at, billing_anchor, next_renewal_at)
     SELECT 'sub_' || $5 || lpad(n::text, 4, '0'), $1, false, $2, 1000 + n, 'TZS', 'month', 1,
       '255700000001', 'active', 'cancel', $3, $3, $3
     FROM generate_series(1, $4::int) AS n RETURNING id`,
    [merchantId, customer, clock.now(), count, tag],
  );
  return rows.map((r) => r.id);
}

async function merchantNumbers(merchantId: string): Promise<string[]> {
  const rows = await query<{ number: string }>(
    `SELECT number FROM invoices WHERE merchant_id = $1 AND livemode = false AND number IS NOT NULL
     ORDER BY number`,
    [merchantId],
  );
  return rows.map((r) => r.number);
}

async function counter(merchantId: string): Promise<number> {
  const rows = await query<{ last_number: number }>(
    `SELECT last_number FROM invoice_number_counters WHERE merchant_id = $1 AND livemode = false`,
    [merchantId],
  );
  return rows[0]?.last_number ?? 0;
}

describe('invoice numbers of batched renewals', () => {
  it('stay unique and gapless when the API finalises invoices while the scheduler opens batches', async () => {
    const { api, merchant } = await anotherMerchant(server);
    const customer = await makeCustomer(api);
    const drafts = await Promise.all(Array.from({ length: 24 }, () => draftInvoice(api, customer)));
    const subscriptions = await dueSubscriptions(merchant.id, customer, 260, 'race');

    const finalized = Promise.all(
      drafts.map(async (draft, i) => {
        // Spread out, not waited for: finalisations land among the scheduler's batches.
        await new Promise((resolve) => setTimeout(resolve, i * 15));
        const response = await api.post(`/v1/invoices/${draft.id}/finalize`);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        return response.body.number as string;
      }),
    );
    await Promise.all([server.services.subscriptionScheduler.runDue(), finalized]);

    expect(await merchantNumbers(merchant.id)).toEqual(numbersTo(260 + 24));
    expect(await counter(merchant.id)).toBe(260 + 24);
    const opened = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM invoices WHERE subscription_id = ANY($1) AND status = 'open'`,
      [subscriptions],
    );
    expect(opened[0]!.n).toBe(260);
    // Each opened invoice's `invoice.finalized` event shows the number and time it was given.
    const events = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM invoices i JOIN events e
         ON e.type = 'invoice.finalized' AND e.data->'object'->>'id' = i.id
       WHERE i.subscription_id = ANY($1) AND e.data->'object'->>'number' = i.number
         AND e.data->'object'->>'status' = 'open'
         AND (e.data->'object'->>'finalized_at')::bigint = floor(extract(epoch FROM i.finalized_at))`,
      [subscriptions],
    );
    expect(events[0]!.n).toBe(260);
  });

  it('burns no number when a batch fails after taking its numbers', async () => {
    const { api, merchant } = await anotherMerchant(server);
    const customer = await makeCustomer(api);
    // An invoice holding INV-000005 that the counter knows nothing of: the batch's fifth number collides.
    const squatter = await draftInvoice(api, customer);
    await query(
      `UPDATE invoices SET status = 'open', number = 'INV-000005', finalized_at = now() WHERE id = $1`,
      [squatter.id],
    );
    const subscriptions = await dueSubscriptions(merchant.id, customer, 12, 'fail');

    await server.services.subscriptionScheduler.runDue();
    // The batch rolled back whole; alone, the first four opened and every later one met the collision.
    expect(await counter(merchant.id)).toBe(4);
    const opened = await query<{ number: string }>(
      `SELECT number FROM invoices WHERE subscription_id = ANY($1) ORDER BY number`,
      [subscriptions],
    );
    expect(opened.map((r) => r.number)).toEqual(numbersTo(4));
    const putOff = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM subscriptions WHERE id = ANY($1) AND current_period IS NULL
         AND next_renewal_at = $2`,
      [subscriptions, new Date(clock.now().getTime() + 5_000)],
    );
    expect(putOff[0]!.n).toBe(8);

    // Once the collision is gone, the rest open with the numbers that were given back.
    await query(`UPDATE invoices SET number = 'INV-X00005' WHERE id = $1`, [squatter.id]);
    clock.advance(5_000);
    await server.services.subscriptionScheduler.runDue();
    const all = await query<{ number: string }>(
      `SELECT number FROM invoices WHERE subscription_id = ANY($1) ORDER BY number`,
      [subscriptions],
    );
    expect(all.map((r) => r.number)).toEqual(numbersTo(12));
    expect(await counter(merchant.id)).toBe(12);
  });
});
