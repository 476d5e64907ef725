import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { withMerchant } from '../support/merchant.ts';
import { eventually } from '../support/server.ts';
import type { Api } from '../support/retail.ts';
import { buyer, expectBadRequest, inDays, makeEvent, order, payOrder } from './support.ts';

const clock = movableClock();
let server: RunningServer;
let api: Api;

beforeAll(async () => {
  // Holds are released when the test says, at the clock's time.
  ({ server, api } = await withMerchant({ env: { EVENT_HOLD_RELEASE: 'false' }, clock }));
});
afterAll(() => server?.close());

const payCheckout = (checkout: string, phone: string) =>
  fetch(`${server.url}/pay/${checkout}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone }),
  });

/** An order of two of an event's five seats whose hold ran out unpaid. */
async function expiredOrder() {
  const { event, tiers } = await makeEvent(api, {
    capacity: 5,
    tiers: [{ name: 'Gate', price: 8_000, quantity: 5 }],
  });
  const late = await order(api, event.id, [{ tier: tiers[0]!, quantity: 2 }]);
  clock.advance(11 * 60_000);
  await server.services.eventHolds.runDue();
  expect((await api.get(`/v1/events/orders/${late.body.id}`)).body.status).toBe('expired');
  return { event, late };
}

describe('ticket orders', () => {
  it('holds the tickets, opens a checkout, and issues signed tickets once paid', async () => {
    const { event, tiers } = await makeEvent(api, {
      capacity: 10,
      tiers: [
        { name: 'VIP', price: 100_000, quantity: 4 },
        { name: 'Regular', price: 25_000, quantity: 10 },
      ],
    });
    const created = await order(api, event.id, [
      { tier: tiers[0]!, quantity: 2 },
      { tier: tiers[1]!, quantity: 3 },
    ]);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      status: 'pending',
      amount: 275_000,
      buyer: { phone: '255754000111' },
      checkout_url: `${server.config.publicUrl}/pay/${created.body.checkout}`,
    });
    expect(created.body.tickets).toHaveLength(5);
    expect(created.body.tickets.every((ticket: { code: null }) => ticket.code === null)).toBe(true);
    const checkout = await api.get(`/v1/checkout/${created.body.checkout}`);
    expect(checkout.body).toMatchObject({ amount: 275_000, expires_at: created.body.held_until });
    expect((await api.get(`/v1/events/${event.id}`)).body).toMatchObject({ taken: 5, available: 5 });

    const paid = await payOrder(server.url, api, created);
    expect(paid.payment).toEqual(expect.any(String));
    for (const ticket of paid.tickets) {
      expect(ticket.status).toBe('valid');
      expect(ticket.code).toMatch(/^[A-Za-z0-9_-]{151}$/);
    }
    const listed = await api.get(`/v1/events/orders?event=${event.id}&status=paid&phone=0754000111`);
    expect(listed.body.data.map((row: { id: string }) => row.id)).toEqual([created.body.id]);
    expect((await api.get(`/v1/events/orders?event=${event.id}&status=pending`)).body.data).toEqual([]);
  });

  it('refuses what is not on sale, over the limit or sold out, and bad input with 400', async () => {
    const draft = await makeEvent(api, { publish: false });
    const closed = await order(api, draft.event.id, [{ tier: draft.tiers[0]!, quantity: 1 }]);
    expect([closed.status, closed.body.code]).toEqual([409, 'sales_closed']);

    const { event, tiers } = await makeEvent(api, {
      capacity: 3,
      tiers: [
        { name: 'Later', price: 5_000, quantity: 3, sales_start: inDays(1) },
        { name: 'Now', price: 5_000, quantity: 5, per_order_limit: 2 },
      ],
    });
    const early = await order(api, event.id, [{ tier: tiers[0]!, quantity: 1 }]);
    expect([early.status, early.body.code]).toEqual([409, 'sales_closed']);
    expectBadRequest(await order(api, event.id, [{ tier: tiers[1]!, quantity: 3 }]), 'lines.0.quantity');
    expect((await order(api, event.id, [{ tier: tiers[1]!, quantity: 2 }])).status).toBe(201);
    const over = await order(api, event.id, [{ tier: tiers[1]!, quantity: 2 }]);
    expect([over.status, over.body.code]).toEqual([409, 'sold_out']);

    expectBadRequest(await order(api, event.id, [{ tier: 'tier_other', quantity: 1 }]), 'lines.0.tier');
    expectBadRequest(await order(api, event.id, []), 'lines');
    expectBadRequest(await order(api, event.id, [{ tier: tiers[1]!, quantity: 0 }]), 'lines.0.quantity');
    expectBadRequest(
      await order(api, event.id, [
        { tier: tiers[1]!, quantity: 1 },
        { tier: tiers[1]!, quantity: 1 },
      ]),
      'lines',
    );
    expectBadRequest(
      await api.post('/v1/events/orders', {
        event: event.id,
        lines: [{ tier: tiers[1]!, quantity: 1 }],
        buyer: { ...buyer(), phone: '123' },
      }),
      'buyer.phone',
    );
    expectBadRequest(await api.get('/v1/events/orders?status=lost'), 'status');
    expectBadRequest(await api.get('/v1/events/orders?phone=abc'), 'phone');
    expect((await api.get('/v1/events/orders/eord_none')).status).toBe(404);
    expect((await order(api, 'tev_none', [{ tier: tiers[1]!, quantity: 1 }])).status).toBe(404);
  });
});

describe('holds', () => {
  it('release their tickets once they run out unpaid, but not while a payment waits for approval', async () => {
    const { event, tiers } = await makeEvent(api, {
      capacity: 10,
      tiers: [{ name: 'Gate', price: 8_000, quantity: 4 }],
    });
    const lapsing = await order(api, event.id, [{ tier: tiers[0]!, quantity: 3 }]);
    const waiting = await order(api, event.id, [{ tier: tiers[0]!, quantity: 1 }]);
    expect((await payCheckout(waiting.body.checkout, '0700000003')).status).toBe(201);
    const full = await order(api, event.id, [{ tier: tiers[0]!, quantity: 1 }]);
    expect(full.body.code).toBe('sold_out');

    await server.services.eventHolds.runDue();
    expect((await api.get(`/v1/events/orders/${lapsing.body.id}`)).body.status).toBe('pending');
    clock.advance(11 * 60_000);
    await server.services.eventHolds.runDue();

    const expired = await api.get(`/v1/events/orders/${lapsing.body.id}`);
    expect(expired.body).toMatchObject({ status: 'expired', expired: expect.any(Number) });
    expect(expired.body.tickets.every((ticket: { status: string }) => ticket.status === 'released')).toBe(
      true,
    );
    expect((await api.get(`/v1/events/orders/${waiting.body.id}`)).body.status).toBe('pending');
    const tier = (await api.get(`/v1/events/${event.id}`)).body.tiers[0];
    expect(tier).toMatchObject({ taken: 1, available: 3 });
    expect((await order(api, event.id, [{ tier: tiers[0]!, quantity: 3 }])).status).toBe(201);
    const recorded = await server.database.pool.query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'event_order.expired' AND data->'object'->>'id' = $1`,
      [lapsing.body.id],
    );
    expect(recorded.rows[0].n).toBe(1);
  });

  it('lets a payment that lands after its hold ran out take the tickets again while they are there', async () => {
    const { event, late } = await expiredOrder();
    // The checkout's own expiry is on the wall clock, which has not moved: the payer can still pay.
    expect((await payCheckout(late.body.checkout, '0700000001')).status).toBe(201);
    const paid = await eventually(async () => {
      const found = await api.get(`/v1/events/orders/${late.body.id}`);
      return found.body.status === 'paid' ? found.body : undefined;
    });
    expect(paid.tickets.every((ticket: { status: string }) => ticket.status === 'valid')).toBe(true);
    expect((await api.get(`/v1/events/${event.id}`)).body.taken).toBe(2);
  });

  it('refunds a payment that lands after the hold ran out on an event canceled meanwhile', async () => {
    const { event, late } = await expiredOrder();
    expect((await api.patch(`/v1/events/${event.id}`, { status: 'canceled' })).status).toBe(200);
    expect((await payCheckout(late.body.checkout, '0700000001')).status).toBe(201);
    const refunded = await eventually(async () => {
      const found = await api.get(`/v1/events/orders/${late.body.id}`);
      return found.body.status === 'expired' ? undefined : found.body;
    });
    expect(refunded).toMatchObject({ status: 'refunded', payment: expect.any(String) });
    expect(refunded.tickets.every((ticket: { status: string }) => ticket.status === 'released')).toBe(true);
    expect((await api.get(`/v1/payments/${refunded.payment}`)).body.status).toBe('refunded');
    expect((await api.get(`/v1/events/${event.id}`)).body.taken).toBe(0);
  });
});
