import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { withMerchant, type SignedUp } from '../support/merchant.ts';
import { eventually } from '../support/server.ts';
import { isolatedDatabase } from '../webhooks/support.ts';
import { makeSubscription } from './support.ts';

/** Canceling now (what happens to the open invoice) and resuming, with the scheduler on a moved clock. */
const eat = (iso: string) => new Date(`${iso}+03:00`);
const unix = (date: Date) => Math.floor(date.getTime() / 1000);
const DAY = 86_400_000;
const clock = movableClock(eat('2027-03-01T09:00:00'));
// Sandbox numbers: …02 fails, …03 stays pending (its outcome is given below, as a provider would).
const FAILS = '255700000002';
const STAYS_PENDING = '255700000003';

let server: RunningServer;
let api: SignedUp['api'];
let database: Awaited<ReturnType<typeof isolatedDatabase>>;

beforeAll(async () => {
  // A database of its own on PostgreSQL: another file's scheduler, on another moved clock, must not
  // bill these subscriptions, nor this one's theirs.
  database = await isolatedDatabase();
  ({ server, api } = await withMerchant({ clock, env: { SANDBOX_SETTLE_MS: '20', ...database.env } }));
}, 120_000);
afterAll(async () => {
  await server?.close();
  await database?.drop();
});

const query = async <T = Record<string, unknown>>(text: string, values: unknown[]) =>
  (await server.database.pool.query(text, values)).rows as T[];

const eventTypes = async (id: string) =>
  (
    await query<{ type: string }>(`SELECT type FROM events WHERE data->'object'->>'id' = $1 ORDER BY seq`, [
      id,
    ])
  ).map((e) => e.type);

const chargesOf = async (id: string) =>
  query<{ payment_id: string; status: string }>(
    `SELECT c.payment_id, p.status FROM subscription_charges c JOIN payments p ON p.id = c.payment_id
     WHERE c.subscription_id = $1 ORDER BY c.period, c.attempt`,
    [id],
  );

const periodsOf = async (id: string) =>
  query<{ invoice_id: string; status: string; next_attempt_at: Date | null }>(
    `SELECT invoice_id, status, next_attempt_at FROM subscription_periods WHERE subscription_id = $1 ORDER BY period`,
    [id],
  );

/** Runs what is due, then waits until the sandbox settled every charge it settles. */
async function runAndSettle(id: string): Promise<void> {
  await server.services.subscriptionScheduler.runDue();
  await eventually(async () => {
    const charges = await query<{ phone: string; status: string }>(
      `SELECT p.phone, p.status FROM subscription_charges c JOIN payments p ON p.id = c.payment_id
       WHERE c.subscription_id = $1`,
      [id],
    );
    return charges.every((c) => c.status !== 'pending' || c.phone === STAYS_PENDING);
  }, 20_000);
}

/** A subscription whose first period opened and was charged at the clock's time. */
async function charged(phone: string): Promise<{ id: string; invoice: string; payment: string }> {
  const id: string = (await makeSubscription(api, { phone })).body.id;
  await runAndSettle(id);
  const [period] = await periodsOf(id);
  const [charge] = await chargesOf(id);
  return { id, invoice: period!.invoice_id, payment: charge!.payment_id };
}

/**
 * Holds an invoice's row as a charge under way does (`POST /v1/invoices/{id}/pay`), until released.
 * On PostgreSQL from a session of its own, and `waited` resolves once another session waits for it. The embedded database has one session: the hold is a transaction the server's own requests
 * queue behind, so anything a request does (reading the clock included) comes after the release.
 */
async function holdInvoice(
  invoiceId: string,
): Promise<{ waited(): Promise<void>; release(): Promise<void> }> {
  const url = database.env.DATABASE_URL;
  if (url) {
    const holder = new pg.Client({ connectionString: url });
    holder.on('error', () => undefined); // dropped with the test's database
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM invoices WHERE id = $1 FOR UPDATE', [invoiceId]);
    return {
      waited: () =>
        eventually(async () => {
          const waiting = await holder.query(
            `SELECT 1 FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))`,
          );
          return (waiting.rowCount ?? 0) > 0;
        }).then(() => undefined),
      release: async () => {
        await holder.query('COMMIT');
        await holder.end();
      },
    };
  }
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const done = server.database.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM invoices WHERE id = $1 FOR UPDATE', [invoiceId]);
    held();
    await gate;
  });
  await holding;
  return {
    waited: () => Promise.resolve(),
    release: async () => {
      release();
      await done;
    },
  };
}

