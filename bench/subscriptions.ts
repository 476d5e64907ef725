/**
 * Subscription renewals on PostgreSQL with two server processes sharing the
 * work, all in one run so the ratio holds on a noisy host:
 *
 * 1. Baseline: POST /v1/payments (fresh Idempotency-Key each) against both
 *    processes at once, 16 connections each, for BENCH_SECONDS: payments/s.
 * 2. BENCH_SUBSCRIPTIONS (default 10,000) monthly subscriptions written
 *    straight into the table, all due at the same moment a few seconds ahead.
 *    Both processes' schedulers find them by polling (the default interval)
 *    and open an invoice for each and charge it (a payment asked of the
 *    sandbox, which is told to settle an hour later so settlement does not
 *    compete). Timed from the due moment to the last charge's commit.
 * 3. Checks: one invoice and one charge per subscription, and no invoice with
 *    two payments.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/subscriptions.ts
 */
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  benchDatabase,
  machine,
  signUpMerchant,
  startServerProcess,
  stopProcess,
} from './support/harness.ts';

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const subscriptions = Number(process.env.BENCH_SUBSCRIPTIONS ?? 10_000);
const connections = 16;

const database = await benchDatabase(baseUrl, 'bench_subscriptions');
const env = {
  DATABASE_URL: database.url,
  RATE_LIMIT_MAX: '100000000',
  SANDBOX_SETTLE_MS: '3600000',
  RATE_LIMIT_KEY_PREFIX: `bench${Date.now()}`,
};
const servers = [await startServerProcess(env), await startServerProcess(env)];
const sql = new pg.Pool({ connectionString: database.url, max: 2 });
try {
  const owner = await signUpMerchant(servers[0]!.url);

  // 1. The payments baseline, both processes at once.
  let counter = 0;
  const runs = await Promise.all(
    servers.map(({ url }) =>
      autocannon({
        url: `${url}/v1/payments`,
        method: 'POST',
        headers: owner.headers,
        body: JSON.stringify({ amount: 1000, currency: 'TZS', phone: '0700000003' }),
        connections,
        duration: seconds,
        setupClient: (client) => {
          const fresh = () =>
            client.setHeaders({ ...owner.headers, 'Idempotency-Key': `bench-${process.pid}-${++counter}` });
          fresh();
          client.on('response', fresh);
        },
      }),
    ),
  );
  const paymentsPerSecond = runs.reduce((sum, r) => sum + r.requests.average, 0);
  const paymentErrors = runs.reduce((sum, r) => sum + r.errors + r.timeouts + r.non2xx, 0);

  // 2. The subscriptions, all due at one moment.
  const customer = (await (
    await fetch(`${servers[0]!.url}/v1/customers`, {
      method: 'POST',
      headers: owner.headers,
      body: JSON.stringify({ name: 'Bench customer', phone: '255700000001' }),
    })
  ).json()) as { id: string };
  // Database time (pg_stat_database.active_time: statements running, in ms) from here on is the renewals'.
  const activeTime = async () => {
    await sleep(1_500); // sessions report their counters at most once a second
    const stats = await sql.query<{ ms: number }>(
      `SELECT active_time::float8 AS ms FROM pg_stat_database WHERE datname = current_database()`,
    );
    return stats.rows[0]!.ms;
  };
  const activeBefore = await activeTime();
  const dueAt = new Date(Date.now() + 5_000);
  await sql.query(
    `INSERT INTO subscriptions (id, merchant_id, livemode, customer_id, amount, currency, interval, interval_count,
       phone, status, after_final_failure, start_at, billing_anchor, next_renewal_at)
     SELECT 'sub_bench' || lpad(n::text, 8, '0'), $1, false, $2, 15000, 'TZS', 'month', 1,
       '255700000001', 'active', 'cancel', $3, $3, $3
     FROM generate_series(1, $4) AS n`,
    [owner.id, customer.id, dueAt, subscriptions],
  );
  let charged = 0;
  const started = Date.now();
  while (charged < subscriptions) {
    await sleep(250);
    charged = Number(
      (await sql.query<{ n: string }>(`SELECT count(*) AS n FROM subscription_charges`)).rows[0]!.n,
    );
    if (Date.now() - started > 900_000) throw new Error(`only ${charged} charged after 15 minutes`);
  }
  const timing = await sql.query<{ seconds: number; opened: number }>(
    `SELECT extract(epoch FROM max(created_at) - $1::timestamptz)::float8 AS seconds,
       (SELECT extract(epoch FROM max(created_at) - $1::timestamptz)::float8 FROM subscription_periods) AS opened
     FROM subscription_charges`,
    [dueAt],
  );
  const elapsed = timing.rows[0]!.seconds;
  const databaseMs = (await activeTime()) - activeBefore;

  // 3. Checks.
  const checks = (
    await sql.query<{ invoices: string; charges: string; twice: string; periods: string }>(
      `SELECT (SELECT count(DISTINCT id) FROM invoices WHERE subscription_id IS NOT NULL) AS invoices,
              (SELECT count(*) FROM subscription_charges) AS charges,
              (SELECT count(*) FROM (SELECT invoice_id FROM payments WHERE invoice_id IS NOT NULL
                 GROUP BY invoice_id HAVING count(*) > 1) t) AS twice,
              (SELECT count(*) FROM subscription_periods) AS periods`,
    )
  ).rows[0]!;
  const rate = subscriptions / elapsed;
  const lines = [
    `Run ${new Date().toISOString()} on ${machine()}, PostgreSQL, two server processes`,
    `POST /v1/payments, both processes at once (${connections} connections each, ${seconds} s): ${paymentsPerSecond.toFixed(0)} payments/s (${paymentErrors} errors)`,
    `${subscriptions} subscriptions due at one moment: opened and charged in ${elapsed.toFixed(1)} s = ${rate.toFixed(0)}/s, ${(rate / paymentsPerSecond).toFixed(2)} of the payments rate (goals: under 60 s, at least 0.3)`,
    `the last opening began ${timing.rows[0]!.opened.toFixed(1)} s after the due moment; database statement time ${(databaseMs / 1000).toFixed(1)} s, ${(databaseMs / subscriptions).toFixed(2)} ms a renewal`,
    `invoices ${checks.invoices}, periods ${checks.periods}, charges ${checks.charges}, invoices with two payments ${checks.twice}`,
  ];
  console.log(lines.join('\n'));
  if (Number(checks.twice) !== 0 || Number(checks.invoices) !== subscriptions) process.exitCode = 1;
} finally {
  await sql.end();
  for (const server of servers) await stopProcess(server.child);
  await database.drop();
}
