import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodBoundary } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { withMerchant, type SignedUp } from '../support/merchant.ts';
import { eventually } from '../support/server.ts';
import { isolatedDatabase } from '../webhooks/support.ts';
import { makeSubscription } from './support.ts';

const eat = (iso: string) => new Date(`${iso}+03:00`);
const unix = (date: Date) => Math.floor(date.getTime() / 1000);
const DAY = 86_400_000;
const clock = movableClock(eat('2027-01-31T10:00:00'));

let server: RunningServer;
let api: SignedUp['api'];
let database: Awaited<ReturnType<typeof isolatedDatabase>>;

beforeAll(async () => {
  // A database of its own on PostgreSQL: its runs move the clock over years, and would bill (slowly,
  // at an hour's sandbox settlement) every subscription other files left due in a shared one.
  database = await isolatedDatabase();
  ({ server, api } = await withMerchant({ clock, env: { SANDBOX_SETTLE_MS: '20', ...database.env } }));
});
afterAll(async () => {
  await server?.close();
  await database?.drop();
});

const query = async <T = Record<string, unknown>>(text: string, values: unknown[]) =>
  (await server.database.pool.query(text, values)).rows as T[];

/** Runs what is due at the clock's time, then waits until the sandbox settled every charge made. */
async function runAndSettle(subscriptionId: string): Promise<void> {
  await server.services.subscriptionScheduler.runDue();
  await eventually(async () => {
    const pending = await query(
      `SELECT 1 FROM subscription_charges c JOIN payments p ON p.id = c.payment_id
       WHERE c.subscription_id = $1 AND p.status = 'pending'`,
      [subscriptionId],
    );
    return pending.length === 0;
  }, 20_000);
}

const eventTypes = async (id: string) =>
  (
    await query<{ type: string }>(`SELECT type FROM events WHERE data->'object'->>'id' = $1 ORDER BY seq`, [
      id,
    ])
  ).map((e) => e.type);

describe('renewals on a moved clock', () => {
  it('runs a year of monthly renewals from 31 January, each period ending where a person expects', async () => {
    clock.set(eat('2027-01-31T10:00:00'));
    const created = await makeSubscription(api);
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const anchor = eat('2027-01-31T10:00:00');
    const starts: number[] = [];
    for (let period = 0; period <= 12; period++) {
      clock.set(periodBoundary(anchor, { interval: 'month', intervalCount: 1 }, period));
      await runAndSettle(id);
      // The server's own scheduler may hold this renewal while the run above passes it by: wait for the period to move.
      const now = await eventually(async () => {
        const body = (await api.get(`/v1/subscriptions/${id}`)).body;
        return period === 0 || body.current_period_start !== starts.at(-1) ? body : false;
      }, 20_000);
      expect(now.status).toBe('active');
      starts.push(now.current_period_start);
    }
    expect(starts).toEqual(
      [
        '2027-01-31',
        '2027-02-28',
        '2027-03-31',
        '2027-04-30',
        '2027-05-31',
        '2027-06-30',
        '2027-07-31',
        '2027-08-31',
        '2027-09-30',
        '2027-10-31',
        '2027-11-30',
        '2027-12-31',
        '2028-01-31',
      ].map((day) => unix(eat(`${day}T10:00:00`))),
    );
    const periods = await query<{ period: number; status: string; attempts: number }>(
      `SELECT period, status, attempts FROM subscription_periods WHERE subscription_id = $1 ORDER BY period`,
      [id],
    );
    expect(periods).toEqual(
      Array.from({ length: 13 }, (_, period) => ({ period, status: 'paid', attempts: 1 })),
    );
    const invoices = await query<{ number: string; status: string; total: number }>(
      `SELECT number, status, total FROM invoices WHERE subscription_id = $1`,
      [id],
    );
    expect(invoices).toHaveLength(13);
    expect(new Set(invoices.map((i) => i.number)).size).toBe(13);
    expect(invoices.every((i) => i.status === 'paid' && Number(i.total) === 15_000)).toBe(true);
    const events = await eventTypes(id);
    expect(events[0]).toBe('subscription.created');
    expect(events.filter((type) => type === 'subscription.renewed')).toHaveLength(13);
  });

  it('opens nothing before a trial ends and cancels at period end without charging again', async () => {
    clock.set(eat('2027-05-01T08:00:00'));
    const created = await makeSubscription(api, { trial_period_days: 10 });
    const id: string = created.body.id;
    clock.set(eat('2027-05-11T07:59:59'));
    await server.services.subscriptionScheduler.runDue();
    expect(await query(`SELECT 1 FROM subscription_periods WHERE subscription_id = $1`, [id])).toHaveLength(
      0,
    );
    clock.set(eat('2027-05-11T08:00:00'));
    await runAndSettle(id);
    expect((await api.get(`/v1/subscriptions/${id}`)).body).toMatchObject({
      status: 'active',
      current_period_start: unix(eat('2027-05-11T08:00:00')),
      current_period_end: unix(eat('2027-06-11T08:00:00')),
    });
    await api.post(`/v1/subscriptions/${id}/cancel`, { at_period_end: true });
    clock.set(eat('2027-06-11T08:00:00'));
    await runAndSettle(id);
    expect((await api.get(`/v1/subscriptions/${id}`)).body).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'requested',
      canceled_at: unix(eat('2027-06-11T08:00:00')),
    });
    expect(await query(`SELECT 1 FROM subscription_charges WHERE subscription_id = $1`, [id])).toHaveLength(
      1,
    );
    expect(await eventTypes(id)).toEqual([
      'subscription.created',
      'subscription.renewed',
      'subscription.canceled',
    ]);
  });
});