describe('canceling now', () => {
  it('voids the open unpaid invoice in the cancel, and no retry follows', async () => {
    const start = eat('2027-03-01T09:00:00');
    clock.set(start);
    const { id, invoice } = await charged(FAILS);
    expect((await api.get(`/v1/subscriptions/${id}`)).body.status).toBe('past_due');
    expect((await periodsOf(id))[0]!.next_attempt_at).not.toBeNull();

    const canceled = await api.post(`/v1/subscriptions/${id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', cancellation_reason: 'requested' });
    expect((await api.get(`/v1/invoices/${invoice}`)).body).toMatchObject({ status: 'void', amount_paid: 0 });
    expect(await eventTypes(invoice)).toContain('invoice.voided');

    for (const day of [1, 3, 5, 40]) {
      clock.set(new Date(start.getTime() + day * DAY + 1_000));
      await runAndSettle(id);
    }
    expect(await chargesOf(id)).toHaveLength(1);
    expect(await periodsOf(id)).toHaveLength(1);
    expect(await eventTypes(id)).toEqual([
      'subscription.created',
      'subscription.past_due',
      'subscription.canceled',
    ]);
  });

  it('leaves an invoice whose charge is out open, and records that charge when it succeeds', async () => {
    const start = eat('2027-05-01T09:00:00');
    clock.set(start);
    const { id, invoice, payment } = await charged(STAYS_PENDING);
    expect((await api.get(`/v1/payments/${payment}`)).body.status).toBe('pending');

    expect((await api.post(`/v1/subscriptions/${id}/cancel`)).status).toBe(200);
    expect((await api.get(`/v1/invoices/${invoice}`)).body.status).toBe('open');

    // The provider's answer arrives after the cancel.
    await server.services.payments.applyOutcome(payment, { status: 'paid', reference: 'MP270501' });
    expect((await api.get(`/v1/invoices/${invoice}`)).body).toMatchObject({
      status: 'paid',
      amount_paid: 15_000,
    });
    expect((await api.get(`/v1/payments/${payment}`)).body.status).toBe('paid');
    const ledger = await query(
      `SELECT 1 FROM ledger_transactions WHERE type = 'payment' AND source_id = $1`,
      [payment],
    );
    expect(ledger).toHaveLength(1);
    expect(await eventTypes(invoice)).not.toContain('invoice.voided');
    expect((await periodsOf(id))[0]!.status).toBe('paid');
    expect((await api.get(`/v1/subscriptions/${id}`)).body.status).toBe('canceled');

    clock.set(new Date(start.getTime() + 40 * DAY));
    await runAndSettle(id);
    expect(await chargesOf(id)).toHaveLength(1);
    expect(await eventTypes(id)).toEqual(['subscription.created', 'subscription.canceled']);
  });

  it('voids the invoice when the charge that was out fails after the cancel, and retries nothing', async () => {
    const start = eat('2027-06-01T09:00:00');
    clock.set(start);
    const { id, invoice, payment } = await charged(STAYS_PENDING);
    expect((await api.post(`/v1/subscriptions/${id}/cancel`)).status).toBe(200);
    expect((await api.get(`/v1/invoices/${invoice}`)).body.status).toBe('open');

    await server.services.payments.applyOutcome(payment, {
      status: 'failed',
      reference: null,
      failureCode: 'insufficient_funds',
      failureMessage: 'The payer’s balance is too low',
    });
    expect((await api.get(`/v1/invoices/${invoice}`)).body.status).toBe('void');
    expect(await eventTypes(invoice)).toContain('invoice.voided');
    expect((await periodsOf(id))[0]!.next_attempt_at).toBeNull();

    for (const day of [1, 3, 5]) {
      clock.set(new Date(start.getTime() + day * DAY + 1_000));
      await runAndSettle(id);
    }
    expect(await chargesOf(id)).toEqual([{ payment_id: payment, status: 'failed' }]);
    expect(await eventTypes(id)).toEqual(['subscription.created', 'subscription.canceled']);
  });

  it('ends the same way when the cancel and the charge’s outcome race', async () => {
    clock.set(eat('2027-07-01T09:00:00'));
    for (const [round, outcome] of (['paid', 'failed', 'paid', 'failed'] as const).entries()) {
      const { id, invoice, payment } = await charged(STAYS_PENDING);
      const [cancel] = await Promise.all([
        api.post(`/v1/subscriptions/${id}/cancel`),
        server.services.payments.applyOutcome(
          payment,
          outcome === 'paid'
            ? { status: 'paid', reference: `MP270701${round}` }
            : { status: 'failed', reference: null, failureCode: 'insufficient_funds', failureMessage: 'Low' },
        ),
      ]);
      expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
      expect((await api.get(`/v1/invoices/${invoice}`)).body.status).toBe(
        outcome === 'paid' ? 'paid' : 'void',
      );
      expect((await api.get(`/v1/subscriptions/${id}`)).body.status).toBe('canceled');
      expect((await periodsOf(id))[0]!.next_attempt_at).toBeNull();
    }
  });
  it('takes its time once it holds the open invoice, so it never precedes a charge that held it', async () => {
    const start = eat('2027-08-01T09:00:00');
    clock.set(start);
    const { id, invoice } = await charged(FAILS);
    const hold = await holdInvoice(invoice);
    const cancel = api.post(`/v1/subscriptions/${id}/cancel`);
    await hold.waited();
    // The charge holding the invoice happens an hour on, as the cancel waits for it.
    const later = new Date(start.getTime() + 3_600_000);
    clock.set(later);
    await hold.release();
    const canceled = await cancel;
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(canceled.body.canceled_at).toBe(unix(later));
    expect((await api.get(`/v1/invoices/${invoice}`)).body.status).toBe('void');
  });
});

describe('resuming', () => {
  it('renews at the period end as if the cancellation had never been asked for', async () => {
    clock.set(eat('2027-09-01T08:00:00'));
    const created = await makeSubscription(api, { trial_period_days: 10 });
    const id: string = created.body.id;
    await api.post(`/v1/subscriptions/${id}/cancel`, { at_period_end: true });
    clock.set(eat('2027-09-11T07:59:59'));
    const resumed = await api.post(`/v1/subscriptions/${id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ status: 'trialing', cancel_at_period_end: false });
    clock.set(eat('2027-09-11T08:00:00'));
    await runAndSettle(id);
    expect((await api.get(`/v1/subscriptions/${id}`)).body).toMatchObject({
      status: 'active',
      canceled_at: null,
      current_period_start: unix(eat('2027-09-11T08:00:00')),
      next_renewal: unix(eat('2027-10-11T08:00:00')),
    });
    expect(await chargesOf(id)).toMatchObject([{ status: 'paid' }]);
    expect(await eventTypes(id)).toEqual(['subscription.created', 'subscription.renewed']);
  });
});
