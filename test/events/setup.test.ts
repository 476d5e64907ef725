import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { withMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import { expectBadRequest, inDays, makeEvent, order, payOrder } from './support.ts';

let server: RunningServer;
let api: Api;

beforeAll(async () => {
  ({ server, api } = await withMerchant({ business_name: 'Busara Promotions' }));
});
afterAll(() => server?.close());

describe('the organizer', () => {
  it('exists from the start, named after the business, and keeps what is changed', async () => {
    expect((await api.get('/v1/events/organizer')).body).toMatchObject({
      object: 'event_organizer',
      display_name: 'Busara Promotions',
      payout_phone: null,
    });
    const patched = await api.patch('/v1/events/organizer', {
      display_name: 'Busara',
      contact_email: 'tickets@busara.tz',
      payout_phone: '0754 123 456',
      refund_policy: 'Refunds until a week before the show.',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ display_name: 'Busara', payout_phone: '255754123456' });
    const again = await api.patch('/v1/events/organizer', { contact_email: null });
    expect(again.body).toMatchObject({ display_name: 'Busara', contact_email: null });
  });

  it('refuses bad input with 400 and the field named', async () => {
    expectBadRequest(await api.patch('/v1/events/organizer', { payout_phone: '12' }), 'payout_phone');
    expectBadRequest(await api.patch('/v1/events/organizer', { contact_email: 'nope' }), 'contact_email');
    expectBadRequest(await api.patch('/v1/events/organizer', { colour: 'red' }), 'colour');
  });
});

describe('events', () => {
  it('are drafts until published, then canceled or ended on the state table', async () => {
    const { event } = await makeEvent(api, { publish: false });
    const fetched = await api.get(`/v1/events/${event.id}`);
    expect(fetched.body).toMatchObject({
      status: 'draft',
      capacity: 100,
      taken: 0,
      time_zone: 'Africa/Dar_es_Salaam',
    });
    expect(fetched.body.tiers).toHaveLength(1);
    expect((await api.patch(`/v1/events/${event.id}`, { status: 'ended' })).body.code).toBe(
      'state_transition_invalid',
    );
    const published = await api.patch(`/v1/events/${event.id}`, { status: 'published', venue: 'Forodhani' });
    expect(published.body).toMatchObject({
      status: 'published',
      venue: 'Forodhani',
      published: expect.any(Number),
    });
    const canceled = await api.patch(`/v1/events/${event.id}`, { status: 'canceled' });
    expect(canceled.body.status).toBe('canceled');
    expect((await api.patch(`/v1/events/${event.id}`, { status: 'published' })).status).toBe(400);
    const listed = await api.get('/v1/events?status=canceled&limit=5');
    expect(listed.body.data.map((row: { id: string }) => row.id)).toContain(event.id);
  });

  it('refuses bad input with 400 and the field named, never a 5xx', async () => {
    const base = { name: 'Gig', venue: 'Hall', starts_at: inDays(3), ends_at: inDays(3.1), capacity: 10 };
    expectBadRequest(await api.post('/v1/events', { ...base, ends_at: base.starts_at - 60 }), 'ends_at');
    expectBadRequest(await api.post('/v1/events', { ...base, capacity: -1 }), 'capacity');
    expectBadRequest(await api.post('/v1/events', { ...base, capacity: 1.5 }), 'capacity');
    expectBadRequest(await api.post('/v1/events', { ...base, time_zone: 'Europe/Paris' }), 'time_zone');
    expectBadRequest(await api.post('/v1/events', { ...base, name: '' }), 'name');
    expectBadRequest(await api.post('/v1/events', { ...base, starts_at: 'tomorrow' }), 'starts_at');
    expectBadRequest(await api.get('/v1/events?status=sold'), 'status');
    expectBadRequest(await api.get('/v1/events?limit=0'), 'limit');
    const { event } = await makeEvent(api, { publish: false });
    expectBadRequest(await api.patch(`/v1/events/${event.id}`, { status: 'draft' }), 'status');
    expectBadRequest(await api.patch(`/v1/events/${event.id}`, { ends_at: 1 }), 'ends_at');
    expect((await api.get('/v1/events/tev_nothing')).status).toBe(404);
  });

  it('serves its door key, and deletes a draft but refuses one with paid orders', async () => {
    const { event } = await makeEvent(api, { publish: false });
    const key = await api.get(`/v1/events/${event.id}/door-key`);
    expect(key.body).toMatchObject({ algorithm: 'Ed25519', code_version: 1, event: event.id });
    expect(key.body.public_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await server.database.pool.query(
      `SELECT door_private_key FROM ticketed_events WHERE id = $1`,
      [event.id],
    );
    // The private half is sealed at rest, never in clear.
    expect(stored.rows[0].door_private_key).toMatch(/^enc:v1:/);
    const deleted = await api.delete(`/v1/events/${event.id}`);
    expect(deleted.body).toMatchObject({ id: event.id, deleted: true });
    expect((await api.get(`/v1/events/${event.id}`)).status).toBe(404);

    const sold = await makeEvent(api);
    await payOrder(server.url, api, await order(api, sold.event.id, [{ tier: sold.tiers[0]!, quantity: 1 }]));
    const refused = await api.delete(`/v1/events/${sold.event.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('tickets_sold');
    expectBadRequest(await api.patch(`/v1/events/${sold.event.id}`, { capacity: 0 }), 'capacity');
  });
});

describe('tiers', () => {
  it('keeps sold tickets at their price when the price changes, and refuses deleting a tier with sales', async () => {
    const { event, tiers } = await makeEvent(api, {
      tiers: [
        { name: 'VIP', price: 150_000, quantity: 5, per_order_limit: 2 },
        { name: 'Early', price: 10_000, quantity: 5 },
      ],
    });
    const paid = await payOrder(
      server.url,
      api,
      await order(api, event.id, [{ tier: tiers[0]!, quantity: 2 }]),
    );
    expect(paid.amount).toBe(300_000);
    const repriced = await api.patch(`/v1/events/tiers/${tiers[0]}`, { price: 200_000 });
    expect(repriced.body).toMatchObject({ price: 200_000, taken: 2, available: 3 });
    const again = await api.get(`/v1/events/orders/${paid.id}`);
    expect(again.body).toMatchObject({ status: 'paid', amount: 300_000, lines: [{ unit_price: 150_000 }] });
    expect(again.body.tickets.every((ticket: { status: string }) => ticket.status === 'valid')).toBe(true);

    const refused = await api.delete(`/v1/events/tiers/${tiers[0]}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('tickets_sold');
    expectBadRequest(await api.patch(`/v1/events/tiers/${tiers[0]}`, { quantity: 1 }), 'quantity');
    const gone = await api.delete(`/v1/events/tiers/${tiers[1]}`);
    expect(gone.body).toMatchObject({ id: tiers[1], deleted: true });
    expect((await api.get(`/v1/events/${event.id}`)).body.tiers).toHaveLength(1);
  });

  it('refuses bad input with 400 and the field named', async () => {
    const { event, tiers } = await makeEvent(api, { publish: false });
    const tier = { name: 'Gate', price: 5_000, quantity: 10 };
    expectBadRequest(await api.post(`/v1/events/${event.id}/tiers`, { ...tier, price: 10.5 }), 'price');
    expectBadRequest(await api.post(`/v1/events/${event.id}/tiers`, { ...tier, quantity: -2 }), 'quantity');
    expectBadRequest(
      await api.post(`/v1/events/${event.id}/tiers`, {
        ...tier,
        sales_start: inDays(2),
        sales_end: inDays(1),
      }),
      'sales_end',
    );
    expectBadRequest(
      await api.post(`/v1/events/${event.id}/tiers`, { ...tier, per_order_limit: 0 }),
      'per_order_limit',
    );
    expectBadRequest(await api.patch(`/v1/events/tiers/${tiers[0]}`, { price: 'free' }), 'price');
    expect((await api.patch('/v1/events/tiers/tier_none', { price: 1 })).status).toBe(404);
  });
});
