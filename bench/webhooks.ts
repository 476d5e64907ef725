/**
 * Webhook dispatch on PostgreSQL, all in one run so the ratios hold on a noisy
 * host. A receiver process answers 200 at once (and, on a second port, never).
 *
 * 1. Baseline: plain HTTP POSTs of a delivery-sized body to the receiver from a
 *    loop (keep-alive, 64 at a time), and at a steady 200/s for latency.
 * 2. Event-to-first-attempt latency: test events through the API at 200/s
 *    (after a 3 s warm-up); the receiver measures from just before each API
 *    call to the delivery, so the API call itself is included.
 * 3. Sustained deliveries/s: 10,000 events written straight into the outbox,
 *    fanned out to 2 endpoints (20,000 deliveries), drained by one server.
 * 4. Isolation: step 2 again while a third endpoint's receiver never answers
 *    (every attempt to it times out after WEBHOOK_TIMEOUT_MS = 2000).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/webhooks.ts
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  BENCH_SECRETS_KEY,
  benchDatabase,
  freePort,
  machine,
  signUpMerchant,
  startProcess,
} from './support/harness.ts';

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rate = 200;
const bulkEvents = Number(process.env.BENCH_EVENTS ?? 10_000);

const receiverSource = `
const http = require('node:http');
let latencies = [], count = 0;
const ok = http.createServer((req, res) => {
  if (req.url === '/stats') { res.end(JSON.stringify({ count, latencies })); return; }
  if (req.url === '/reset') { latencies = []; count = 0; res.end('{}'); return; }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    count++;
    try { const t = JSON.parse(Buffer.concat(chunks).toString()).data.object.t; if (t > 0) latencies.push(Date.now() - t); } catch {}
    res.end('ok');
  });
});
ok.keepAliveTimeout = 65000;
const hang = http.createServer(() => {});
ok.listen(Number(process.env.OK_PORT), '127.0.0.1');
hang.listen(Number(process.env.HANG_PORT), '127.0.0.1');
`;

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

const okPort = await freePort();
const hangPort = await freePort();
const receiver = spawn(process.execPath, ['-e', receiverSource], {
  env: { ...process.env, OK_PORT: String(okPort), HANG_PORT: String(hangPort) },
  stdio: 'inherit',
});
const receiverUrl = `http://127.0.0.1:${okPort}`;
const stats = async (): Promise<{ count: number; latencies: number[] }> =>
  (await (await fetch(`${receiverUrl}/stats`)).json()) as never;
const reset = () => fetch(`${receiverUrl}/reset`);
await sleep(300);

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const body = (t: number) =>
  JSON.stringify({
    id: 'evt_0000000000000000000000000',
    object: 'event',
    type: 'customer.created',
    created: 0,
    livemode: false,
    api_version: '1.1.0',
    data: { object: { t, name: 'Asha', email: 'asha@example.tz' } },
  });
const post = (path: string, payload: string) =>
  new Promise<void>((resolve, reject) => {
    const req = http.request(
      `${receiverUrl}${path}`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

/** Fires `send` at a steady `perSecond` for `seconds`, not waiting for one call before the next. */
async function steady(perSecond: number, durationSeconds: number, send: () => Promise<unknown>) {
  const total = perSecond * durationSeconds;
  const start = performance.now();
  const pending: Array<Promise<unknown>> = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(send().catch(() => undefined));
  }
  await Promise.all(pending);
}

// 1. Baseline.
await reset();
const baselineCount = 20_000;
let next = 0;
const baselineStart = performance.now();
await Promise.all(
  Array.from({ length: 64 }, async () => {
    while (next++ < baselineCount) await post('/hooks', body(0));
  }),
);
const baselinePerSecond = Math.round(baselineCount / ((performance.now() - baselineStart) / 1000));
await reset();
await steady(rate, seconds, () => post('/hooks', body(Date.now())));
const baselineLatency = (await stats()).latencies;

