/**
 * The back office's Home over a busy business, on PostgreSQL, one run, one
 * machine: 100,000 payments and 50,000 till orders over the last 30 days, then
 *   - Home's first meaningful paint in Chromium (today's volume and the sales
 *     at the tills on screen), beside the same browser painting the sign-in
 *     page, which reads nothing (the floor: the page's own code and a round trip);
 *   - Home's API calls (`GET /v1/overview`, `GET /v1/retail?days=30`) under
 *     autocannon, p99 beside the same run's plain payment read and `/healthz`
 *     (one `SELECT 1`: the least a request that reads the database costs here).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/office-home.ts
 *
 * BENCH_PAYMENTS (default 100000), BENCH_ORDERS (default 50000), BENCH_SECONDS (default 10),
 * BENCH_CONNECTIONS (default 4: an office is a few people, not a load test), BENCH_LOADS (default 15),
 * BENCH_MADE_BY_API (default 2000: payments made through the API, half as many orders, the rest
 * copied by SQL), BENCH_KEEP_DATABASE=1 to keep the data for EXPLAIN.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { startBenchServer } from './support/bench-server.ts';
import { ensureWebBuild } from '../apps/desktop/scripts/ensure-web-build.ts';
import { launchChromium } from '../test/support/browser.ts';
import {
  alternatingRounds,
  BENCH_PASSWORD,
  benchDatabase,
  printAgainstBaseline,
  progress,
  quantile,
  seedProducts,
  signUpMerchant,
} from './support/harness.ts';

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const paymentCount = Number(process.env.BENCH_PAYMENTS ?? 100_000);
const orderCount = Number(process.env.BENCH_ORDERS ?? 50_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 4);
const loads = Number(process.env.BENCH_LOADS ?? 15);
const PRODUCTS = 2_000;
/** Payments made through the API (and half as many orders); the rest are copies of them. */
const MADE_BY_API = Number(process.env.BENCH_MADE_BY_API ?? 2_000);

/**
 * Copies a table's rows `copies` times, each copy's `renamed` text columns
 * suffixed `_<copy>` (ids, references, unique keys), its serial columns drawn
 * afresh: a month of trade from the rows the API made, in seconds.
 */
