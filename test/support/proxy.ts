import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { startTestServer } from './server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { EMBEDDED_EXTENSIONS } from '../../apps/server/src/db/embedded.ts';

/**
 * A TCP proxy in front of the database that can be cut (connections reset and
 * refused, like a stopped database) or blackholed (connections open, nothing
 * passes, like a dead network path), and restored.
 */
export class CuttableProxy {
  private server = net.createServer((socket) => this.accept(socket));
  private sockets = new Set<net.Socket>();
  private state: 'up' | 'cut' | 'blackholed' = 'up';
  port = 0;
  /** Connections refused while cut. */
  refused = 0;
  constructor(private target: { host: string; port: number }) {}
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }
  private accept(socket: net.Socket) {
    if (this.state === 'cut') {
      this.refused++;
      return socket.destroy();
    }
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    if (this.state === 'blackholed') {
      socket.on('close', () => this.sockets.delete(socket));
      return; // never connected upstream: nothing will ever answer
    }
    const upstream = net.connect(this.target.port, this.target.host);
    this.sockets.add(upstream);
    const forward = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (this.state === 'up') to.write(chunk); // blackholed: dropped
      });
    forward(socket, upstream);
    forward(upstream, socket);
    const drop = () => {
      socket.destroy();
      upstream.destroy();
      this.sockets.delete(socket);
      this.sockets.delete(upstream);
    };
    socket.on('close', drop);
    upstream.on('error', drop).on('close', drop);
  }
  cut() {
    this.state = 'cut';
    for (const socket of this.sockets) socket.destroy();
  }
  /** Packets vanish: open connections stay open and silent, new ones connect and hear nothing. */
  blackhole() {
    this.state = 'blackholed';
  }
  restore() {
    this.state = 'up';
  }
  async stop() {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** The run's database (PostgreSQL, or an embedded one served on a socket) behind a `CuttableProxy`. */
export async function databaseBehindProxy() {
  let embedded: { pglite: PGlite; socket: PGLiteSocketServer } | undefined;
  let target: URL;
  if (process.env.TEST_DATABASE_URL) target = new URL(process.env.TEST_DATABASE_URL);
  else {
    const pglite = await PGlite.create({ extensions: EMBEDDED_EXTENSIONS });
    const socket = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 4 });
    await socket.start();
    embedded = { pglite, socket };
    target = new URL(`postgres://postgres@${socket.getServerConn()}/postgres`);
  }
  const proxy = new CuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await proxy.start();
  const viaProxy = new URL(target);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  viaProxy.searchParams.set('sslmode', 'disable');
  return {
    proxy,
    url: viaProxy.toString(),
    embedded: embedded !== undefined,
    /**
     * Ends the outage. The embedded database keeps one session under every
     * connection, with the named statements of connections gone before: they
     * go, as the server does for its own embedded database.
     */
    restore: async () => {
      await embedded?.pglite.exec('DEALLOCATE ALL');
      proxy.restore();
    },
    stop: async () => {
      await proxy.stop();
      if (embedded) {
        await embedded.socket.stop();
        await embedded.pglite.close();
      }
    },
  };
}

/** A server whose database sits behind a `CuttableProxy`. */
export async function startServerBehindProxy(env: Record<string, string> = {}) {
  const database = await databaseBehindProxy();
  let server: RunningServer;
  try {
    // Through the proxy the server sees a PostgreSQL URL in both runs; one connection keeps the embedded one consistent.
    server = await startTestServer({
      DATABASE_URL: database.url,
      DATABASE_POOL_MAX: database.embedded ? '1' : '5',
      LOG_LEVEL: process.env.DEBUG_LOG ? 'error' : 'silent',
      ...env,
    });
  } catch (error) {
    await database.stop();
    throw error;
  }
  return {
    server,
    proxy: database.proxy,
    restore: () => database.restore(),
    stop: async () => {
      await server.close();
      await database.stop();
    },
  };
}
