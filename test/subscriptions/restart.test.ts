import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import { makeSubscription } from './support.ts';

const clock = movableClock(new Date('2027-06-30T21:00:00Z'));
let dataDir: string | undefined;
const running: RunningServer[] = [];

/** A server on a database that outlives it: PostgreSQL, or an embedded database on disk. */
async function start(): Promise<RunningServer> {
  dataDir ??= await mkdtemp(path.join(os.tmpdir(), 'subs-restart-'));
  const server = await startTestServer(
    { SUBSCRIPTION_SCHEDULER: 'false', SANDBOX_SETTLE_MS: '3600000', DATA_DIR: dataDir },
    { clock },
  );
  running.push(server);
  return server;
}

afterAll(async () => {
  for (const server of running) await server.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('a restart', () => {
  it('loses no renewal: what fell due while no process ran is opened and charged by the next', async () => {
    const first = await start();
    const merchant = await signUp(first.url);
    const api = client(first.url, merchant.keys.secretTest);
    const startDate = Math.floor(clock.now().getTime() / 1000) + 600;
    const created = await makeSubscription(api, { start_date: startDate });
    expect(created.status).toBe(201);
    await first.close();

    clock.set(new Date((startDate + 60) * 1000));
    const second = await start();
    await second.services.subscriptionScheduler.runDue();
    const after = await client(second.url, merchant.keys.secretTest).get(
      `/v1/subscriptions/${created.body.id}`,
    );
    expect(after.body).toMatchObject({ status: 'active', current_period_start: startDate });
    const charges = await second.database.pool.query(
      `SELECT c.attempt, i.status FROM subscription_charges c
       JOIN subscription_periods p USING (subscription_id, period) JOIN invoices i ON i.id = p.invoice_id
       WHERE c.subscription_id = $1`,
      [created.body.id],
    );
    expect(charges.rows).toEqual([{ attempt: 1, status: 'open' }]);
  });
});
