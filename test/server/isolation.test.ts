import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, eventually, signUp, startTestServer, type Merchant } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { v1Routes } from '../../apps/server/src/routes/v1/index.ts';
import { makeProduct, sell } from '../support/retail.ts';
import { inTransaction, makeEmployee, pairedTill } from '../support/tills.ts';
import { newId } from '@tz/core';

let server: RunningServer;
let owner: Merchant;
let stranger: ReturnType<typeof client>;
const ownerIds: string[] = [];

// Write routes whose empty body fails validation get a valid one, so the lookup is what answers.
const validBodies: Record<string, unknown> = {
  'POST /retail/products/{id}/variants': { name: 'Kubwa', price: 1_000 },
  'PATCH /webhooks/{id}': { description: 'renamed' },
  // Well formed; the till is looked up before the signature is checked.
  'POST /tills/{id}/recover': {
    object: 'till_export',
    till: 'till_x',
    body: '{}',
    signature: '0'.repeat(64),
  },
  'POST /hospitality/reservations/{id}/assign': { room: 'room_x' },
  'POST /hospitality/reservations/{id}/guests': {
    guests: [
      {
        name: 'Asha',
        nationality: 'TZ',
        id_type: 'national_id',
        id_number: '1',
        id_country: 'TZ',
        arriving_from: 'Dodoma',
        going_to: 'Arusha',
      },
    ],
  },
  'POST /hospitality/reservations/{id}/folio/charges': { description: 'Soda', amount: 1_000 },
  'POST /hospitality/reservations/{id}/folio/payments': { method: 'cash', amount: 1_000 },
  'POST /hospitality/channels/conflicts/{id}/resolve': { action: 'dismiss' },
  'POST /events/{id}/tiers': { name: 'Gate', price: 1_000, quantity: 1 },
  'POST /events/{id}/promos': { code: 'KARIBU', percent_off: 10 },
};

/** Lists that need a question to answer (a stay's dates). */
const listQueries: Record<string, string> = {
  '/hospitality/availability': '?arrival=2030-01-01&departure=2030-01-02',
};

