import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { withMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import { eventually } from '../support/server.ts';
import { inDays, makeEvent, order, payOrder } from './support.ts';

let server: RunningServer;
let api: Api;

beforeAll(async () => {
  ({ server, api } = await withMerchant({ business_name: 'Mlango Events' }));
});
afterAll(() => server?.close());

const eventsOf = async (type: string, objectId: string) =>
  (
    await server.database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = $1 AND data->'object'->>'id' = $2`,
      [type, objectId],
    )
  ).rows[0]!.n;

describe('refunds of ticket orders', () => {
  it('cancelling an event refunds its paid orders, voiding their tickets, with their events', async () => {
    const { event, tiers } = await makeEvent(api, { starts_at: inDays(0.05), ends_at: inDays(0.3) });
    const paid = [];
    for (const quantity of [1, 2]) {
      paid.push(await payOrder(server.url, api, await order(api, event.id, [{ tier: tiers[0]!, quantity }])));
    }
    const pending = await order(api, event.id, [{ tier: tiers[0]!, quantity: 1 }]);
    expect(pending.status).toBe(201);

    const canceled = await api.patch(`/v1/events/${event.id}`, { status: 'canceled' });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(canceled.body.status).toBe('canceled');
    for (const before of paid) {
      const after = (await api.get(`/v1/events/orders/${before.id}`)).body;
      expect(after).toMatchObject({ status: 'refunded', refunded: expect.any(Number) });
      expect(after.tickets.map((ticket: { status: string }) => ticket.status)).toEqual(
        before.tickets.map(() => 'void'),
      );
      expect((await api.get(`/v1/payments/${before.payment}`)).body.status).toBe('refunded');
      expect(await eventsOf('event_order.refunded', before.id)).toBe(1);
      expect(await eventsOf('payment.refunded', before.payment)).toBe(1);
      const checked = await api.post('/v1/events/checkin', { event: event.id, code: before.tickets[0].code });
      expect(checked.body.verdict).toBe('canceled');
    }
    // The pending order is left to its hold; nothing refunded twice.
    expect((await api.get(`/v1/events/orders/${pending.body.id}`)).body.status).toBe('pending');
    expect(await eventsOf('ticketed_event.canceled', event.id)).toBe(1);
  });

  it('a refund of an event order’s payment voids its tickets and marks the order refunded, once', async () => {
    const { event, tiers } = await makeEvent(api, { starts_at: inDays(0.05), ends_at: inDays(0.3) });
    const paid = await payOrder(
      server.url,
      api,
      await order(api, event.id, [{ tier: tiers[0]!, quantity: 2 }]),
    );
    const taken = (await api.get(`/v1/events/${event.id}`)).body.taken;

    const refunded = await api.post(`/v1/payments/${paid.payment}/refund`);
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body.status).toBe('refunded');
    const after = (await api.get(`/v1/events/orders/${paid.id}`)).body;
    expect(after.status).toBe('refunded');
    expect(after.tickets.map((ticket: { status: string }) => ticket.status)).toEqual(['void', 'void']);
    expect((await api.get(`/v1/events/${event.id}`)).body.taken).toBe(taken - 2);
    expect(await eventsOf('event_order.refunded', paid.id)).toBe(1);

    // Neither can be refunded again, and nothing is recorded twice.
    const again = await api.post(`/v1/events/orders/${paid.id}/refund`);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'state_transition_invalid' });
    const paymentAgain = await api.post(`/v1/payments/${paid.payment}/refund`);
    expect(paymentAgain.body).toMatchObject({ code: 'state_transition_invalid' });
    expect(await eventsOf('event_order.refunded', paid.id)).toBe(1);
    expect(await eventsOf('payment.refunded', paid.payment)).toBe(1);
  });

  it('an order’s refund refunds its payment once, through the same path', async () => {
    const { event, tiers } = await makeEvent(api, { starts_at: inDays(0.05), ends_at: inDays(0.3) });
    const paid = await payOrder(
      server.url,
      api,
      await order(api, event.id, [{ tier: tiers[0]!, quantity: 1 }]),
    );
    const refunded = await api.post(`/v1/events/orders/${paid.id}/refund`);
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body).toMatchObject({ status: 'refunded', tickets: [{ status: 'void' }] });
    expect(await eventsOf('event_order.refunded', paid.id)).toBe(1);
    expect(await eventsOf('payment.refunded', paid.payment)).toBe(1);
  });
  it('refunds a payment that lands on a pending order of an event canceled meanwhile, issuing no ticket', async () => {
    const { event, tiers } = await makeEvent(api, { starts_at: inDays(0.05), ends_at: inDays(0.3) });
    const pending = await order(api, event.id, [{ tier: tiers[0]!, quantity: 2 }]);
    expect(pending.status, JSON.stringify(pending.body)).toBe(201);
    expect((await api.patch(`/v1/events/${event.id}`, { status: 'canceled' })).status).toBe(200);
    expect((await api.get(`/v1/events/orders/${pending.body.id}`)).body.status).toBe('pending');

    const paying = await fetch(`${server.url}/pay/${pending.body.checkout}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '0700000001' }),
    });
    expect(paying.status).toBe(201);
    const after = await eventually(async () => {
      const found = (await api.get(`/v1/events/orders/${pending.body.id}`)).body;
      return found.status === 'pending' ? undefined : found;
    });
    expect(after).toMatchObject({
      status: 'refunded',
      refunded: expect.any(Number),
      payment: expect.any(String),
    });
    expect(after.tickets).toHaveLength(2);
    for (const ticket of after.tickets as Array<{ status: string; code?: string | null }>) {
      expect(ticket.status).toBe('released');
      expect(ticket.code ?? null).toBeNull();
    }
    const payment = (await api.get(`/v1/payments/${after.payment}`)).body;
    expect(payment).toMatchObject({ status: 'refunded', amount: pending.body.amount });
    expect(await eventsOf('payment.succeeded', after.payment)).toBe(1);
    expect(await eventsOf('payment.refunded', after.payment)).toBe(1);
    expect(await eventsOf('event_order.refunded', pending.body.id)).toBe(1);
    expect(await eventsOf('event_order.paid', pending.body.id)).toBe(0);
    // Its seats are given back, and the order cannot be refunded again.
    expect((await api.get(`/v1/events/${event.id}`)).body.taken).toBe(0);
    const again = await api.post(`/v1/events/orders/${pending.body.id}/refund`);
    expect(again.body).toMatchObject({ code: 'state_transition_invalid' });
  });
});
