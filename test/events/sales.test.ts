/**
 * An event's sales by tier and day on PostgreSQL: paid orders' tickets on the
 * day each was paid in the event's time zone, refunded and unpaid orders left
 * out, and totals that equal the paid orders the API lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { anotherMerchant, withMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import { makeEvent, order, payOrder } from './support.ts';

let server: RunningServer;
let api: Api;

beforeAll(async () => {
  ({ server, api } = await withMerchant());
});
afterAll(() => server?.close());

/** Moves an order's payment to a time (the database stamps `paid_at` with its own clock). */
const paidAt = (id: string, iso: string) =>
  server.database.pool.query(`UPDATE event_orders SET paid_at = $2 WHERE id = $1`, [id, iso]);

describe('an event’s sales', () => {
  it('counts paid tickets per tier per day in the event’s time zone, totals equal to the paid orders', async () => {
    const { event, tiers } = await makeEvent(api, {
      tiers: [
        { name: 'VIP', price: 50_000, quantity: 20 },
        { name: 'Regular', price: 20_000, quantity: 50 },
      ],
    });
    const [vip, regular] = tiers as [string, string];
    const promo = await api.post(`/v1/events/${event.id}/promos`, { code: 'BUSARA10', percent_off: 10 });
    expect(promo.status, JSON.stringify(promo.body)).toBe(201);

    const first = await payOrder(
      server.url,
      api,
      await order(api, event.id, [
        { tier: regular, quantity: 2 },
        { tier: vip, quantity: 1 },
      ]),
    );
    const second = await payOrder(
      server.url,
      api,
      await order(api, event.id, [{ tier: regular, quantity: 3 }], { promo_code: 'busara10' }),
    );
    const refunded = await payOrder(
      server.url,
      api,
      await order(api, event.id, [{ tier: vip, quantity: 4 }]),
    );
    expect((await api.post(`/v1/events/orders/${refunded.id}/refund`)).status).toBe(200);
    const pending = await order(api, event.id, [{ tier: vip, quantity: 1 }]);
    expect(pending.body.status).toBe('pending');

    // 22:30 UTC is 01:30 the next day in Dar es Salaam; 21:00 UTC is midnight there.
    await paidAt(first.id, '2026-03-01T22:30:00Z');
    await paidAt(second.id, '2026-03-03T21:00:00Z');

    const sales = await api.get(`/v1/events/${event.id}/sales`);
    expect(sales.status, JSON.stringify(sales.body)).toBe(200);
    expect(sales.body).toMatchObject({
      object: 'event_sales',
      event: event.id,
      time_zone: 'Africa/Dar_es_Salaam',
      currency: 'TZS',
      tiers: [
        { tier: vip, name: 'VIP', tickets: 1, gross: 50_000 },
        { tier: regular, name: 'Regular', tickets: 5, gross: 100_000 },
      ],
      days: [
        {
          date: '2026-03-02',
          tickets: 3,
          tiers: expect.arrayContaining([
            { tier: vip, tickets: 1, gross: 50_000 },
            { tier: regular, tickets: 2, gross: 40_000 },
          ]),
        },
        { date: '2026-03-04', tickets: 3, tiers: [{ tier: regular, tickets: 3, gross: 60_000 }] },
      ],
      total: { orders: 2, tickets: 6, gross: 150_000, discount: 6_000, amount: 144_000 },
    });
    expect(sales.body.days[0].tiers).toHaveLength(2);

    // The totals are the paid orders' own.
    const paid = (await api.get(`/v1/events/orders?event=${event.id}&status=paid`)).body.data as Array<{
      amount: number;
      discount: number;
      lines: Array<{ quantity: number; amount: number }>;
    }>;
    expect(paid).toHaveLength(sales.body.total.orders);
    const lines = paid.flatMap((one) => one.lines);
    expect(sales.body.total).toEqual({
      orders: paid.length,
      tickets: lines.reduce((sum, line) => sum + line.quantity, 0),
      gross: lines.reduce((sum, line) => sum + line.amount, 0),
      discount: paid.reduce((sum, one) => sum + one.discount, 0),
      amount: paid.reduce((sum, one) => sum + one.amount, 0),
    });
  });

  it('is empty before a sale, and another merchant’s event is not found', async () => {
    const { event, tiers } = await makeEvent(api, { publish: false });
    const sales = await api.get(`/v1/events/${event.id}/sales`);
    expect(sales.status).toBe(200);
    expect(sales.body).toMatchObject({
      tiers: [{ tier: tiers[0], name: 'Regular', tickets: 0, gross: 0 }],
      days: [],
      total: { orders: 0, tickets: 0, gross: 0, discount: 0, amount: 0 },
    });
    const stranger = await anotherMerchant(server);
    const theirs = await stranger.api.get(`/v1/events/${event.id}/sales`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ code: 'resource_missing' });
  });
});
