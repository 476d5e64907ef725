import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort } from '../../test/support/process.ts';

export const root = path.resolve(import.meta.dirname, '../..');

/** A line on stderr with the time, so a long set-up shows where it is. */
export const progress = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);

/** The nearest-rank quantile (q from 0 to 1) of a list of timings. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** "p50 | p99 | max" of timings in ms, for a table row in BENCHMARKS.md. */
export const summary = (values: number[]) =>
  `${quantile(values, 0.5).toFixed(1)} | ${quantile(values, 0.99).toFixed(1)} | ${Math.max(...values).toFixed(1)}`;

/** The key bench servers seal webhook secrets with: PostgreSQL requires one (README "Secrets at rest"). */
export const BENCH_SECRETS_KEY = Buffer.alloc(32, 5).toString('base64');

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU time PostgreSQL's processes spent per request, in microseconds (Linux only, else null). */
  databaseCpuMicros: number | null;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) of each live process named `name`, from /proc; null without /proc. */
function cpuByProcess(name: string): Map<string, number> | null {
  if (!fs.existsSync('/proc/self/stat')) return null;
  const seconds = new Map<string, number>();
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== name) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    seconds.set(pid, (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND);
  }
  return seconds;
}

/**
 * The CPU time that processes named `name` spend while `load` runs, sampled
 * every 100 ms so that processes starting or ending meanwhile (a benchmark's
 * own connections) count too. Null where there is no /proc.
 */
export async function cpuDuring<T>(
  name: string,
  load: () => Promise<T>,
): Promise<{ result: T; cpuSeconds: number | null }> {
  const first = cpuByProcess(name);
  if (!first) return { result: await load(), cpuSeconds: null };
  const last = new Map(first);
  const sample = () => {
    for (const [pid, seconds] of cpuByProcess(name) ?? []) last.set(pid, seconds);
  };
  const timer = setInterval(sample, 100);
  try {
    const result = await load();
    sample();
    let cpuSeconds = 0;
    for (const [pid, seconds] of last) cpuSeconds += seconds - (first.get(pid) ?? 0);
    return { result, cpuSeconds };
  } finally {
    clearInterval(timer);
  }
}

/** Runs an autocannon load and returns its result with PostgreSQL's CPU time per request. */
export async function withDatabaseCpu<T extends { requests: { total: number } }>(
  load: () => Promise<T>,
): Promise<{ result: T; databaseCpuMicros: number | null }> {
  const { result, cpuSeconds } = await cpuDuring('postgres', load);
  const databaseCpuMicros =
    cpuSeconds === null || result.requests.total === 0
      ? null
      : Math.round((cpuSeconds * 1e6) / result.requests.total);
  return { result, databaseCpuMicros };
}

export { freePort };

/** Runs a TypeScript entry point as its own process and waits until `ready` answers. */
export async function startProcess(
  entry: string,
  env: Record<string, string>,
  ready: () => Promise<boolean>,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (!(await ready().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${entry} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return child;
}

/** Starts the server the way `npm start` does, as its own process, and waits for /healthz. */
export async function startServerProcess(
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await startProcess(
    'apps/server/src/main.ts',
    { PORT: String(port), LOG_LEVEL: 'error', SECRETS_KEY: BENCH_SECRETS_KEY, ...env },
    async () => (await fetch(`${url}/healthz`)).ok,
  );
  return { url, child };
}

/** Every bench merchant's password (a bench signs in to the office with it). */
export const BENCH_PASSWORD = 'benchmark password';

/** Signs up a merchant and returns its test secret key with JSON request headers. */
export async function signUpMerchant(
  url: string,
  businessName = 'Bench',
): Promise<{ id: string; email: string; key: string; headers: Record<string, string> }> {
  const email = `bench${Date.now()}${Math.random()}@example.tz`;
  const response = await fetch(`${url}/v1/merchants`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      business_name: businessName,
      email,
      password: BENCH_PASSWORD,
    }),
  });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const merchant = (await response.json()) as {
    id: string;
    api_keys: Array<{ key: string; type: string; mode: string }>;
  };
  const key = merchant.api_keys.find((k) => k.type === 'secret' && k.mode === 'test')!.key;
  return {
    id: merchant.id,
    email,
    key,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
  };
}

/** A JSON call on a bench merchant's key that throws on anything but success, answering the body. */
export const jsonCaller =
  (url: string, headers: Record<string, string>) =>
  async <T = { id: string }>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as T;
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };

