import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startTestServer } from '../support/server.ts';

export interface Received {
  at: number;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
}

export interface Reply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer (the attempt must time out). */
  hang?: boolean;
}

/** A real webhook receiver on 127.0.0.1 that records every request. */
export async function startReceiver(
  reply: (request: Received, index: number) => Reply | undefined = () => undefined,
) {
  const received: Received[] = [];
  let respond = reply;
  const server = http.createServer((req, res) => {
    const requestUrl = req.url ?? '';
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const request: Received = { at: Date.now(), url: requestUrl, headers: req.headers, body, json };
      received.push(request);
      const answer = respond(request, received.length - 1) ?? {};
      if (answer.hang) return;
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    setReply(next: typeof reply) {
      respond = next;
    },
    ofType: (type: string) => received.filter((r) => r.headers['x-webhook-event'] === type),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * On PostgreSQL, a database of this server's own: dispatchers of other test
 * files (with other retry and address settings) must not claim its deliveries.
 * On the embedded database each server already has its own.
 */
export async function isolatedDatabase(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return { env: {}, drop: async () => {} };
  const name = `wh_${process.pid}_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Settings that make retries and timeouts fast enough to test. */
export const FAST_WEBHOOKS = {
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_RETRY_DELAYS_MS: '0,200,400',
  // Generous: a loaded test machine must not turn a slow 200 into a timeout.
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_POLL_INTERVAL_MS: '50',
};

/** A test server on a database of its own; `close` also drops that database. */
export async function startWebhookServer(env: Record<string, string> = {}) {
  const database = await isolatedDatabase();
  const server = await startTestServer({ ...FAST_WEBHOOKS, ...database.env, ...env });
  const close = server.close.bind(server);
  return Object.assign(server, {
    databaseEnv: database.env,
    async close() {
      await close();
      await database.drop();
    },
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
