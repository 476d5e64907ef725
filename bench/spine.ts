/**
 * The spine's benchmark, all in one run on one machine so ratios hold on a
 * noisy host: bare Koa (HTTP ceiling), pgbench -N (database ceiling), the
 * database floor (bare Koa sending only the statements a payment read or
 * write needs), then GET /v1/payments/{id} and POST /v1/payments with a fresh
 * Idempotency-Key, and both at a steady 200 requests/s for latency.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/spine.ts
 */
import type autocannon from 'autocannon';
import {
  benchDatabase,
  freePort,
  machine,
  measure,
  pgbench,
  signUpMerchant,
  startProcess,
  startServerProcess,
  stopProcess,
  type Measurement,
} from './support/harness.ts';

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

const database = await benchDatabase(baseUrl, 'bench_spine');
const results: Measurement[] = [];
try {
  const barePort = await freePort();
  const bare = await startProcess(
    'bench/support/bare-koa.ts',
    { PORT: String(barePort) },
    async () => (await fetch(`http://127.0.0.1:${barePort}/`)).ok,
  );
  results.push(
    await measure('bare Koa, fixed JSON', {
      url: `http://127.0.0.1:${barePort}/`,
      connections,
      duration: seconds,
    }),
  );
  await stopProcess(bare);

  const db = await pgbench(database.url, connections, seconds);

  // The floor: the payment statements alone, from bare Koa, on the migrated schema.
  {
    const { url, child: migrated } = await startServerProcess({
      DATABASE_URL: database.url,
      SANDBOX_SETTLE_MS: '3600000',
    });
    const owner = await signUpMerchant(url, 'Floor');
    const payment = (await (
      await fetch(`${url}/v1/payments`, {
        method: 'POST',
        headers: owner.headers,
        body: JSON.stringify({ amount: 1000, currency: 'TZS', phone: '0700000003' }),
      })
    ).json()) as { id: string };
    await stopProcess(migrated);
    const floorPort = await freePort();
    const floorUrl = `http://127.0.0.1:${floorPort}/`;
    const floor = await startProcess(
      'bench/support/database-floor.ts',
      { PORT: String(floorPort), DATABASE_URL: database.url, MERCHANT_ID: owner.id, PAYMENT_ID: payment.id },
      async () => (await fetch(floorUrl)).ok,
    );
    results.push(
      await measure('floor: bare Koa + the payment read', { url: floorUrl, connections, duration: seconds }),
    );
    results.push(
      await measure('floor: bare Koa + the payment write', {
        url: floorUrl,
        method: 'POST',
        connections,
        duration: seconds,
      }),
    );
    await stopProcess(floor);
  }

  // Rate-limit counters in PostgreSQL (the default), then in Redis.
  for (const store of [
    { label: '', env: {} },
    { label: ', limits in Redis', env: { REDIS_URL: 'redis://127.0.0.1:6379' } },
  ]) {
    const { url, child: server } = await startServerProcess({
      DATABASE_URL: database.url,
      RATE_LIMIT_MAX: '100000000',
      SANDBOX_SETTLE_MS: '3600000',
      RATE_LIMIT_KEY_PREFIX: `bench${Date.now()}`,
      ...store.env,
    });
    try {
      const { headers: auth } = await signUpMerchant(url);
      const payment = await (
        await fetch(`${url}/v1/payments`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ amount: 1000, currency: 'TZS', phone: '0700000003' }),
        })
      ).json();

      const get = { url: `${url}/v1/payments/${payment.id}`, headers: auth, connections, duration: seconds };
      let counter = 0;
      const post = {
        url: `${url}/v1/payments`,
        method: 'POST' as const,
        headers: auth,
        body: JSON.stringify({ amount: 1000, currency: 'TZS', phone: '0700000003' }),
        connections,
        duration: seconds,
        setupClient: (client: autocannon.Client) => {
          const fresh = () =>
            client.setHeaders({ ...auth, 'Idempotency-Key': `bench-${process.pid}-${++counter}` });
          fresh();
          client.on('response', fresh);
        },
      };
      results.push(await measure(`GET /v1/payments/{id}${store.label}`, get));
      results.push(await measure(`POST /v1/payments (fresh Idempotency-Key)${store.label}`, post));
      results.push(
        await measure(`GET /v1/payments/{id} at 200 req/s${store.label}`, {
          ...get,
          connections: 10,
          overallRate: 200,
        }),
      );
      results.push(
        await measure(`POST /v1/payments at 200 req/s${store.label}`, {
          ...post,
          connections: 10,
          overallRate: 200,
        }),
      );
    } finally {
      await stopProcess(server);
    }
  }

  const bareRps = results[0]!.requestsPerSecond;
  const floorRead = results.find((r) => r.name.endsWith('payment read'))!.requestsPerSecond;
  const floorWrite = results.find((r) => r.name.endsWith('payment write'))!.requestsPerSecond;
  const lines = [
    `Run ${new Date().toISOString()} on ${machine()}; PostgreSQL ${baseUrl.replace(/\/\/.*@/, '//')}; ${connections} connections, ${seconds} s each.`,
    '',
    '| Measurement | req/s | p50 ms | p99 ms | errors | database CPU µs/request | ratio |',
    '|---|---|---|---|---|---|---|',
    ...results.map((r) => {
      const closedLoop = !r.name.includes('200 req/s');
      const ratio = !closedLoop
        ? ''
        : r.name.endsWith('payment read')
          ? `${(r.requestsPerSecond / bareRps).toFixed(2)} of bare Koa`
          : r.name.endsWith('payment write')
            ? `${(r.requestsPerSecond / db.tps).toFixed(2)} of pgbench`
            : r.name.startsWith('GET')
              ? `${(r.requestsPerSecond / bareRps).toFixed(2)} of bare Koa, ${(r.requestsPerSecond / floorRead).toFixed(2)} of the floor`
              : r.name.startsWith('POST')
                ? `${(r.requestsPerSecond / db.tps).toFixed(2)} of pgbench, ${(r.requestsPerSecond / floorWrite).toFixed(2)} of the floor`
                : '';
      return `| ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} | ${r.databaseCpuMicros ?? 'n/a'} | ${ratio} |`;
    }),
    `| pgbench -N, ${connections} clients | ${db.tps} tps | | | | ${db.databaseCpuMicros ?? 'n/a'} per transaction | avg ${db.latencyMs} ms |`,
  ];
  console.log(lines.join('\n'));
} finally {
  await database.drop();
}