async function cloneRows(
  db: pg.Pool,
  table: string,
  copies: number,
  renamed: readonly string[],
  serials: readonly string[] = [],
): Promise<void> {
  const columns = await db.query<{ name: string }>(
    `SELECT column_name AS name FROM information_schema.columns
     WHERE table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    [table],
  );
  const names = columns.rows.map((column) => column.name);
  const value = (name: string) =>
    renamed.includes(name)
      ? `r.${name} || '_' || k`
      : serials.includes(name)
        ? `nextval(pg_get_serial_sequence('${table}', '${name}'))`
        : `r.${name}`;
  await db.query(
    `INSERT INTO ${table} (${names.join(', ')})
     SELECT ${names.map(value).join(', ')} FROM ${table} r, generate_series(1, $1) AS k`,
    [copies],
  );
}

await ensureWebBuild(() => undefined, 'office');
const database = await benchDatabase(baseUrl, 'bench_office');
const server = await startBenchServer(database.url, {
  // Payments settle as they are made: each is paid, with its ledger postings, as a real day's are.
  SANDBOX_SETTLE_MS: '0',
});
// The bench's own connection: copying a month of rows takes longer than the server's statement timeout.
const pool = new pg.Pool({ connectionString: database.url, max: 2 });
try {
  const signup = await signUpMerchant(server.url, 'Bench Duka');
  const { headers, email } = signup;
  await fetch(`${server.url}/v1/retail/store`, { method: 'PATCH', headers, body: '{}' });
  await seedProducts(pool, signup.id, PRODUCTS, { trackStock: false });

  // The business: a day's worth made through the API as it would be (payments by mobile money, paid;
  // orders at the tills), then copied by SQL to a month's.
  const seeding = performance.now();
  const copies = Math.max(1, Math.round(paymentCount / MADE_BY_API)) - 1;
  const orderCopies = Math.max(1, Math.round(orderCount / (MADE_BY_API / 2))) - 1;
  let paymentSequence = 0;
  await autocannon({
    url: `${server.url}/v1/payments`,
    method: 'POST',
    headers,
    connections: 16,
    amount: MADE_BY_API,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            amount: 1_000 + ((paymentSequence += 1) % 97) * 250,
            currency: 'TZS',
            phone: '0700000001',
          }),
        }),
      },
    ],
  });
  progress('payments made');
  let orderSequence = 0;
  await autocannon({
    url: `${server.url}/v1/retail/orders`,
    method: 'POST',
    headers,
    connections: 16,
    amount: MADE_BY_API / 2,
    requests: [
      {
        setupRequest: (request) => {
          orderSequence += 1;
          const product = (n: number) => `prod_bench${String(1 + (n % PRODUCTS)).padStart(7, '0')}`;
          return {
            ...request,
            body: JSON.stringify({
              client_order_id: `office-bench-${orderSequence}`,
              lines: [
                { product: product(orderSequence * 7), quantity: 1 + (orderSequence % 3) },
                { product: product(orderSequence * 13), quantity: 1 },
              ],
              tenders: [{ method: 'cash', amount: 1_000_000 }],
            }),
          };
        },
      },
    ],
  });
  progress('orders made');
  // The sandbox settles each payment shortly after it is made: wait for the last.
  for (;;) {
    const pending = await pool.query<{ n: number }>(
      `SELECT count(*) AS n FROM payments WHERE status = 'pending'`,
    );
    if (Number(pending.rows[0]!.n) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  progress('payments settled');
  await cloneRows(pool, 'payments', copies, ['id', 'provider_reference'], ['seq']);
  await cloneRows(pool, 'ledger_transactions', copies, ['id', 'source_id'], ['seq']);
  await cloneRows(pool, 'ledger_postings', copies, ['transaction_id'], ['id']);
  await cloneRows(pool, 'retail_orders', orderCopies, ['id', 'client_order_id', 'receipt_number'], ['seq']);
  await cloneRows(pool, 'retail_order_lines', orderCopies, ['order_id']);
  await cloneRows(pool, 'retail_order_tenders', orderCopies, ['order_id', 'payment_id']);
  progress('copied');
  // Spread over the last 30 days, today's share included, the way a month's trade lies.
  await pool.query(`UPDATE payments SET created_at = created_at - (random() * interval '30 days')`);
  await pool.query(
    `UPDATE payments SET paid_at = created_at + interval '5 seconds' WHERE paid_at IS NOT NULL`,
  );
  await pool.query(
    `UPDATE ledger_transactions t SET created_at = p.paid_at FROM payments p WHERE t.source_id = p.id`,
  );
  await pool.query(`UPDATE retail_orders SET created_at = created_at - (random() * interval '30 days')`);
  await pool.query(`UPDATE retail_orders SET paid_at = created_at WHERE paid_at IS NOT NULL`);
  await pool.query('VACUUM ANALYZE');
  const counts = await pool.query<{ payments: string; paid: string; orders: string }>(
    `SELECT (SELECT count(*) FROM payments) AS payments, (SELECT count(*) FROM payments WHERE status = 'paid') AS paid,
       (SELECT count(*) FROM retail_orders) AS orders`,
  );
  const seeded = ((performance.now() - seeding) / 1000).toFixed(0);

  progress('seeded');
  // Home's API calls against the plain payment read, alternating, each its median round.
  const onePayment = await pool.query<{ id: string }>('SELECT id FROM payments LIMIT 1');
  const read = (path: string) =>
    autocannon({ url: `${server.url}${path}`, headers, connections, duration: seconds });
  await read('/v1/overview');
  const paths = {
    'GET /healthz (SELECT 1)': '/healthz',
    [`GET /v1/payments/{id} (baseline)`]: `/v1/payments/${onePayment.rows[0]!.id}`,
    'GET /v1/overview': '/v1/overview',
    'GET /v1/retail?days=30': '/v1/retail?days=30',
  };
  const medians = await alternatingRounds(
    Object.fromEntries(Object.entries(paths).map(([name, path]) => [name, () => read(path)])),
  );

  progress('API measured');
  // First meaningful paint: from navigation to the numbers on screen, each load in a fresh context.
  const browser = await launchChromium();
  const signIn = await fetch(`${server.url}/office/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  const cookie = signIn.headers.getSetCookie().find((line) => line.startsWith('office_session='))!;
  const paint = async (signedIn: boolean, ready: string) => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    if (signedIn)
      await context.addCookies([
        { name: 'office_session', value: cookie.split(';')[0]!.split('=')[1]!, url: server.url },
      ]);
    const page = await context.newPage();
    await page.goto(`${server.url}/office/`, { waitUntil: 'commit' });
    await page.waitForSelector(ready, { timeout: 60_000 });
    const ms = await page.evaluate(() => performance.now());
    await context.close();
    return ms;
  };
  const home = '[data-testid=volume-TZS] >> text=/\\d/';
  const signInPage = '[data-testid=sign-in]';
  await paint(true, home);
  const paints = { home: [] as number[], signIn: [] as number[] };
  for (let i = 0; i < loads; i += 1) {
    paints.signIn.push(await paint(false, signInPage));
    paints.home.push(await paint(true, home));
  }
  await browser.close();

  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  console.log(
    `\n${new Date().toISOString()} · ${os.cpus().length} × ${cpu} · Node ${process.version} · ` +
      `${counts.rows[0]!.payments} payments (${counts.rows[0]!.paid} paid), ${counts.rows[0]!.orders} orders, seeded in ${seeded} s\n`,
  );
  printAgainstBaseline(
    medians,
    'GET /v1/payments/{id} (baseline)',
    (r, baseline) => `p99 ${(r.latency.p99 / baseline.latency.p99).toFixed(1)}× the payment read`,
  );
  const signInMedian = quantile(paints.signIn, 0.5);
  console.log('\n| Paint | median ms | p90 ms | ratio |');
  console.log('| --- | --- | --- | --- |');
  console.log(
    `| sign-in page (reads nothing) | ${signInMedian.toFixed(0)} | ${quantile(paints.signIn, 0.9).toFixed(0)} | baseline |`,
  );
  const homeMedian = quantile(paints.home, 0.5);
  console.log(
    `| Home, numbers on screen | **${homeMedian.toFixed(0)}** | ${quantile(paints.home, 0.9).toFixed(0)} | ${(homeMedian / signInMedian).toFixed(2)}× the sign-in page |`,
  );
} finally {
  await pool.end();
  await server.close();
  if (!process.env.BENCH_KEEP_DATABASE) await database.drop();
}