/** Stops a process started by `startProcess` and waits until it has exited. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export async function measure(name: string, options: autocannon.Options): Promise<Measurement> {
  const { result, databaseCpuMicros } = await withDatabaseCpu(() =>
    autocannon({ duration: 10, connections: 16, ...options }),
  );
  return {
    databaseCpuMicros,
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Creates a throwaway database for a benchmark and returns its URL and a drop function. */
export async function benchDatabase(baseUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** `pgbench -N` (simple-update transactions) at the given concurrency: the database ceiling. */
export async function pgbench(
  url: string,
  clients: number,
  seconds: number,
): Promise<{ tps: number; latencyMs: number; databaseCpuMicros: number | null }> {
  const { hostname, port, pathname, username } = new URL(url);
  const args = ['-h', hostname, '-p', port || '5432', '-U', username || 'postgres'];
  const db = pathname.slice(1);
  execFileSync('pgbench', [...args, '-i', '-q', '-s', '1', db], { stdio: 'ignore' });
  const { result: out, cpuSeconds } = await cpuDuring(
    'postgres',
    () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn('pgbench', [
          ...args,
          '-N',
          '-c',
          String(clients),
          '-j',
          '2',
          '-T',
          String(seconds),
          db,
        ]);
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('error', reject);
        child.once('exit', (code) =>
          code === 0 ? resolve(output) : reject(new Error(`pgbench exited with ${code}`)),
        );
      }),
  );
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
  const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1]);
  const transactions = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1]);
  return {
    tps: Math.round(tps),
    latencyMs,
    databaseCpuMicros:
      cpuSeconds === null || !transactions ? null : Math.round((cpuSeconds * 1e6) / transactions),
  };
}

export const machine = () =>
  `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;

export const BRANDS = [
  'Kilombero',
  'Azam',
  'Bakhresa',
  'Mo',
  'Kibo',
  'Serengeti',
  'Tanga',
  'Pwani',
  'Moshi',
  'Ruvuma',
];
export const GOODS = [
  'Sukari',
  'Mchele',
  'Unga',
  'Sabuni',
  'Mafuta',
  'Chumvi',
  'Chai',
  'Maziwa',
  'Juisi',
  'Biskuti',
];

/**
 * Bulk-inserts `count` test-mode products for a merchant by SQL, with their SKU
 * and barcode codes: `prod_bench0000001`, "Sukari Kilombero 437g" (good, brand,
 * size), `SKU-0000001`, barcode `620` and ten digits.
 */
export async function seedProducts(
  db: Pick<pg.Client, 'query'>,
  merchantId: string,
  count: number,
  { trackStock }: { trackStock: boolean },
): Promise<void> {
  await db.query(
    `INSERT INTO retail_products (id, merchant_id, livemode, name, sku, barcodes, price, currency, tax_rate, unit, track_stock, active)
     SELECT 'prod_bench' || lpad(i::text, 7, '0'), $1, false,
       ($3::text[])[1 + i % 10] || ' ' || ($4::text[])[1 + (i / 10) % 10] || ' ' || (50 + i % 950) || 'g',
       'SKU-' || lpad(i::text, 7, '0'), ARRAY['620' || lpad(i::text, 10, '0')], 500 + (i % 200) * 50, 'TZS',
       CASE WHEN i % 5 = 0 THEN 'exempt' ELSE 'standard' END, 'piece', $5, true
     FROM generate_series(1, $2) AS i`,
    [merchantId, count, GOODS, BRANDS, trackStock],
  );
  await db.query(
    `INSERT INTO retail_codes (merchant_id, livemode, kind, code, product_id)
     SELECT merchant_id, false, 'sku', sku, id FROM retail_products WHERE merchant_id = $1
     UNION ALL SELECT merchant_id, false, 'barcode', barcodes[1], id FROM retail_products WHERE merchant_id = $1`,
    [merchantId],
  );
}

/**
 * Runs each measurement in turn, three rounds alternating so that a noisy minute on a shared
 * host falls on all of them alike, and keeps each one's median round (by `rank`).
 */
export async function alternatingRounds(
  runs: Record<string, () => Promise<autocannon.Result>>,
  rank: (result: autocannon.Result) => number = (result) => result.latency.p99,
): Promise<Record<string, autocannon.Result>> {
  const rounds: Record<string, autocannon.Result[]> = {};
  for (let round = 0; round < 3; round += 1)
    for (const [name, run] of Object.entries(runs)) (rounds[name] ??= []).push(await run());
  return Object.fromEntries(
    Object.entries(rounds).map(([name, results]) => [
      name,
      [...results].sort((a, b) => rank(a) - rank(b))[1]!,
    ]),
  );
}

/** Prints median rounds as a BENCHMARKS.md table, each with its ratio to the baseline row. */
export function printAgainstBaseline(
  results: Record<string, autocannon.Result>,
  baselineName: string,
  ratio: (result: autocannon.Result, baseline: autocannon.Result) => string,
): void {
  const baseline = results[baselineName]!;
  console.log('| Measurement | req/s | p50 ms | p99 ms | ratio |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [name, r] of Object.entries(results)) {
    const against = name === baselineName ? 'baseline' : ratio(r, baseline);
    console.log(
      `| ${name} | ${Math.round(r.requests.average)} | ${r.latency.p50} | **${r.latency.p99}** | ${against} |`,
    );
  }
}
