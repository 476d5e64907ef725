import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventually, signUp, startTestServer, until, type Merchant } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';

let server: RunningServer;
let merchant: Merchant;

beforeAll(async () => {
  // Keys stay cached far longer than any wait below: only a revocation or a grace period's end can stop one.
  server = await startTestServer({ AUTH_CACHE_SECONDS: '60' });
  merchant = await signUp(server.url);
});
afterAll(() => server?.close());

/** Requests with `key` in a loop until stopped: reads that fill the key cache, and key creations. */
function hammer(key: string) {
  const victim = client(server.url, key);
  let running = true;
  let answered = 0;
  const loop = async (request: () => Promise<unknown>) => {
    while (running) {
      await request();
      answered++;
    }
  };
  const loops = [
    ...Array.from({ length: 4 }, () => loop(() => victim.get('/v1/balance'))),
    ...Array.from({ length: 2 }, () => loop(() => victim.post('/v1/api-keys', { type: 'secret' }))),
  ];
  return {
    answered: () => answered,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe('revoking or rolling a key', () => {
  it('refuses the key from the moment the revocation answers, even to requests racing it, and lets it mint nothing after', async () => {
    const admin = client(server.url, merchant.keys.secretTest);
    for (let round = 0; round < 6; round++) {
      const created = await admin.post('/v1/api-keys', { type: 'secret' });
      expect(created.status).toBe(201);
      const hammering = hammer(created.body.key);
      // The key is cached and in use, with requests in flight, when it is revoked.
      await until(() => hammering.answered() >= 6, 10_000, 'the key in use');
      const revoked =
        round % 2 === 0
          ? await admin.delete(`/v1/api-keys/${created.body.id}`)
          : await admin.post(`/v1/api-keys/${created.body.id}/roll`, {});
      expect(revoked.status).toBeLessThan(300);
      const victim = client(server.url, created.body.key);
      const after = await Promise.all([
        victim.get('/v1/balance'),
        victim.post('/v1/api-keys', { type: 'secret' }),
        victim.get('/v1/api-keys'),
      ]);
      await hammering.stop();
      expect(
        after.map((response) => response.status),
        `round ${round}`,
      ).toEqual([401, 401, 401]);
      // Every key the revoked key made was made before the revocation took effect.
      const late = await server.database.pool.query(
        `SELECT k.id FROM api_keys k, api_keys revoked
         WHERE revoked.id = $2 AND k.merchant_id = $1 AND k.created_at > revoked.revoked_at
           AND k.id <> $3`,
        [merchant.id, created.body.id, revoked.body.id],
      );
      expect(late.rows, `round ${round}`).toEqual([]);
    }
  });

  it('stops a rolled key at the end of its grace period even while it is cached', async () => {
    const admin = client(server.url, merchant.keys.secretTest);
    const created = await admin.post('/v1/api-keys', { type: 'secret' });
    const victim = client(server.url, created.body.key);
    expect((await victim.get('/v1/balance')).status).toBe(200);
    const rolled = await admin.post(`/v1/api-keys/${created.body.id}/roll`, { expires_in_hours: 1 });
    expect(rolled.status).toBe(201);
    // A grace period far shorter than the key cache's time, long enough for the request that caches it.
    await server.database.pool.query(
      `UPDATE api_keys SET expires_at = now() + interval '1500 milliseconds' WHERE id = $1`,
      [created.body.id],
    );
    expect((await victim.get('/v1/balance')).status).toBe(200);
    await eventually(async () => (await victim.get('/v1/balance')).status === 401, 30_000, 'the key refused');
  });
});
