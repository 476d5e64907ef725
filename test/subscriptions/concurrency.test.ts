import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { SubscriptionScheduler } from '../../apps/server/src/subscriptions/scheduler.ts';
import { EventSignal } from '../../apps/server/src/infra/events.ts';
import { signUp, client, startTestServer } from '../support/server.ts';
import { throwingLogger } from '../support/logger.ts';
import { makeSubscription } from './support.ts';

const SUBSCRIPTIONS = 120;
const clock = movableClock(new Date('2027-03-01T06:00:00Z'));
const servers: RunningServer[] = [];

/**
 * Two server processes' schedulers on one database. On PostgreSQL, two
 * servers share one database, as two processes do; the embedded database
 * belongs to one process, so there the second scheduler runs in the same
 * server over the same database.
 */
async function twoSchedulers(): Promise<Array<() => Promise<void>>> {
  const env = { SUBSCRIPTION_SCHEDULER: 'false', SANDBOX_SETTLE_MS: '3600000' };
  servers.push(await startTestServer(env, { clock }));
  if (process.env.TEST_DATABASE_URL) {
    servers.push(await startTestServer(env, { clock }));
    return servers.map((s) => () => s.services.subscriptionScheduler.runDue());
  }
  const first = servers[0]!;
  const second = new SubscriptionScheduler(
    first.database,
    first.services.subscriptionBilling,
    clock,
    1_000,
    new EventSignal(),
    throwingLogger,
  );
  return [() => first.services.subscriptionScheduler.runDue(), () => second.runDue()];
}

let run: Array<() => Promise<void>>;
beforeAll(async () => {
  run = await twoSchedulers();
});
afterAll(async () => {
  for (const server of servers) await server.close();
});

describe('two processes sharing due subscriptions', () => {
  it('opens and charges every due subscription once, however the two interleave', async () => {
    const merchant = await signUp(servers[0]!.url);
    const api = client(servers[0]!.url, merchant.keys.secretTest);
    const startDate = Math.floor(clock.now().getTime() / 1000) + 3_600;
    const ids = new Set<string>();
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const created = await makeSubscription(api, { start_date: startDate, amount: 1_000 + i });
      expect(created.status).toBe(201);
      ids.add(created.body.id);
    }
    clock.set(new Date(startDate * 1000));
    // Both at once, twice over: the second round finds nothing left to do.
    await Promise.all(run.map((pass) => pass()));
    await Promise.all(run.map((pass) => pass()));

    const db = servers[0]!.database.pool;
    const counts = (
      await db.query(
        `SELECT (SELECT count(*) FROM subscription_periods WHERE subscription_id = ANY($1))::int AS periods,
                (SELECT count(*) FROM subscription_charges WHERE subscription_id = ANY($1))::int AS charges,
                (SELECT count(*) FROM invoices WHERE subscription_id = ANY($1))::int AS invoices,
                (SELECT count(*) FROM payments p JOIN invoices i ON i.id = p.invoice_id
                   WHERE i.subscription_id = ANY($1))::int AS payments`,
        [[...ids]],
      )
    ).rows[0];
    expect(counts).toEqual({
      periods: SUBSCRIPTIONS,
      charges: SUBSCRIPTIONS,
      invoices: SUBSCRIPTIONS,
      payments: SUBSCRIPTIONS,
    });
    const charged = await db.query(
      `SELECT i.total::int AS total, p.amount::int AS amount FROM invoices i JOIN payments p ON p.invoice_id = i.id
       WHERE i.subscription_id = ANY($1)`,
      [[...ids]],
    );
    expect(charged.rows.every((r) => r.total === r.amount)).toBe(true);
  });
});
