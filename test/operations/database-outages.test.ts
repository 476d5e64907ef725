import { describe, expect, it } from 'vitest';
import { client, eventually, signUp, startTestServer, until } from '../support/server.ts';
import { databaseBehindProxy, startServerBehindProxy } from '../support/proxy.ts';
import { freePort, health } from '../support/process.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe('the database at start and in outages', () => {
  it('starts while its database is unreachable, answering 503 meanwhile, and serves once it comes', async () => {
    const database = await databaseBehindProxy();
    database.proxy.cut();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const starting = startTestServer({
      DATABASE_URL: database.url,
      DATABASE_POOL_MAX: database.embedded ? '1' : '5',
      PORT: String(port),
    });
    try {
      await eventually(async () => (await health(url)) === 503, 20_000);
      const healthz = await client(url).get('/healthz');
      expect(healthz.body).toMatchObject({
        status: 'starting',
        database: expect.stringMatching(/^unreachable/),
      });
      expect(Number(healthz.headers.get('retry-after'))).toBeGreaterThan(0);
      const request = await client(url).get('/v1/balance');
      expect(request.status).toBe(503);
      expect(request.body).toMatchObject({ error: 'api_error', code: 'service_unavailable' });
      expect(request.headers.get('x-request-id')).toMatch(/^req_/);
      // A few attempts to reach the database fail (it retries with backoff: 250 ms, 500 ms, ...).
      await until(() => database.proxy.refused >= 3, 20_000, 'three refused attempts');
      await database.restore();
      const server = await starting;
      try {
        expect(await health(url)).toBe(200);
        await signUp(url);
      } finally {
        await server.close();
      }
    } finally {
      await starting.then((server) => server.close()).catch(() => undefined);
      await database.stop();
    }
  }, 90_000);

  it('answers 503 within 5 s to requests and to /healthz when the database goes silent, and recovers', async () => {
    const { server, proxy, restore, stop } = await startServerBehindProxy();
    try {
      const merchant = await signUp(server.url);
      const api = client(server.url, merchant.keys.secretTest);
      expect((await api.get('/v1/balance')).status).toBe(200);
      proxy.blackhole();
      const timed = async <T>(work: Promise<T>) => {
        const started = Date.now();
        const result = await work;
        return { result, ms: Date.now() - started };
      };
      const [payment, healthz] = await Promise.all([
        timed(api.post('/v1/payments', { amount: 1_000, currency: 'TZS', phone: '0700000001' })),
        timed(client(server.url).get('/healthz')),
      ]);
      expect(payment.result.status).toBe(503);
      expect(payment.result.body.code).toBe('service_unavailable');
      expect(payment.ms).toBeLessThan(5_000);
      expect(healthz.result.status).toBe(503);
      expect(healthz.ms).toBeLessThan(5_000);
      await restore();
      await eventually(async () => (await health(server.url)) === 200, 15_000);
      await eventually(
        async () =>
          (await api.post('/v1/payments', { amount: 1_000, currency: 'TZS', phone: '0700000001' })).status ===
          201,
        15_000,
      );
    } finally {
      await stop();
    }
  }, 90_000);

  it.skipIf(!onPostgres)(
    'lets PostgreSQL end a session left idle inside a transaction, releasing its row locks',
    async () => {
      // Statements may wait far longer than the idle timeout: only that timeout can free the row.
      const server = await startTestServer({
        DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '1000',
        DATABASE_STATEMENT_TIMEOUT_MS: '30000',
      });
      try {
        const merchant = await signUp(server.url);
        // A server session that holds a row lock and then goes quiet, as behind a half-open connection.
        const abandoned = await server.database.pool.connect();
        abandoned.on('error', () => undefined);
        await abandoned.query('BEGIN');
        await abandoned.query('SELECT 1 FROM merchants WHERE id = $1 FOR UPDATE', [merchant.id]);
        const started = Date.now();
        await server.database.pool.query(`UPDATE merchants SET business_name = 'Duka Huru' WHERE id = $1`, [
          merchant.id,
        ]);
        expect(Date.now() - started).toBeGreaterThanOrEqual(900);
        await expect(abandoned.query('SELECT 1')).rejects.toThrow();
        abandoned.release(true);
      } finally {
        await server.close();
      }
    },
    60_000,
  );

  it.skipIf(onPostgres)(
    'sets no idle-in-transaction timeout on the embedded database, whose one session ends with it',
    async () => {
      const server = await startTestServer({ DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '1000' });
      try {
        // One in-process session under every connection: nothing half-open to end, and ending it would end everything.
        const setting = await server.database.pool.query('SHOW idle_in_transaction_session_timeout');
        expect(setting.rows[0].idle_in_transaction_session_timeout).toBe('0');
      } finally {
        await server.close();
      }
    },
  );
});
