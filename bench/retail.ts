/**
 * Retail benchmark on PostgreSQL, one run, one machine, so the ratios hold on
 * a noisy host: catalogue search over 100,000 products (barcode, SKU, name
 * words, first page) and POST /v1/retail/orders against the spine's
 * POST /v1/payments. The server runs in this process.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/retail.ts
 *
 * BENCH_CONNECTIONS (default 8), BENCH_SECONDS (default 10), BENCH_PRODUCTS (default 100000),
 * BENCH_ROUNDS (default 3: payments and orders alternate, each reported by its median round),
 * BENCH_KEEP_DATABASE=1 to keep the data for EXPLAIN.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { startBenchServer } from './support/bench-server.ts';
import { BRANDS, GOODS, seedProducts, signUpMerchant, withDatabaseCpu } from './support/harness.ts';

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const connections = Number(process.env.BENCH_CONNECTIONS ?? 8);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const productCount = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const databaseName = 'bench_retail';

interface Measurement {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  databaseCpuMicros: number | null;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function measure(name: string, options: autocannon.Options): Promise<Measurement> {
  const { result, databaseCpuMicros } = await withDatabaseCpu(() =>
    autocannon({ connections, duration: seconds, ...options }),
  );
  return {
    databaseCpuMicros,
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)]!;

await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
await admin(`CREATE DATABASE ${databaseName}`);
const url = new URL(baseUrl);
url.pathname = `/${databaseName}`;

const server = await startBenchServer(url.toString(), {
  // 255700000003 stays pending; nothing settles in the background during the run.
  SANDBOX_SETTLE_MS: '3600000',
});
const results: Measurement[] = [];
try {
  const signup = await signUpMerchant(server.url, 'Bench Duka');
  const { headers } = signup;
  const store = await (
    await fetch(`${server.url}/v1/retail/store`, { method: 'PATCH', headers, body: '{}' })
  ).json();

  // Setup by SQL: products (name = good brand size), their SKU and barcode codes, and a counted stock level each.
  const started = performance.now();
  const pool = server.database.pool;
  await seedProducts(pool, signup.id, productCount, { trackStock: true });
  await pool.query(
    `INSERT INTO retail_stock_levels (id, merchant_id, livemode, store_id, product_id, on_hand_milli, reorder_level_milli)
     SELECT 'stk_bench' || substr(id, 11), merchant_id, false, $2, id, 1000000000, 10000 FROM retail_products WHERE merchant_id = $1`,
    [signup.id, store.id],
  );
  await pool.query('VACUUM ANALYZE retail_products, retail_codes, retail_stock_levels');
  const setupSeconds = ((performance.now() - started) / 1000).toFixed(1);
  const productId = (n: number) => `prod_bench${String(n).padStart(7, '0')}`;
  const randomN = () => 1 + Math.floor(Math.random() * productCount);

  const search = (name: string, q: () => string) =>
    measure(name, {
      url: `${server.url}/v1/products`,
      headers,
      requests: [
        { setupRequest: (request) => ({ ...request, path: `/v1/products?q=${encodeURIComponent(q())}` }) },
      ],
    });
  // Warm up caches and the JIT before measuring.
  await autocannon({ url: `${server.url}/v1/products?q=sukari`, headers, connections, duration: 3 });

  results.push(
    await search('GET /v1/products?q=<barcode>', () => `620${String(randomN()).padStart(10, '0')}`),
  );
  results.push(await search('GET /v1/products?q=<SKU>', () => `SKU-${String(randomN()).padStart(7, '0')}`));
  results.push(
    await search('GET /v1/products?q=<good brand> (2 words)', () => `${pick(GOODS)} ${pick(BRANDS)}`),
  );
  results.push(
    await search('GET /v1/products?q=<3-letter prefix>', () => pick(GOODS).slice(0, 3).toLowerCase()),
  );
  results.push(await measure('GET /v1/products (first page)', { url: `${server.url}/v1/products`, headers }));

  const payment = JSON.stringify({ amount: 1000, currency: 'TZS', phone: '0700000003' });
  const payments = () =>
    measure('POST /v1/payments', {
      url: `${server.url}/v1/payments`,
      method: 'POST',
      headers,
      body: payment,
    });
  let sequence = 0;
  const orders = (name: string, tillNumbered: boolean) =>
    measure(name, {
      url: `${server.url}/v1/retail/orders`,
      method: 'POST',
      headers,
      requests: [
        {
          setupRequest: (request) => {
            sequence += 1;
            return {
              ...request,
              body: JSON.stringify({
                client_order_id: `bench-${process.pid}-${sequence}`,
                ...(tillNumbered
                  ? {
                      till: 'T01',
                      receipt_number: `T${process.pid % 1000}-${String(sequence).padStart(6, '0')}`,
                    }
                  : {}),
                lines: [
                  { product: productId(randomN()), quantity: 2 },
                  {
                    product: productId(randomN()),
                    quantity: 1,
                    discount: { type: 'percent', basis_points: 500 },
                  },
                ],
                tenders: [{ method: 'cash', amount: 1_000_000 }],
              }),
            };
          },
        },
      ],
    });
  // Writes alternate in rounds, so drift on a shared host hits both alike; each reports its median round.
  const rounds: Record<string, Measurement[]> = {};
  const runs: Array<[string, () => Promise<Measurement>]> = [
    ['payments', payments],
    ['till', () => orders('POST /v1/retail/orders (2 lines, cash, till receipt number)', true)],
    ['server', () => orders('POST /v1/retail/orders (2 lines, cash, server receipt number)', false)],
  ];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [kind, run] of runs) (rounds[kind] ??= []).push(await run());
  }
  const median = (kind: string): Measurement => {
    const sorted = [...rounds[kind]!].sort((a, b) => a.rps - b.rps);
    const middle = sorted[Math.floor(sorted.length / 2)]!;
    return {
      ...middle,
      name: `${middle.name} (median of ${sorted.length}: ${sorted.map((m) => m.rps).join(', ')})`,
    };
  };
  const paymentRps = median('payments').rps;
  results.push(median('payments'), median('till'), median('server'));

  const cpus = os.cpus();
  const lines = [
    `Run ${new Date().toISOString()} on ${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; PostgreSQL (${baseUrl.replace(/\/\/.*@/, '//')}); server in the benchmark's process; ${connections} connections, ${seconds} s each; ${productCount.toLocaleString('en')} products bulk-inserted in ${setupSeconds} s.`,
    '',
    '| Measurement | req/s | p50 ms | p99 ms | failures | database CPU µs/request | ratio |',
    '|---|---|---|---|---|---|---|',
    ...results.map((r) => {
      const ratio = r.name.startsWith('POST /v1/retail/orders')
        ? `${(r.rps / paymentRps).toFixed(2)} of POST /v1/payments`
        : '';
      return `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.failures} | ${r.databaseCpuMicros ?? 'n/a'} | ${ratio} |`;
    }),
  ];
  console.log(lines.join('\n'));
} finally {
  // Let the last payments' after-commit work finish before the pool closes.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await server.close();
  // BENCH_KEEP_DATABASE=1 leaves it for EXPLAIN; the next run drops it first.
  if (!process.env.BENCH_KEEP_DATABASE) await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
}
