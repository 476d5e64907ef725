/**
 * The change feed on PostgreSQL, one run, one machine, so the ratios hold on a
 * noisy host.
 *
 * 1. Reading: 100,000 changed products of one merchant (beside 100,000 of
 *    another, changed in the same transactions) read from the start with
 *    `readChanges` in pages of 1,000. Baseline: the same rows copied into a
 *    plain table with the same index, read by a bare keyset loop
 *    (`WHERE (change_seq, id) > ($s, $i) ORDER BY change_seq, id LIMIT 1000`).
 *    The two alternate over BENCH_ROUNDS rounds; each reports its median.
 * 2. What the feed costs a sale's stock update: sale-shaped statements (two
 *    random stock levels of one store, autocommit, synchronous_commit off so
 *    the disk stays out of it) as migrated (trigger and index), without the
 *    index, and without the trigger either (as before the feed), alternating
 *    over the rounds: execution and trigger time and WAL bytes from EXPLAIN
 *    (ANALYZE, WAL), the client's wait, and the share of HOT updates.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/changes.ts
 *
 * BENCH_ROWS (default 100000), BENCH_PAGE (default 1000), BENCH_ROUNDS (default 3),
 * BENCH_STOCK (stock levels, default 20000), BENCH_UPDATES (statements per variant, default 10000).
 */
import pg from 'pg';
import { migrate, openDatabase } from '../apps/server/src/db/database.ts';
import { readChanges, type Checkpoint } from '../apps/server/src/sync/changes.ts';
import { benchDatabase, machine } from './support/harness.ts';

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const rowCount = Number(process.env.BENCH_ROWS ?? 100_000);
const pageSize = Number(process.env.BENCH_PAGE ?? 1_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const stockCount = Number(process.env.BENCH_STOCK ?? 20_000);
const updates = Number(process.env.BENCH_UPDATES ?? 10_000);

const MERCHANT = 'mer_benchfeed';
const NEIGHBOUR = 'mer_benchneighbour';
const STORE = 'store_benchfeed';
const scope = { merchantId: MERCHANT, livemode: false, storeId: STORE, tillId: 'till_none', now: new Date() };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number, digits = 0) => n.toLocaleString('en', { maximumFractionDigits: digits });

