/**
 * Importing a 2,000-row catalogue CSV (POST /v1/retail/products/import: every
 * row checked, then applied in one transaction through the catalogue's writes
 * with their events) against two baselines in the same run: 2,000 products
 * created one request at a time (POST /v1/retail/products, what a merchant
 * does without the file) and the floor, 2,000 product rows and their codes
 * inserted by two plain SQL statements. Then the same file again, which
 * changes nothing. The server runs in this process.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/catalogue-import.ts
 *
 * BENCH_ROWS (default 2000 products; each tenth adds two variant rows), BENCH_ROUNDS (default 3: medians).
 */
import { startBenchServer } from './support/bench-server.ts';
import { catalogueCsv } from '../test/support/catalogue-csv.ts';
import { benchDatabase, machine, seedProducts, signUpMerchant } from './support/harness.ts';

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const rows = Number(process.env.BENCH_ROWS ?? 2_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const database = await benchDatabase(baseUrl, 'bench_catalogue_import');
const server = await startBenchServer(database.url);
const times = {
  floor: [] as number[],
  oneByOne: [] as number[],
  importMs: [] as number[],
  again: [] as number[],
};
try {
  for (let round = 0; round < rounds; round++) {
    // A merchant per round, so each import starts from an empty catalogue.
    const { id, headers } = await signUpMerchant(server.url, `Bench ${round}`);
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then(
        async (r) => {
          if (!r.ok) throw new Error(`${path}: ${r.status} ${(await r.text()).slice(0, 300)}`);
          return r.json();
        },
      );
    const pool = server.database.pool;
    times.floor.push(await timed(() => seedProducts(pool, id, rows, { trackStock: true })));
    // The floor's rows have fixed ids: gone before the next round makes them again.
    await pool.query(`DELETE FROM retail_codes WHERE merchant_id = $1`, [id]);
    await pool.query(`DELETE FROM retail_products WHERE merchant_id = $1`, [id]);
    times.oneByOne.push(
      await timed(async () => {
        for (let i = 1; i <= rows; i++)
          await post('/v1/retail/products', { name: `Bidhaa ${i}`, sku: `ONE-${i}`, price: 500 + i });
      }),
    );
    const csv = catalogueCsv({ products: rows, prefix: `R${round}` });
    let answer: { created: number; unchanged: number } = { created: 0, unchanged: 0 };
    times.importMs.push(
      await timed(async () => (answer = await post('/v1/retail/products/import', { csv }))),
    );
    if (answer.created !== rows) throw new Error(`imported ${JSON.stringify(answer)}`);
    times.again.push(await timed(async () => (answer = await post('/v1/retail/products/import', { csv }))));
    if (answer.unchanged !== rows) throw new Error(`second import ${JSON.stringify(answer)}`);
  }
} finally {
  await server.close();
  await database.drop();
}
const floorMs = median(times.floor);
const oneByOneMs = median(times.oneByOne);
const importMs = median(times.importMs);
const againMs = median(times.again);
console.log(
  JSON.stringify(
    {
      machine: machine(),
      products: rows,
      fileRows: rows + Math.floor(rows / 10) * 2,
      rounds,
      floorSqlMs: Math.round(floorMs),
      oneByOneMs: Math.round(oneByOneMs),
      importMs: Math.round(importMs),
      secondImportMs: Math.round(againMs),
      importToFloor: Number((importMs / floorMs).toFixed(1)),
      importToOneByOne: Number((importMs / oneByOneMs).toFixed(2)),
      underFiveSeconds: importMs < 5_000,
    },
    null,
    2,
  ),
);
