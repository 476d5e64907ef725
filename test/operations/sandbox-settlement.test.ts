import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { client, eventually, signUp, startTestServer, until } from '../support/server.ts';
import { startServerBehindProxy } from '../support/proxy.ts';

describe('sandbox settlement', () => {
  it('settles a test payment whose due time passed while the database was down, without a restart', async () => {
    const { server, proxy, stop, restore } = await startServerBehindProxy({ SANDBOX_SETTLE_MS: '300' });
    try {
      const merchant = await signUp(server.url);
      const api = client(server.url, merchant.keys.secretTest);
      const created = await api.post('/v1/payments', { amount: 5_000, currency: 'TZS', phone: '0700000001' });
      expect(created.status).toBe(201);
      const due = await server.database.pool.query<{ settle_at: Date }>(
        'SELECT settle_at FROM payments WHERE id = $1',
        [created.body.id],
      );
      const dueAt = due.rows[0]!.settle_at.getTime();
      proxy.cut();
      // The settlement falls due while the database is down, and the next attempt to reach it is refused.
      let refusedWhenDue: number | undefined;
      await until(
        () => Date.now() > dueAt && proxy.refused > (refusedWhenDue ??= proxy.refused),
        20_000,
        'a refused attempt after the due time',
      );
      await restore();
      const paid = await eventually(async () => {
        const payment = await api.get(`/v1/payments/${created.body.id}`);
        return payment.body.status === 'paid' ? payment.body : undefined;
      }, 15_000);
      expect(paid.fee + paid.net).toBe(5_000);
    } finally {
      await stop();
    }
  }, 60_000);

  it('after a restart, settles every merchant’s due payments, however many pending ones another merchant has', async () => {
    // Two processes in turn on one database: PostgreSQL's, or an embedded one kept on disk.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tz-settle-'));
    const env = { DATA_DIR: dataDir, SANDBOX_SETTLE_MS: '1500' };
    try {
      const first = await startTestServer(env);
      const patient = await signUp(first.url);
      const waiting = await signUp(first.url);
      let paymentId: string;
      try {
        // One merchant's 1,001 payments that stay pending by design (255700000003), made first.
        await first.database.pool.query(
          `INSERT INTO payments (id, merchant_id, livemode, amount, currency, status, phone, provider)
           SELECT 'pay_stays' || md5(random()::text || g), $1, false, 1000, 'TZS', 'pending', '255700000003', 'sandbox'
           FROM generate_series(1, 1001) AS g`,
          [patient.id],
        );
        const created = await client(first.url, waiting.keys.secretTest).post('/v1/payments', {
          amount: 7_000,
          currency: 'TZS',
          phone: '0700000001',
        });
        expect(created.status).toBe(201);
        paymentId = created.body.id;
      } finally {
        await first.close(); // before the payment is due
      }
      const second = await startTestServer(env);
      try {
        const api = client(second.url, waiting.keys.secretTest);
        await eventually(
          async () => (await api.get(`/v1/payments/${paymentId}`)).body.status === 'paid',
          10_000,
        );
        const stillPending = await second.database.pool.query(
          `SELECT count(*)::int AS n FROM payments WHERE merchant_id = $1 AND status = 'pending' AND settle_at IS NULL`,
          [patient.id],
        );
        expect(stillPending.rows[0].n).toBe(1001);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