const target = await benchDatabase(baseUrl, 'bench_changes');
const database = await openDatabase({ url: target.url, dataDir: '', poolMax: 4 });
const pool = database.pool;
try {
  await migrate(database);

  // Setup: two merchants' products, then every row changed again in random order,
  // 100 rows a transaction (half of each merchant), as edits and sales would.
  const setupStarted = performance.now();
  await pool.query(
    `INSERT INTO merchants (id, business_name, email, password_hash)
     VALUES ($1, 'Bench', 'feed@example.tz', 'x'), ($2, 'Jirani', 'jirani@example.tz', 'x')`,
    [MERCHANT, NEIGHBOUR],
  );
  for (const [merchant, prefix] of [
    [MERCHANT, 'prod_feed'],
    [NEIGHBOUR, 'prod_nbr'],
  ] as const) {
    await pool.query(
      `INSERT INTO retail_products (id, merchant_id, livemode, name, sku, barcodes, price, currency, tax_rate, unit, track_stock, active)
       SELECT $2 || lpad(i::text, 7, '0'), $1, false, 'Sukari Kilombero ' || i || 'g', 'SKU-' || lpad(i::text, 7, '0'),
         ARRAY['620' || lpad(i::text, 10, '0')], 500 + (i % 200) * 50, 'TZS', 'standard', 'piece', true, true
       FROM generate_series(1, $3::int) AS i`,
      [merchant, prefix, rowCount],
    );
  }
  const shuffled = (prefix: string) => {
    const ids = Array.from({ length: rowCount }, (_, i) => `${prefix}${String(i + 1).padStart(7, '0')}`);
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    return ids;
  };
  const ours = shuffled('prod_feed');
  const theirs = shuffled('prod_nbr');
  for (let i = 0; i < rowCount; i += 50) {
    await pool.query(`UPDATE retail_products SET price = price + 50, updated_at = now() WHERE id = ANY($1)`, [
      [...ours.slice(i, i + 50), ...theirs.slice(i, i + 50)],
    ]);
  }
  await pool.query(`CREATE TABLE bench_plain AS SELECT * FROM retail_products ORDER BY ctid`);
  await pool.query(`CREATE INDEX ON bench_plain (merchant_id, livemode, change_seq, id)`);
  await pool.query('VACUUM ANALYZE retail_products, bench_plain');
  const setupSeconds = (performance.now() - setupStarted) / 1000;

  const columns = `id, change_seq, deleted_at IS NOT NULL AS deleted, name, description, sku, barcodes, price,
    currency, tax_rate, category_id, unit, track_stock, active, metadata, created_at, updated_at`;
  const plainPage = (after: Checkpoint) =>
    pool.query<{ id: string; change_seq: number }>(
      `SELECT ${columns} FROM bench_plain WHERE merchant_id = $1 AND livemode = false
         AND (change_seq, id) > ($2, $3) ORDER BY change_seq, id LIMIT $4`,
      [MERCHANT, after.seq, after.id, pageSize],
    );

  /** Reads everything from the start; returns ms and the rows read (each id once, checked). */
  const readAll = async (page: (after: Checkpoint) => Promise<Array<{ id: string; change_seq: number }>>) => {
    const started = performance.now();
    const seen = new Set<string>();
    let after: Checkpoint = { seq: -1, id: '' };
    let pages = 0;
    for (;;) {
      const rows = await page(after);
      pages += 1;
      for (const row of rows) seen.add(row.id);
      const last = rows.at(-1);
      if (!last) break;
      after = { seq: last.change_seq, id: last.id };
    }
    const ms = performance.now() - started;
    if (seen.size !== rowCount) throw new Error(`read ${seen.size} rows, expected ${rowCount}`);
    return { ms, pages };
  };
  const feed = () =>
    readAll(
      async (after) =>
        (await readChanges(pool, 'products', scope, after.seq < 0 ? null : after, pageSize)).rows,
    );
  const plain = () => readAll(async (after) => (await plainPage(after)).rows);

  await feed(); // warm up caches and the JIT
  await plain();
  const feedMs: number[] = [];
  const plainMs: number[] = [];
  let pages = 0;
  for (let round = 0; round < rounds; round++) {
    const f = await feed();
    pages = f.pages;
    feedMs.push(f.ms);
    plainMs.push((await plain()).ms);
  }

  // Stock updates: one store's levels, each statement moving two of them as a sale does.
  await pool.query(
    `INSERT INTO retail_stores (id, merchant_id, livemode, name, vat_region, currency, receipt_language, receipt_prefix, is_default)
     VALUES ($1, $2, false, 'Duka', 'mainland', 'TZS', 'sw', 'S01', true)`,
    [STORE, MERCHANT],
  );
  await pool.query(
    `INSERT INTO retail_stock_levels (id, merchant_id, livemode, store_id, product_id, on_hand_milli)
     SELECT 'stk_feed' || lpad(i::text, 7, '0'), $1, false, $2, 'prod_feed' || lpad(i::text, 7, '0'), 1000000000
     FROM generate_series(1, $3::int) AS i`,
    [MERCHANT, STORE, stockCount],
  );
  const levelId = () => `stk_feed${String(1 + Math.floor(Math.random() * stockCount)).padStart(7, '0')}`;
  const sale = `UPDATE retail_stock_levels SET on_hand_milli = on_hand_milli - 1000, updated_at = now()
    WHERE id = ANY($1::text[])`;
  const worker = new pg.Client({ connectionString: target.url });
  await worker.connect();
  await worker.query('SET synchronous_commit TO off');
  const stats = async () => {
    // Counters reach shared memory when the backend goes idle.
    await worker.query('SELECT pg_stat_force_next_flush()');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const row = (
      await pool.query<{ upd: number; hot: number }>(
        `SELECT n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname = 'retail_stock_levels'`,
      )
    ).rows[0]!;
    return row;
  };
  interface StockRun {
    microsPerStatement: number;
    executionMicros: number;
    triggerMicros: number;
    walBytes: number;
    hotShare: number;
  }
  type Plan = Array<{
    Plan: { 'WAL Bytes': number };
    'Execution Time': number;
    Triggers: Array<{ 'Trigger Name': string; Time: number }>;
  }>;
  // Each statement runs under EXPLAIN ANALYZE: its execution time inside PostgreSQL (no network,
  // no other tenant's CPU), its trigger time and its WAL, as well as the time the client waited.
  const stockRun = async (): Promise<StockRun> => {
    await pool.query('VACUUM ANALYZE retail_stock_levels');
    for (let i = 0; i < 500; i++) await worker.query(sale, [[levelId(), levelId()]]); // warm up
    const before = await stats();
    const execution: number[] = [];
    let triggerMs = 0;
    let walBytes = 0;
    const started = performance.now();
    for (let i = 0; i < updates; i++) {
      const result = await worker.query<{ 'QUERY PLAN': Plan }>(
        `EXPLAIN (ANALYZE, WAL, FORMAT JSON) ${sale}`,
        [[levelId(), levelId()]],
      );
      const plan = result.rows[0]!['QUERY PLAN'][0]!;
      execution.push(plan['Execution Time']);
      walBytes += plan.Plan['WAL Bytes'];
      triggerMs += plan.Triggers.reduce((sum, trigger) => sum + trigger.Time, 0);
    }
    const ms = performance.now() - started;
    const after = await stats();
    return {
      microsPerStatement: (ms * 1_000) / updates,
      executionMicros: median(execution) * 1_000,
      triggerMicros: (triggerMs * 1_000) / updates,
      walBytes: walBytes / updates,
      hotShare: (after.hot - before.hot) / Math.max(1, after.upd - before.upd),
    };
  };
  // Each variant sets the table up its way; variants alternate over the rounds.
  const variants: Array<{ name: string; setUp: string; runs: StockRun[] }> = [
    {
      name: 'as migrated: trigger and (store_id, change_seq, id) index',
      setUp: `ALTER TABLE retail_stock_levels ENABLE TRIGGER change_feed;
        CREATE INDEX IF NOT EXISTS retail_stock_levels_changes ON retail_stock_levels (store_id, change_seq, id)`,
      runs: [],
    },
    {
      name: 'trigger, no index',
      setUp: `ALTER TABLE retail_stock_levels ENABLE TRIGGER change_feed;
        DROP INDEX IF EXISTS retail_stock_levels_changes`,
      runs: [],
    },
    {
      name: 'no trigger, no index (before the feed)',
      setUp: `ALTER TABLE retail_stock_levels DISABLE TRIGGER change_feed;
        DROP INDEX IF EXISTS retail_stock_levels_changes`,
      runs: [],
    },
  ];
  for (let round = 0; round < rounds; round++) {
    for (const variant of variants) {
      await pool.query(variant.setUp);
      variant.runs.push(await stockRun());
    }
  }
  const stock = variants.map(({ name, runs }) => ({
    name,
    rounds: runs.map((run) => run.executionMicros),
    ...Object.fromEntries(
      (['microsPerStatement', 'executionMicros', 'triggerMicros', 'walBytes', 'hotShare'] as const).map(
        (key) => [key, median(runs.map((run) => run[key]))],
      ),
    ),
  })) as Array<StockRun & { name: string; rounds: number[] }>;
  await worker.end();

  const feedMedian = median(feedMs);
  const plainMedian = median(plainMs);
  const before = stock[2]!;
  const lines = [
    `Run ${new Date().toISOString()} on ${machine()}; PostgreSQL (${baseUrl.replace(/\/\/.*@/, '//')}); setup ${fmt(setupSeconds, 1)} s.`,
    '',
    `| Measurement | median ms (rounds) | rows/s | ratio |`,
    '|---|---|---|---|',
    `| readChanges('products'), ${fmt(rowCount)} rows in pages of ${fmt(pageSize)} (${pages} reads) | ${fmt(feedMedian)} (${feedMs.map((ms) => fmt(ms)).join(', ')}) | ${fmt((rowCount * 1000) / feedMedian)} | ${(feedMedian / plainMedian).toFixed(2)} × baseline |`,
    `| baseline: bare keyset loop on a plain copy, same index | ${fmt(plainMedian)} (${plainMs.map((ms) => fmt(ms)).join(', ')}) | ${fmt((rowCount * 1000) / plainMedian)} | 1 |`,
    '',
    `Stock updates, ${fmt(updates)} statements of two rows each over ${fmt(stockCount)} levels, ${rounds} rounds (medians):`,
    '',
    '| Variant | execution µs (rounds) | of which trigger µs | client wait µs | WAL bytes | HOT updates | ratio (execution) |',
    '|---|---|---|---|---|---|---|',
    ...stock.map(
      (s) =>
        `| ${s.name} | ${fmt(s.executionMicros)} (${s.rounds.map((us) => fmt(us)).join(', ')}) | ${fmt(s.triggerMicros, 1)} | ${fmt(s.microsPerStatement)} | ${fmt(s.walBytes)} | ${fmt(s.hotShare * 100)} % | ${(s.executionMicros / before.executionMicros).toFixed(2)} |`,
    ),
  ];
  console.log(lines.join('\n'));
} finally {
  await database.close();
  if (!process.env.BENCH_KEEP_DATABASE) await target.drop();
}
