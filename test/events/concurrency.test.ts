import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import type { Api } from '../support/retail.ts';
import { inDays, makeEvent, order, payOrder } from './support.ts';

/**
 * Many buyers at the last tickets, and many doors at one ticket. On PostgreSQL
 * two servers share the database, as two processes do; the embedded database
 * belongs to one process, so there every request goes through one server.
 */
const servers: RunningServer[] = [];
let desks: Api[];

beforeAll(async () => {
  servers.push(await startTestServer());
  if (process.env.TEST_DATABASE_URL) servers.push(await startTestServer());
  const merchant = await signUp(servers[0]!.url, { business_name: 'Last Tickets Ltd' });
  desks = servers.map((server) => client(server.url, merchant.keys.secretTest));
});
afterAll(async () => {
  for (const server of servers) await server.close();
});

const BUYERS = 100;

/** `BUYERS` orders of one ticket at once, spread over the servers. */
const buyAtOnce = (event: string, tier: string) =>
  Promise.all(
    Array.from({ length: BUYERS }, (_, index) =>
      order(desks[index % desks.length]!, event, [{ tier, quantity: 1 }]),
    ),
  );

async function expectExactlyTen(event: string, tier: string, answers: Awaited<ReturnType<typeof buyAtOnce>>) {
  const statuses = answers.map((answer) => answer.status);
  expect(statuses.filter((status) => status === 201)).toHaveLength(10);
  // The rest are sold out (409), or on a machine too busy to answer in time asked to try again
  // (503); never an eleventh ticket, never another answer.
  expect(statuses.filter((status) => status !== 201 && status !== 409 && status !== 503)).toEqual([]);
  expect(answers.filter((answer) => answer.body.code === 'sold_out').length).toBeGreaterThan(BUYERS * 0.8);
  const counted = await servers[0]!.database.pool.query(
    `SELECT (SELECT taken FROM event_tiers WHERE id = $2) AS tier_taken,
            (SELECT count(*)::int FROM event_tickets WHERE tier_id = $2 AND status = 'held') AS held,
            (SELECT taken FROM ticketed_events WHERE id = $1) AS event_taken`,
    [event, tier],
  );
  return counted.rows[0] as { tier_taken: number; held: number; event_taken: number };
}

describe('the last ten tickets, wanted by a hundred buyers at once', () => {
  it('sells exactly ten when the event’s capacity is what runs out', async () => {
    const { event, tiers } = await makeEvent(desks[0]!, {
      capacity: 50,
      tiers: [{ name: 'Regular', price: 20_000, quantity: 1_000, per_order_limit: 20 }],
    });
    for (let sold = 0; sold < 40; sold += 20)
      expect((await order(desks[0]!, event.id, [{ tier: tiers[0]!, quantity: 20 }])).status).toBe(201);
    const counts = await expectExactlyTen(event.id, tiers[0]!, await buyAtOnce(event.id, tiers[0]!));
    expect(counts).toEqual({ tier_taken: 50, held: 50, event_taken: 50 });
  }, 120_000);

  it('sells exactly ten when the tier’s quantity is what runs out', async () => {
    const { event, tiers } = await makeEvent(desks[0]!, {
      capacity: 1_000,
      tiers: [{ name: 'VIP', price: 150_000, quantity: 10 }],
    });
    const counts = await expectExactlyTen(event.id, tiers[0]!, await buyAtOnce(event.id, tiers[0]!));
    expect(counts).toEqual({ tier_taken: 10, held: 10, event_taken: 10 });
  }, 120_000);
});

describe('a promo with five uses, wanted by twenty orders at once', () => {
  it('is redeemed exactly five times', async () => {
    const { event, tiers } = await makeEvent(desks[0]!, {
      tiers: [{ name: 'Regular', price: 20_000, quantity: 100 }],
    });
    const promo = await desks[0]!.post(`/v1/events/${event.id}/promos`, {
      code: 'FIVE',
      percent_off: 50,
      usage_limit: 5,
    });
    expect(promo.status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        order(desks[index % desks.length]!, event.id, [{ tier: tiers[0]!, quantity: 1 }], {
          promo_code: 'FIVE',
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(5);
    expect(answers.filter((answer) => answer.status !== 201).map((answer) => answer.body.code)).toEqual(
      Array(15).fill('discount_invalid'),
    );
    const counted = await servers[0]!.database.pool.query(
      `SELECT (SELECT used FROM event_promos WHERE id = $1) AS used,
              (SELECT count(*)::int FROM event_orders WHERE promo_id = $1) AS orders,
              (SELECT taken FROM event_tiers WHERE id = $2) AS taken`,
      [promo.body.id, tiers[0]],
    );
    // The refused orders took no tickets either: their transactions rolled back whole.
    expect(counted.rows[0]).toEqual({ used: 5, orders: 5, taken: 5 });
  }, 60_000);
});

describe('one ticket at fifty doors at once', () => {
  it('admits it once; every other door hears already_redeemed, naming the door that admitted it', async () => {
    const { event, tiers } = await makeEvent(desks[0]!, { starts_at: inDays(0.05), ends_at: inDays(0.3) });
    const paid = await payOrder(
      servers[0]!.url,
      desks[0]!,
      await order(desks[0]!, event.id, [{ tier: tiers[0]!, quantity: 1 }]),
    );
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        desks[index % desks.length]!.post('/v1/events/checkin', {
          event: event.id,
          code: paid.tickets[0].code,
          door: `Gate ${index}`,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).filter((status) => status !== 200)).toEqual([]);
    const admitted = answers.filter((answer) => answer.body.verdict === 'ok');
    expect(admitted).toHaveLength(1);
    const door = admitted[0]!.body.checked_in.door;
    for (const answer of answers.filter((one) => one.body.verdict !== 'ok'))
      expect(answer.body).toMatchObject({ verdict: 'already_redeemed', checked_in: { door } });
    const rows = await servers[0]!.database.pool.query(
      `SELECT count(*)::int AS n FROM event_checkins WHERE ticket_id = $1`,
      [paid.tickets[0].id],
    );
    expect(rows.rows[0].n).toBe(1);
  }, 60_000);
});
