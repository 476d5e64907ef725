import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { client, eventually, signUp, startTestServer, until } from '../support/server.ts';
import pino from 'pino';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { WebhookDispatcher } from '../../apps/server/src/webhooks/dispatcher.ts';
import { FAST_WEBHOOKS, isolatedDatabase, startReceiver } from './support.ts';
import { EventSignal } from '../../apps/server/src/infra/events.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A database that outlives a server: a data directory on PGlite, a database of its own on PostgreSQL. */
async function durableDatabase(): Promise<Record<string, string>> {
  const isolated = await isolatedDatabase();
  cleanups.push(() => isolated.drop());
  if (process.env.TEST_DATABASE_URL) return isolated.env;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'webhooks-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return { DATA_DIR: dir };
}

describe('durable delivery', () => {
  it('makes a pending retry on time after the server restarts on the same database', async () => {
    const env = { ...FAST_WEBHOOKS, WEBHOOK_RETRY_DELAYS_MS: '0,3000', ...(await durableDatabase()) };
    const hook = await startReceiver((_, i) => (i === 0 ? { status: 500 } : { status: 200 }));
    cleanups.push(() => hook.close());
    const first = await startTestServer(env);
    const merchant = await signUp(first.url);
    const api = client(first.url, merchant.keys.secretTest);
    await api.post('/v1/webhooks', { url: hook.url, events: ['*'] });
    const sent = await api.post('/v1/webhook-events/test', {
      type: 'customer.created',
      data: { restart: true },
    });
    await eventually(
      async () =>
        (await api.get(`/v1/webhook-deliveries?event=${sent.body.id}`)).body.data[0]?.attempts.length === 1,
    );
    await first.close();

    const second = await startTestServer(env);
    const restarted = Date.now();
    cleanups.push(() => second.close());
    await until(() => hook.received.length === 2, 15_000, 'the retry');
    const [failed, retried] = [hook.received[0]!.at, hook.received[1]!.at];
    // Not before it is due; as soon as it is due, or at once if the restart took longer than that.
    expect(retried - failed).toBeGreaterThanOrEqual(2_900);
    expect(retried - Math.max(failed + 3_000, restarted)).toBeLessThan(2_000);
    const after = client(second.url, merchant.keys.secretTest);
    const delivery = await eventually(async () => {
      const found = (await after.get(`/v1/webhook-deliveries?event=${sent.body.id}`)).body.data[0];
      return found.status === 'succeeded' ? found : undefined;
    });
    expect(delivery.attempts.map((a: any) => a.status_code)).toEqual([500, 200]);
    expect(hook.received.map((r) => r.headers['webhook-id'])).toEqual([sent.body.id, sent.body.id]);
  });

  it('sends each attempt exactly once with two dispatching server processes on one database', async () => {
    const env = { ...FAST_WEBHOOKS, WEBHOOK_RETRY_DELAYS_MS: '0,100', ...(await durableDatabase()) };
    const seen = new Map<string, number>();
    // Every event fails its first attempt, so the retries are shared out too.
    const hook = await startReceiver((request) => {
      const key = `${request.headers['webhook-id'] as string}:${request.url}`;
      const count = (seen.get(key) ?? 0) + 1;
      seen.set(key, count);
      return { status: count === 1 ? 500 : 200 };
    });
    cleanups.push(() => hook.close());
    const a = await startTestServer(env);
    cleanups.push(() => a.close());
    let b: RunningServer = a;
    let second: WebhookDispatcher | undefined;
    if (process.env.TEST_DATABASE_URL) {
      b = await startTestServer(env);
      cleanups.push(() => b.close());
    } else {
      // The embedded database belongs to one process: a second dispatcher beside the server's stands in for a second process.
      second = new WebhookDispatcher(
        a.database,
        a.config,
        a.services.secretBox,
        new EventSignal(),
        pino({ level: 'silent' }),
      );
      second.start();
      cleanups.push(() => second!.stop());
    }
    const merchant = await signUp(a.url);
    const apis = [client(a.url, merchant.keys.secretTest), client(b.url, merchant.keys.secretTest)];
    await apis[0]!.post('/v1/webhooks', { url: `${hook.url}/one`, events: ['*'] });
    await apis[1]!.post('/v1/webhooks', { url: `${hook.url}/two`, events: ['customer.created'] });
    const events = 60;
    await Promise.all(
      Array.from({ length: events }, (_, i) =>
        apis[i % 2]!.post('/v1/webhook-events/test', { type: 'customer.created', data: { i } }),
      ),
    );
    await until(() => hook.received.length >= events * 4, 20_000);
    await eventually(
      async () => (await apis[0]!.get('/v1/webhook-deliveries?status=pending')).body.data.length === 0,
      10_000,
    );
    const counted = await a.database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE merchant_id = $1 AND status = 'succeeded' AND attempt_count = 2`,
      [merchant.id],
    );
    expect(counted.rows[0]!.n).toBe(events * 2);
    // A stopped dispatcher has seen every attempt it made answered: a duplicate would have arrived by now.
    await second?.stop();
    await b.close();
    await a.close();
    expect(hook.received).toHaveLength(events * 4);
    const attempts = new Map<string, string[]>();
    for (const r of hook.received) {
      const key = `${r.headers['webhook-id'] as string}:${r.headers['x-webhook-delivery'] as string}`;
      attempts.set(key, [...(attempts.get(key) ?? []), r.headers['x-webhook-attempt'] as string]);
    }
    expect(attempts.size).toBe(events * 2);
    for (const list of attempts.values()) expect(list.sort()).toEqual(['1', '2']);
  });
});
