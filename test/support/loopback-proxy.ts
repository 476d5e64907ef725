/**
 * A small HTTP proxy on loopback for a browser context to go through, which a
 * test can sever: Chromium's `setOffline` alone lets some requests through
 * during a reload, so an offline test cuts the network here as well.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface LoopbackProxy {
  /** `http://127.0.0.1:PORT`, for `browser.newContext({ proxy: { server } })`. */
  readonly url: string;
  /** Requests that reached a server through the proxy since it started. */
  readonly forwarded: number;
  /** Requests refused while severed. */
  readonly refused: number;
  /**
   * Cuts every open connection and refuses new ones until `restore()`; with
   * `keep`, requests to those `host:port`s still pass (the shop's internet is
   * down, the printer bridge on the counter's own machine is not).
   */
  sever(options?: { keep?: readonly string[] }): void;
  /**
   * A server gone silent (its machine off, packets dropped): open connections
   * and new ones stay open but carry nothing, neither answered nor closed,
   * until `restore()`.
   */
  stall(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startLoopbackProxy(): Promise<LoopbackProxy> {
  let severed = false;
  let kept = new Set<string>();
  let stalled = false;
  let forwarded = 0;
  let refused = 0;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    // A kept-alive upstream socket comes back for each request: tracked (and listened to) once.
    if (sockets.has(socket)) return;
    sockets.add(socket);
    if (stalled) socket.pause();
    socket.on('close', () => sockets.delete(socket));
  };

  const server = http.createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (severed && !kept.has(target.host)) {
      refused++;
      req.socket.destroy();
      return;
    }
    forwarded++;
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('socket', track);
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', track);
  // HTTPS and WebSocket-style tunnels, for completeness.
  server.on('connect', (req: http.IncomingMessage, client: net.Socket) => {
    if (severed && !kept.has(req.url ?? '')) {
      refused++;
      client.destroy();
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    forwarded++;
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get forwarded() {
      return forwarded;
    },
    get refused() {
      return refused;
    },
    sever(options = {}) {
      severed = true;
      kept = new Set(options.keep ?? []);
      for (const socket of sockets) socket.destroy();
    },
    stall() {
      stalled = true;
      for (const socket of sockets) socket.pause();
    },
    restore() {
      severed = false;
      stalled = false;
      for (const socket of sockets) socket.resume();
    },
    async close() {
      severed = true;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