const database = await benchDatabase(baseUrl, 'bench_webhooks');
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = await startProcess(
  'apps/server/src/main.ts',
  {
    PORT: String(port),
    DATABASE_URL: database.url,
    SECRETS_KEY: BENCH_SECRETS_KEY,
    LOG_LEVEL: 'error',
    RATE_LIMIT_MAX: '100000000',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_TIMEOUT_MS: '2000',
  },
  async () => (await fetch(`${url}/healthz`)).ok,
);
const results: string[] = [];
try {
  const { id: merchantId, key } = await signUpMerchant(url);
  const api = (path: string, payload: unknown) =>
    fetch(`${url}/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    }).then(async (r) => {
      if (r.status >= 300) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      return r.json() as Promise<{ id: string }>;
    });
  await api('/webhooks', { url: `${receiverUrl}/hooks`, events: ['*'] });

  // 2. Event-to-first-attempt latency at 200 events/s, after 3 s of the same load to warm up (JIT, pools).
  await steady(rate, 3, () => api('/webhook-events/test', { type: 'customer.created', data: { t: 0 } }));
  await sleep(1000);
  await reset();
  const apiLatencies: number[] = [];
  await steady(rate, seconds, async () => {
    const started = Date.now();
    await api('/webhook-events/test', { type: 'customer.created', data: { t: started } });
    apiLatencies.push(Date.now() - started);
  });
  await sleep(1000);
  const latency = await stats();

  // 3. Sustained deliveries/s from a backlog in the outbox.
  const second = await api('/webhooks', { url: `${receiverUrl}/hooks/second`, events: ['customer.created'] });
  await reset();
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  await pool.query(
    `INSERT INTO events (id, merchant_id, livemode, type, api_version, data)
     SELECT 'evt_bench' || g, $1, false, 'customer.created', '1.1.0', jsonb_build_object('object', jsonb_build_object('n', g))
     FROM generate_series(1, $2::int) g`,
    [merchantId, bulkEvents],
  );
  const drainStart = performance.now();
  const expected = bulkEvents * 2;
  while ((await stats()).count < expected) {
    if (performance.now() - drainStart > 300_000) throw new Error('backlog did not drain');
    await sleep(100);
  }
  const drainSeconds = (performance.now() - drainStart) / 1000;
  const deliveriesPerSecond = Math.round(expected / drainSeconds);
  const attempts = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id LIKE 'evt_bench%'`,
  );
  await fetch(`${url}/v1/webhooks/${second.id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${key}` },
  });

  // 4. The same latency run while another endpoint never answers.
  await api('/webhooks', { url: `http://127.0.0.1:${hangPort}/hooks`, events: ['*'] });
  await reset();
  await steady(rate, seconds, () =>
    api('/webhook-events/test', { type: 'customer.created', data: { t: Date.now() } }),
  );
  await sleep(1000);
  const isolated = await stats();
  const pgVersion = (await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]!
    .server_version;
  await pool.end();

  const ms = (n: number) => `${Math.round(n)} ms`;
  // Sub-millisecond baselines round to 0: the ratio is then taken against 1 ms.
  const ratio = (value: number, baseline: number) => `${(value / Math.max(1, baseline)).toFixed(1)}×`;
  const b50 = percentile(baselineLatency, 50);
  const b99 = percentile(baselineLatency, 99);
  results.push(
    `Machine: ${machine()}, PostgreSQL ${pgVersion}. Date: ${new Date().toISOString().slice(0, 10)}.`,
    '',
    '| Measurement | Result | Baseline (plain POSTs, same receiver) | Ratio |',
    '| --- | --- | --- | --- |',
    `| Event-to-first-attempt latency at ${rate} events/s, p50 | ${ms(percentile(latency.latencies, 50))} | ${ms(b50)} | ${ratio(percentile(latency.latencies, 50), b50)} |`,
    `| Event-to-first-attempt latency at ${rate} events/s, p99 | ${ms(percentile(latency.latencies, 99))} | ${ms(b99)} | ${ratio(percentile(latency.latencies, 99), b99)} |`,
    `| Deliveries received (latency run) | ${latency.latencies.length} of ${rate * seconds} | | |`,
    `| (of which the API call that writes the event, p50 / p99) | ${ms(percentile(apiLatencies, 50))} / ${ms(percentile(apiLatencies, 99))} | | |`,
    `| Sustained deliveries/s (${expected} from a backlog of ${bulkEvents} events × 2 endpoints) | ${deliveriesPerSecond}/s | ${baselinePerSecond}/s | ${(deliveriesPerSecond / baselinePerSecond).toFixed(2)}× |`,
    `| Attempts recorded for that backlog | ${attempts.rows[0]!.n} | | |`,
    `| Latency p50 / p99 at ${rate} events/s with a second endpoint timing out | ${ms(percentile(isolated.latencies, 50))} / ${ms(percentile(isolated.latencies, 99))} | ${ms(b50)} / ${ms(b99)} | ${ratio(percentile(isolated.latencies, 99), b99)} (p99) |`,
  );
  console.log(results.join('\n'));
} finally {
  server.kill();
  receiver.kill();
  agent.destroy();
  await sleep(500);
  await database.drop();
}