describe('dunning', () => {
  it('retries a failing charge 1, 3 and 5 days after the first failure, past_due, then cancels', async () => {
    const start = eat('2027-08-01T09:00:00');
    clock.set(start);
    const id: string = (await makeSubscription(api, { phone: '255700000002' })).body.id;
    const attemptsSoFar = async () =>
      (await query(`SELECT 1 FROM subscription_charges WHERE subscription_id = $1`, [id])).length;

    await runAndSettle(id);
    expect((await api.get(`/v1/subscriptions/${id}`)).body.status).toBe('past_due');
    for (const [day, attempts] of [
      [0.9, 1],
      [1, 2],
      [2.9, 2],
      [3, 3],
      [5, 4],
    ] as const) {
      clock.set(new Date(start.getTime() + day * DAY + 1_000));
      await runAndSettle(id);
      expect(await attemptsSoFar()).toBe(attempts);
    }
    expect((await api.get(`/v1/subscriptions/${id}`)).body).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'payment_failed',
      next_renewal: null,
    });
    // Nothing further: no retry and no next period.
    clock.set(new Date(start.getTime() + 40 * DAY));
    await runAndSettle(id);
    expect(await attemptsSoFar()).toBe(4);
    expect(await eventTypes(id)).toEqual([
      'subscription.created',
      'subscription.past_due',
      'subscription.canceled',
    ]);
    const failed = await query<{ status: string }>(
      `SELECT p.status FROM subscription_charges c JOIN payments p ON p.id = c.payment_id WHERE c.subscription_id = $1`,
      [id],
    );
    expect(failed.map((p) => p.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
  });

  it('leaves a subscription past due after the last retry when so configured, and a late payment restores it', async () => {
    const start = eat('2027-09-01T09:00:00');
    clock.set(start);
    const created = await makeSubscription(api, {
      phone: '255700000002',
      after_final_failure: 'leave_unpaid',
    });
    const id: string = created.body.id;
    for (const day of [0, 1, 3, 5, 6, 40]) {
      clock.set(new Date(start.getTime() + day * DAY + 1_000));
      await runAndSettle(id);
    }
    expect((await api.get(`/v1/subscriptions/${id}`)).body.status).toBe('past_due');
    const periods = await query<{ invoice_id: string; attempts: number; status: string }>(
      `SELECT invoice_id, attempts, status FROM subscription_periods WHERE subscription_id = $1`,
      [id],
    );
    expect(periods).toMatchObject([{ attempts: 4, status: 'open' }]);
    // The customer pays the open invoice from another wallet.
    const paid = await api.post(`/v1/invoices/${periods[0]!.invoice_id}/pay`, { phone: '255700000001' });
    expect(paid.status).toBeLessThan(300);
    const restored = await eventually(async () => {
      const now = (await api.get(`/v1/subscriptions/${id}`)).body;
      return now.status === 'active' ? now : undefined;
    });
    expect(restored.status).toBe('active');
    expect(await eventTypes(id)).toEqual([
      'subscription.created',
      'subscription.past_due',
      'subscription.renewed',
    ]);
  });
});
