/**
 * Hospitality on PostgreSQL, one run, one machine:
 *   - availability and quote for 30 nights across a 200-room property holding
 *     10,000 reservations (`GET /v1/hospitality/availability`), under autocannon,
 *     beside the same run's plain payment read;
 *   - 50 concurrent bookings of one date range for a type of 10 rooms: exactly
 *     10 made, none overbooked, their throughput beside the same run's plain
 *     payment creation at the same concurrency.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/hospitality.ts
 *
 * BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 4: a few front desks and a booking site),
 * BENCH_KEEP_DATABASE=1 to keep the data for EXPLAIN.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { startBenchServer } from './support/bench-server.ts';
import { copyStaysOver2027 } from './support/hotel-stays.ts';
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
const TYPES = 10;
const ROOMS_PER_TYPE = 20;
const STAYS_PER_ROOM = 50;
const CONCURRENT_BOOKINGS = 50;
const ROOMS_CONTENDED = 10;

const database = await benchDatabase(baseUrl, 'bench_hospitality');
const server = await startBenchServer(database.url, {
  SANDBOX_SETTLE_MS: '3600000',
});
const pool = new pg.Pool({ connectionString: database.url, max: 2 });
try {
  const { headers } = await signUpMerchant(server.url, 'Bench Lodge');
  const call = jsonCaller(server.url, headers);

  await call('PATCH', '/v1/hospitality/property', { name: 'Bench Lodge', star_rating: 3 });
  // The property: 10 types of 20 rooms, each type with a season and a weekend rate.
  for (let type = 0; type < TYPES; type += 1) {
    const roomType = await call('POST', '/v1/hospitality/room-types', {
      name: `Type ${type}`,
      base_rate: 60_000 + type * 10_000,
      max_adults: 3,
    });
    await call('POST', '/v1/hospitality/rates', {
      room_type: roomType.id,
      starts_on: '2027-06-01',
      ends_on: '2027-09-30',
      rate: 90_000 + type * 10_000,
    });
    await call('POST', '/v1/hospitality/rates', {
      room_type: roomType.id,
      starts_on: '2027-01-01',
      ends_on: '2027-12-31',
      days_of_week: [5, 6],
      rate: 100_000 + type * 10_000,
    });
    for (let room = 0; room < ROOMS_PER_TYPE; room += 1)
      await call('POST', '/v1/hospitality/rooms', {
        room_type: roomType.id,
        number: `${type + 1}${String(room).padStart(2, '0')}`,
      });
  }
  // One booking through the API gives a row to copy: 10,000 stays, each room's back to back over 2027.
  const first = await pool.query<{ id: string }>(`SELECT id FROM hospitality_rooms ORDER BY number LIMIT 1`);
  const template = await call('POST', '/v1/hospitality/reservations', {
    room_type: (
      await pool.query(`SELECT room_type_id FROM hospitality_rooms WHERE id = $1`, [first.rows[0]!.id])
    ).rows[0].room_type_id,
    arrival: '2026-12-01',
    departure: '2026-12-02',
    guest: { name: 'Template' },
  });
  const seeding = performance.now();
  await copyStaysOver2027(pool, template.id, STAYS_PER_ROOM);
  await pool.query('VACUUM ANALYZE');
  const count = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM hospitality_reservations`);
  progress(
    `seeded ${count.rows[0]!.n} reservations in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );

  // Availability and quotes over 30 nights against the plain payment read, alternating, median round.
  const payment = await call('POST', '/v1/payments', {
    amount: 1_000,
    currency: 'TZS',
    phone: '255712345678',
  });
  const read = (path: string) =>
    autocannon({ url: `${server.url}${path}`, headers, connections, duration: seconds });
  const paths = {
    'GET /v1/payments/{id} (baseline)': `/v1/payments/${payment.id}`,
    'GET /v1/hospitality/availability, 30 nights':
      '/v1/hospitality/availability?arrival=2027-07-01&departure=2027-07-31&adults=2',
  };
  await read(paths['GET /v1/hospitality/availability, 30 nights']);
  const medians = await alternatingRounds(
    Object.fromEntries(Object.entries(paths).map(([name, path]) => [name, () => read(path)])),
  );
  progress('availability measured');

  // 50 at once for one date range of a 10-room type, against 50 payments created at once.
  const contended = await call('POST', '/v1/hospitality/room-types', {
    name: 'Contended',
    base_rate: 80_000,
  });
  for (let room = 0; room < ROOMS_CONTENDED; room += 1)
    await call('POST', '/v1/hospitality/rooms', { room_type: contended.id, number: `C${room}` });
  const burst = async (make: (index: number) => Promise<Response>) => {
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: CONCURRENT_BOOKINGS }, (_, index) => make(index)));
    const ms = performance.now() - started;
    return { ms, statuses: answers.map((answer) => answer.status) };
  };
  const booking = () =>
    burst(() =>
      fetch(`${server.url}/v1/hospitality/reservations`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          room_type: contended.id,
          arrival: '2027-11-10',
          departure: '2027-11-13',
          guest: { name: 'Rush' },
        }),
      }),
    );
  const paying = () =>
    burst((index) =>
      fetch(`${server.url}/v1/payments`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ amount: 1_000 + index, currency: 'TZS', phone: '255712345678' }),
      }),
    );
  const bookingRounds = [];
  const paymentRounds = [];
  for (let round = 0; round < 3; round += 1) {
    paymentRounds.push(await paying());
    bookingRounds.push(await booking());
    await pool.query(
      `UPDATE hospitality_reservations SET status = 'canceled' WHERE room_type_id = $1 AND status = 'confirmed'`,
      [contended.id],
    );
  }
  const overbooked = bookingRounds.some(
    (round) => round.statuses.filter((status) => status === 201).length !== ROOMS_CONTENDED,
  );
  const refusedOtherwise = bookingRounds.some((round) =>
    round.statuses.some((status) => status !== 201 && status !== 409),
  );
  const byTime = <T extends { ms: number }>(list: T[]) => [...list].sort((a, b) => a.ms - b.ms)[1]!;

  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  console.log(
    `\n${new Date().toISOString()} · ${os.cpus().length} × ${cpu} · Node ${process.version} · ${count.rows[0]!.n} reservations, ${TYPES * ROOMS_PER_TYPE} rooms\n`,
  );
  printAgainstBaseline(
    medians,
    'GET /v1/payments/{id} (baseline)',
    (r, baseline) => `p99 ${(r.latency.p99 / baseline.latency.p99).toFixed(1)}× the payment read`,
  );
  const bookings = byTime(bookingRounds);
  const payments = byTime(paymentRounds);
  const rate = (ms: number) => Math.round((CONCURRENT_BOOKINGS / ms) * 1000);
  console.log(`\n| ${CONCURRENT_BOOKINGS} at once | ms | per s | ratio |`);
  console.log('| --- | --- | --- | --- |');
  console.log(
    `| POST /v1/payments (baseline) | ${payments.ms.toFixed(0)} | ${rate(payments.ms)} | baseline |`,
  );
  console.log(
    `| POST /v1/hospitality/reservations, one range, ${ROOMS_CONTENDED} rooms | ${bookings.ms.toFixed(0)} | ${rate(bookings.ms)} | ${(rate(bookings.ms) / rate(payments.ms)).toFixed(2)}× the payments' rate |`,
  );
  console.log(
    `\nEach round: ${ROOMS_CONTENDED} booked, the rest refused with 409: ${overbooked || refusedOtherwise ? '**NO**' : 'yes, in all 3 rounds'}`,
  );
} finally {
  await pool.end();
  await server.close();
  if (!process.env.BENCH_KEEP_DATABASE) await database.drop();
}
