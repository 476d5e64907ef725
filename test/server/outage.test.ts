import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { client, eventually, signUp, startTestServer } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';

/** A TCP proxy in front of the database that can be cut and restored, like a network outage. */
class CuttableProxy {
  private server = net.createServer((socket) => this.accept(socket));
  private sockets = new Set<net.Socket>();
  private up = true;
  port = 0;
  constructor(private target: { host: string; port: number }) {}
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }
  private accept(socket: net.Socket) {
    if (!this.up) return socket.destroy();
    const upstream = net.connect(this.target.port, this.target.host);
    this.sockets.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    const drop = () => {
      socket.destroy();
      upstream.destroy();
      this.sockets.delete(socket);
      this.sockets.delete(upstream);
    };
    socket.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  }
  cut() {
    this.up = false;
    for (const socket of this.sockets) socket.destroy();
  }
  restore() {
    this.up = true;
  }
  async stop() {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

let embedded: { pglite: PGlite; socket: PGLiteSocketServer } | undefined;
let proxy: CuttableProxy;
let server: RunningServer;

beforeAll(async () => {
  let target: URL;
  if (process.env.TEST_DATABASE_URL) target = new URL(process.env.TEST_DATABASE_URL);
  else {
    const pglite = await PGlite.create();
    const socket = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 4 });
    await socket.start();
    embedded = { pglite, socket };
    target = new URL(`postgres://postgres@${socket.getServerConn()}/postgres`);
  }
  proxy = new CuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await proxy.start();
  const viaProxy = new URL(target);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  viaProxy.searchParams.set('sslmode', 'disable');
  // Through the proxy the server sees a PostgreSQL URL in both runs; one connection keeps the embedded one consistent.
  server = await startTestServer({ DATABASE_URL: viaProxy.toString(), DATABASE_POOL_MAX: embedded ? '1' : '5', LOG_LEVEL: process.env.DEBUG_LOG ? 'error' : 'silent' });
});
afterAll(async () => {
  await server?.close();
  await proxy?.stop();
  if (embedded) {
    await embedded.socket.stop();
    await embedded.pglite.close();
  }
});

describe('a database outage', () => {
  it('answers 503 with Retry-After and the error object, says so on /healthz, and recovers by itself', async () => {
    const merchant = await signUp(server.url);
    const api = client(server.url, merchant.keys.secretTest);
    expect((await api.get('/v1/balance')).status).toBe(200);

    proxy.cut();
    const started = Date.now();
    const during = await api.post('/v1/payments', { amount: 1000, currency: 'TZS', phone: '0700000001' });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(during.status).toBe(503);
    expect(during.body).toMatchObject({ error: 'api_error', code: 'service_unavailable' });
    expect(Number(during.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(during.headers.get('x-request-id')).toMatch(/^req_/);
    const health = await client(server.url).get('/healthz');
    expect(health.status).toBe(503);
    expect(health.body.status).toBe('unavailable');
    expect(health.body.database).toMatch(/^unreachable/);

    proxy.restore();
    await eventually(async () => (await client(server.url).get('/healthz')).status === 200, 10_000);
    const after = await api.post('/v1/payments', { amount: 1000, currency: 'TZS', phone: '0700000001' });
    expect(after.status).toBe(201);
  });
});
