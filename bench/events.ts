/**
 * Ticketed events on PostgreSQL, one run, one machine:
 *   - online check-in (`POST /v1/events/checkin`), each request a distinct paid ticket of an event
 *     holding 20,000, under autocannon, beside the same run's plain payment read (goal: at least
 *     0.5 of its throughput);
 *   - 2,000 ticket orders of one ticket at once for a tier of 1,800, then the 1,800 held paid at
 *     once on the hosted checkout: exactly 1,800 paid, no oversell.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/events.ts
 *
 * BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 4: a few doors), BENCH_KEEP_DATABASE=1.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { startBenchServer } from './support/bench-server.ts';
import {
  alternatingRounds,
  benchDatabase,
  jsonCaller,
  printAgainstBaseline,
  progress,
  signUpMerchant,
} from './support/harness.ts';

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 4);
const TICKETS = 20_000;
const PER_ORDER = 100;
const BURST_ORDERS = 2_000;
const BURST_SEATS = 1_800;
/** How many requests of the burst are in flight at once: a crowd, not one socket per buyer. */
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 50);

const database = await benchDatabase(baseUrl, 'bench_events');
const server = await startBenchServer(database.url, {
  SANDBOX_SETTLE_MS: '50',
});
const pool = new pg.Pool({ connectionString: database.url, max: 2 });
try {
  const { headers } = await signUpMerchant(server.url, 'Bench Tamasha');
  const call = jsonCaller(server.url, headers);
  const now = Math.floor(Date.now() / 1000);
  const event = await call('POST', '/v1/events', {
    name: 'Bench Tamasha',
    venue: 'Uwanja wa Taifa',
    starts_at: now + 3600,
    ends_at: now + 8 * 3600,
    doors_open_at: now - 60,
    capacity: TICKETS + BURST_SEATS,
  });
  // Free tickets are paid at once: 20,000 issued, each signed, through the API.
  const free = await call('POST', `/v1/events/${event.id}/tiers`, {
    name: 'Mwaliko',
    price: 0,
    quantity: TICKETS,
    per_order_limit: PER_ORDER,
  });
  const paidTier = await call('POST', `/v1/events/${event.id}/tiers`, {
    name: 'Kawaida',
    price: 10_000,
    quantity: BURST_SEATS,
    per_order_limit: 1,
  });
  await call('PATCH', `/v1/events/${event.id}`, { status: 'published' });
  const seeding = performance.now();
  const codes: string[] = [];
  const buyer = { name: 'Mgeni', phone: '0754000111' };
  for (let made = 0; made < TICKETS; made += PER_ORDER * 4) {
    const orders = await Promise.all(
      Array.from({ length: 4 }, () =>
        call<{ tickets: Array<{ code: string }> }>('POST', '/v1/events/orders', {
          event: event.id,
          lines: [{ tier: free.id, quantity: PER_ORDER }],
          buyer,
        }),
      ),
    );
    for (const order of orders) codes.push(...order.tickets.map((ticket) => ticket.code));
  }
  progress(`issued ${codes.length} tickets in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  await pool.query('VACUUM ANALYZE');

  // Check-in, a distinct ticket per request, against the plain payment read, alternating, median round.
  const payment = await call('POST', '/v1/payments', {
    amount: 1_000,
    currency: 'TZS',
    phone: '255712345678',
  });
  let next = 0;
  const checkin = () =>
    autocannon({
      url: `${server.url}/v1/events/checkin`,
      method: 'POST',
      headers,
      connections,
      duration: seconds,
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ event: event.id, code: codes[next++ % codes.length], door: 'Geti 1' }),
          }),
        },
      ],
    });
  const read = () =>
    autocannon({ url: `${server.url}/v1/payments/${payment.id}`, headers, connections, duration: seconds });
  const runs = {
    'GET /v1/payments/{id} (baseline)': read,
    'POST /v1/events/checkin, a new ticket each': checkin,
  };
  const medians = await alternatingRounds(runs, (result) => result.requests.average);
  const admitted = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM event_checkins WHERE event_id = $1`,
    [event.id],
  );
  progress(`check-in measured: ${admitted.rows[0]!.n} admitted of ${next} asked`);

  // The burst: 2,000 orders at once for 1,800 seats, then the 1,800 held paid at once.
  const inBatches = async <T>(count: number, work: (index: number) => Promise<T>) => {
    const results: T[] = [];
    let index = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (index < count) results.push(await work(index++));
      }),
    );
    return results;
  };
  const ordering = performance.now();
  const placed = await inBatches(BURST_ORDERS, async () => {
    const response = await fetch(`${server.url}/v1/events/orders`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ event: event.id, lines: [{ tier: paidTier.id, quantity: 1 }], buyer }),
    });
    return { status: response.status, body: (await response.json()) as { id: string; checkout: string } };
  });
  const orderMs = performance.now() - ordering;
  const held = placed.filter((answer) => answer.status === 201);
  const soldOut = placed.filter((answer) => answer.status === 409).length;
  const statuses: Record<string, number> = {};
  for (const answer of placed) {
    const key = answer.status === 201 ? '201' : `${answer.status} ${(answer.body as { code?: string }).code}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  const paying = performance.now();
  const pays = await inBatches(held.length, async (index) => {
    const response = await fetch(`${server.url}/pay/${held[index]!.body.checkout}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '0700000001' }),
    });
    await response.arrayBuffer();
    return response.status;
  });
  const paidOf = async () =>
    (
      await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM event_orders WHERE event_id = $1 AND status = 'paid'
           AND id IN (SELECT order_id FROM event_order_lines WHERE tier_id = $2)`,
        [event.id, paidTier.id],
      )
    ).rows[0]!.n;
  let paid = await paidOf();
  while (paid < held.length && performance.now() - paying < 300_000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    paid = await paidOf();
  }
  const payMs = performance.now() - paying;
  const counts = await pool.query<{ taken: number; valid: number }>(
    `SELECT (SELECT taken FROM event_tiers WHERE id = $1) AS taken,
            (SELECT count(*)::int FROM event_tickets WHERE tier_id = $1 AND status = 'valid') AS valid`,
    [paidTier.id],
  );

  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  const load = os.loadavg().map((value) => value.toFixed(1));
  console.log(
    `\n${new Date().toISOString()} · ${os.cpus().length} × ${cpu} · Node ${process.version} · load ${load.join(' ')} · ${TICKETS} tickets\n`,
  );
  printAgainstBaseline(
    medians,
    'GET /v1/payments/{id} (baseline)',
    (r, baseline) =>
      `${(r.requests.average / baseline.requests.average).toFixed(2)}× the payment read's req/s, p99 ${(r.latency.p99 / baseline.latency.p99).toFixed(1)}×`,
  );
  const { taken, valid } = counts.rows[0]!;
  console.log(`\n| Burst | count | s | per s |`);
  console.log('| --- | --- | --- | --- |');
  console.log(
    `| ${BURST_ORDERS} orders at once, ${IN_FLIGHT} in flight: held | ${held.length} | ${(orderMs / 1000).toFixed(1)} | ${Math.round((BURST_ORDERS / orderMs) * 1000)} |`,
  );
  console.log(`| refused 409 \`sold_out\` | ${soldOut} | | |`);
  console.log(
    `| paid on the hosted checkout (${pays.filter((status) => status === 201).length} accepted) | ${paid} | ${(payMs / 1000).toFixed(1)} | ${Math.round((paid / payMs) * 1000)} |`,
  );
  // No oversell: never more taken, issued or paid than the tier holds, and every held order paid.
  const oversold = taken > BURST_SEATS || valid !== taken || paid !== held.length;
  console.log(
    `\nNo oversell: ${oversold ? '**NO**' : 'yes'} (tier of ${BURST_SEATS}: ${taken} taken, ${valid} valid tickets, ${paid} orders paid; answers ${JSON.stringify(statuses)})`,
  );
} finally {
  await pool.end();
  await server.close();
  if (!process.env.BENCH_KEEP_DATABASE) await database.drop();
}
