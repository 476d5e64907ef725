/**
 * What the report totals cost a payment write: POST /v1/payments (each settled
 * at once, so its ledger transaction is written too) with the totals' triggers
 * on, then off, alternating in rounds on one server and database.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/report-totals.ts
 *
 * BENCH_CONNECTIONS (default 16), BENCH_SECONDS (default 8), BENCH_ROUNDS (default 3),
 * BENCH_TABLES (default all: the tables whose totals' triggers are switched, e.g. `ledger_postings`
 * for the balance totals alone).
 */
import autocannon from 'autocannon';
import pg from 'pg';
import { startBenchServer } from './support/bench-server.ts';
import { benchDatabase, signUpMerchant } from './support/harness.ts';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const tables = process.env.BENCH_TABLES?.split(',');
const TRIGGERS = (
  [
    ['ledger_transactions', 'ledger_quarter_totals_added'],
    ['ledger_transactions', 'ledger_quarter_totals_changed'],
    ['payments', 'payment_quarter_counts_added'],
    ['payments', 'payment_quarter_counts_changed'],
    ['ledger_postings', 'ledger_balance_totals_added'],
    ['ledger_postings', 'ledger_balance_totals_changed'],
    ['ledger_postings', 'ledger_balance_totals_removed'],
  ] as const
).filter(([table]) => !tables || tables.includes(table));

const database = await benchDatabase(
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  'bench_totals',
);
const server = await startBenchServer(database.url, {
  SANDBOX_SETTLE_MS: '0',
});
const db = new pg.Client({ connectionString: database.url });
await db.connect();
try {
  const { headers } = await signUpMerchant(server.url, 'Bench Totals');
  const body = JSON.stringify({ amount: 1000, currency: 'TZS', phone: '0700000001' });
  const writes = async () =>
    (
      await autocannon({
        url: `${server.url}/v1/payments`,
        method: 'POST',
        headers,
        body,
        connections,
        duration: seconds,
      })
    ).requests.average;
  const switchTriggers = async (on: boolean) => {
    for (const [table, trigger] of TRIGGERS)
      await db.query(`ALTER TABLE ${table} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${trigger}`);
  };
  await writes(); // warm up
  console.log('| Round | with totals req/s | without req/s | ratio |\n| --- | --- | --- | --- |');
  for (let round = 1; round <= rounds; round += 1) {
    await switchTriggers(true);
    const kept = await writes();
    await switchTriggers(false);
    const bare = await writes();
    console.log(`| ${round} | ${kept.toFixed(0)} | ${bare.toFixed(0)} | ${(kept / bare).toFixed(2)} |`);
  }
} finally {
  await db.end();
  await server.close();
  await database.drop();
}