beforeAll(async () => {
  // Deliveries go to a closed local port: only their rows matter here.
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  owner = await signUp(server.url);
  stranger = client(server.url, (await signUp(server.url)).keys.secretTest);
  const api = client(server.url, owner.keys.secretTest);
  const paid = await api.post('/v1/payments', { amount: 5000, currency: 'TZS', phone: '0700000001' });
  await eventually(async () => (await api.get(`/v1/payments/${paid.body.id}`)).body.status === 'paid');
  const customer = await api.post('/v1/customers', { name: 'Baraka' });
  const checkout = await api.post('/v1/checkout', { amount: 100, currency: 'TZS' });
  const keys = await api.get('/v1/api-keys');
  const escrow = await api.post('/v1/escrow', {
    payment: paid.body.id,
    splits: [{ phone: '0700000001', amount: 4_925 }],
  });
  expect(escrow.status, JSON.stringify(escrow.body)).toBe(201);
  const transactions = await api.get('/v1/transactions');
  // A trial keeps it from falling due: only its id matters here (cancel, resume and the rest).
  const subscription = await api.post('/v1/subscriptions', {
    customer: customer.body.id,
    amount: 15_000,
    currency: 'TZS',
    interval: 'month',
    phone: '255700000001',
    trial_period_days: 30,
  });
  expect(subscription.status, JSON.stringify(subscription.body)).toBe(201);
  ownerIds.push(
    subscription.body.id,
    paid.body.id,
    escrow.body.id,
    escrow.body.splits[0].id,
    customer.body.id,
    checkout.body.id,
    keys.body.data[0].id,
    transactions.body.data[0].id,
  );

  // One object of every other kind a route takes an id of.
  const category = await api.post('/v1/retail/categories', { name: 'Vinywaji' });
  const product = await makeProduct(api, { category: category.body.id });
  const variant = await api.post(`/v1/retail/products/${product.id}/variants`, { name: 'Ndogo', price: 900 });
  const store = await api.post('/v1/retail/stores', { name: 'Tawi la Pili' });
  const order = await sell(api, {
    lines: [{ product: product.id, variant: variant.body.id, quantity: 1 }],
    tenders: [{ method: 'cash', amount: 5_000 }],
  });
  const endpoint = await api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['*'] });
  await api.post('/v1/webhook-events/test', { type: 'customer.created', data: { name: 'Asha' } });
  const delivery = await eventually(async () => (await api.get('/v1/webhook-deliveries')).body.data[0]);
  for (const created of [category, variant, store, order, endpoint])
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  ownerIds.push(
    category.body.id,
    product.id,
    variant.body.id,
    store.body.id,
    order.body.id,
    endpoint.body.id,
    delivery.id,
  );

  // The till side: a till, its cashier, printer, print job and shift.
  const { till, actor } = await pairedTill(server, api);
  const employee = await makeEmployee(api, [till.store]);
  const printer = await api.post('/v1/printers', { till: till.id, name: 'Kaunta', connection: 'usb' });
  const job = await api.post('/v1/print', { printer: printer.body.id, order: order.body.id });
  const shift = newId('shift');
  await inTransaction(server, (tx) =>
    server.services.shifts.open(tx, actor, {
      shift,
      cashier: employee.id,
      opening_float: 0,
      opened_at: Math.floor(Date.now() / 1000),
    }),
  );
  for (const created of [printer, job]) expect(created.status, JSON.stringify(created.body)).toBe(201);
  ownerIds.push(till.id, employee.id, printer.body.id, job.body.id, shift);

  // Hospitality: a room type, its rate and room, a blackout and a stay.
  const roomType = await api.post('/v1/hospitality/room-types', { name: 'Double', base_rate: 100_000 });
  const rate = await api.post('/v1/hospitality/rates', {
    room_type: roomType.body.id,
    starts_on: '2030-01-01',
    ends_on: '2030-01-31',
    rate: 120_000,
  });
  const room = await api.post('/v1/hospitality/rooms', { room_type: roomType.body.id, number: '101' });
  const blackout = await api.post('/v1/hospitality/blackouts', {
    room: room.body.id,
    starts_on: '2030-03-01',
    ends_on: '2030-03-02',
  });
  const stay = await api.post('/v1/hospitality/reservations', {
    room_type: roomType.body.id,
    arrival: '2030-01-10',
    departure: '2030-01-12',
    guest: { name: 'Asha' },
  });
  for (const created of [roomType, rate, room, blackout, stay])
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  ownerIds.push(roomType.body.id, rate.body.id, room.body.id, blackout.body.id, stay.body.id);

  // Events: an event, its tier and a ticket order.
  const event = await api.post('/v1/events', {
    name: 'Usiku wa Taarab',
    venue: 'Ngome Kongwe',
    starts_at: 1_900_000_000,
    ends_at: 1_900_010_000,
    capacity: 50,
  });
  const tier = await api.post(`/v1/events/${event.body.id}/tiers`, {
    name: 'Kawaida',
    price: 5_000,
    quantity: 50,
  });
  await api.patch(`/v1/events/${event.body.id}`, { status: 'published' });
  const ticketOrder = await api.post('/v1/events/orders', {
    event: event.body.id,
    lines: [{ tier: tier.body.id, quantity: 1 }],
    buyer: { name: 'Asha', phone: '0754000111' },
  });
  const promo = await api.post(`/v1/events/${event.body.id}/promos`, { code: 'MWANZO', amount_off: 500 });
  for (const created of [event, tier, ticketOrder, promo])
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  // A door's lists name their event: the stranger asks for the owner's, and must learn nothing of it.
  listQueries['/events/checkins'] = `?event=${event.body.id}`;
  listQueries['/events/double-admissions'] = `?event=${event.body.id}`;
  ownerIds.push(
    event.body.id,
    tier.body.id,
    ticketOrder.body.id,
    ticketOrder.body.tickets[0].id,
    promo.body.id,
  );
});
afterAll(() => server?.close());

describe('tenant isolation', () => {
  it('answers 404 to another merchant for every object on every route that takes an id', async () => {
    const routes = v1Routes.filter((route) => route.path.includes('{id}'));
    expect(routes.length).toBeGreaterThan(3);
    for (const route of routes) {
      const body =
        route.method === 'GET' || route.method === 'DELETE'
          ? undefined
          : (validBodies[`${route.method} ${route.path}`] ?? {});
      for (const id of ownerIds) {
        const response = await stranger.request(route.method, `/v1${route.path.replace('{id}', id)}`, body);
        expect(response.status, `${route.method} ${route.path} with ${id}`).toBe(404);
      }
    }
  });

  it('keeps other merchants’ objects out of every list', async () => {
    // The request log is left out: it holds the stranger's own requests, which name the ids tried above.
    const lists = v1Routes.filter(
      (route) => route.method === 'GET' && !route.path.includes('{') && route.path !== '/logs',
    );
    for (const route of lists) {
      const response = await stranger.get(`/v1${route.path}${listQueries[route.path] ?? ''}`);
      // A singleton the stranger has not made yet (its default store, say) is a 404 of its own.
      expect([200, 404], route.path).toContain(response.status);
      const text = JSON.stringify(response.body);
      for (const id of ownerIds) expect(text, `${route.path} leaks ${id}`).not.toContain(id);
    }
  });
});
