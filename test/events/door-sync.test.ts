import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PULL_DOCUMENTS, newId, type PullCollection } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { startTestServer } from '../support/server.ts';
import { anotherMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import { makeEvent, order, payOrder } from './support.ts';
import { applied, pairedDoor, refused, report, type Door } from './door-support.ts';

// The doors of the events these tests make opened an hour ago.
const clock = movableClock();
let server: RunningServer;
let api: Api;
let door: Door;

const seconds = () => Math.floor(clock.now().getTime() / 1000);

beforeAll(async () => {
  server = await startTestServer({}, { clock });
  ({ api } = await anotherMerchant(server, { business_name: 'Mlango Events' }));
  door = await pairedDoor(server, api);
});
afterAll(() => server?.close());

/** A published event starting in an hour, with its doors open now, and a paid order of `quantity` tickets. */
async function eventWithTickets(quantity = 1, fields: Record<string, unknown> = {}) {
  const made = await makeEvent(api, {
    starts_at: seconds() + 3600,
    ends_at: seconds() + 6 * 3600,
    doors_open_at: seconds() - 3600,
    ...fields,
  });
  const paid = await payOrder(
    server.url,
    api,
    await order(api, made.event.id, [{ tier: made.tiers[0]!, quantity }]),
  );
  const tickets = paid.tickets as Array<{ id: string; code: string }>;
  return { ...made, order: paid, tickets };
}

const expectDocuments = (collection: PullCollection, documents: unknown[]) => {
  for (const document of documents) {
    const parsed = PULL_DOCUMENTS[collection].safeParse(document);
    expect(parsed.success, `${collection}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  }
};

describe('the door’s feed', () => {
  it('pulls events, tiers, tickets and check-ins as documents of the protocol’s schemas', async () => {
    const { event, tiers, tickets } = await eventWithTickets(2);
    const checked = await api.post('/v1/events/checkin', {
      event: event.id,
      code: tickets[0]!.code,
      door: 'VIP',
    });
    expect(checked.body.verdict).toBe('ok');
    const key = (await api.get(`/v1/events/${event.id}/door-key`)).body.public_key;

    const events = await door.pull('ticketed_events', (docs) => docs.some((doc) => doc.id === event.id));
    expectDocuments('ticketed_events', events);
    expect(events.findLast((doc) => doc.id === event.id)).toMatchObject({
      status: 'published',
      door_key: key,
      doors_open_at: seconds() - 3600,
      _deleted: false,
    });
    const tierDocs = await door.pull('event_tiers', (docs) => docs.some((doc) => doc.id === tiers[0]));
    expectDocuments('event_tiers', tierDocs);
    expect(tierDocs.findLast((doc) => doc.id === tiers[0])).toMatchObject({ event: event.id, price: 20_000 });
    const ticketDocs = await door.pull('tickets', (docs) =>
      tickets.every((ticket) => docs.some((doc) => doc.id === ticket.id && doc.status === 'valid')),
    );
    expectDocuments('tickets', ticketDocs);
    expect(ticketDocs.findLast((doc) => doc.id === tickets[1]!.id)).toMatchObject({
      event: event.id,
      code: tickets[1]!.code,
      holder_name: 'Neema Mushi',
    });
    const checkins = await door.pull('checkins', (docs) => docs.some((doc) => doc.ticket === tickets[0]!.id));
    expectDocuments('checkins', checkins);
    expect(checkins.find((doc) => doc.ticket === tickets[0]!.id)).toMatchObject({ door: 'VIP', scan: null });
  });

  it('pulls an event’s thousands of tickets in pages of at most a thousand, each once', async () => {
    const { event, tiers } = await makeEvent(api, {
      capacity: 2_500,
      tiers: [{ name: 'Uwanjani', price: 5_000, quantity: 2_500, per_order_limit: 100 }],
      starts_at: seconds() + 3600,
      ends_at: seconds() + 7200,
    });
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        const held = await order(api, event.id, [{ tier: tiers[0]!, quantity: 100 }]);
        expect(held.status, JSON.stringify(held.body)).toBe(201);
      }),
    );
    const pages: number[] = [];
    const ids = new Set<string>();
    let checkpoint = null;
    for (;;) {
      const page = await door.page('tickets', checkpoint);
      if (page.documents.length === 0) {
        if (ids.size >= 2_500) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      pages.push(page.documents.length);
      for (const document of page.documents as Array<{ id: string; event: string }>)
        if (document.event === event.id) ids.add(document.id);
      checkpoint = page.checkpoint;
    }
    expect(ids.size).toBe(2_500);
    expect(Math.max(...pages)).toBe(1_000);
  });

  it('holds an event’s doors open six hours before its start when it names no time', async () => {
    const startsAt = seconds() + 3 * 3600;
    const { event } = await makeEvent(api, { starts_at: startsAt, ends_at: startsAt + 3600 });
    const events = await door.pull('ticketed_events', (docs) => docs.some((doc) => doc.id === event.id));
    expect(events.findLast((doc) => doc.id === event.id)!.doors_open_at).toBe(startsAt - 6 * 3600);
  });

  it('sends events published, canceled or ended, until a day after they end, and never drafts', async () => {
    const draft = await makeEvent(api, {
      publish: false,
      starts_at: seconds() + 3600,
      ends_at: seconds() + 7200,
    });
    const soon = await makeEvent(api, { starts_at: seconds() + 3600, ends_at: seconds() + 7200 });
    const later = await makeEvent(api, {
      starts_at: seconds() + 3 * 86_400,
      ends_at: seconds() + 3.1 * 86_400,
    });
    const canceled = await makeEvent(api, { starts_at: seconds() + 3600, ends_at: seconds() + 7200 });
    expect((await api.patch(`/v1/events/${canceled.event.id}`, { status: 'canceled' })).status).toBe(200);
    const seen = await door.pull('ticketed_events', (docs) =>
      [soon, later, canceled].every((made) => docs.some((doc) => doc.id === made.event.id)),
    );
    expect(seen.some((doc) => doc.id === draft.event.id)).toBe(false);
    expect(seen.findLast((doc) => doc.id === canceled.event.id)!.status).toBe('canceled');

    // Two days on, a door paired now gets the later event only; the ones long over never go down.
    clock.advance(2 * 86_400_000);
    try {
      const fresh = await pairedDoor(server, api, 'Lango la Kusini');
      const now = await fresh.pull('ticketed_events', (docs) =>
        docs.some((doc) => doc.id === later.event.id),
      );
      expect(now.map((doc) => doc.id)).not.toContain(soon.event.id);
      expect(now.map((doc) => doc.id)).not.toContain(canceled.event.id);
      const tierIds = (
        await fresh.pull('event_tiers', (docs) => docs.some((doc) => doc.id === later.tiers[0]))
      ).map((doc) => doc.id);
      expect(tierIds).not.toContain(soon.tiers[0]);
    } finally {
      clock.advance(-2 * 86_400_000);
    }
  });

  it('answers nothing of events while the events app is removed, and what it held back once the app is back', async () => {
    const other = await anotherMerchant(server, { business_name: 'Tamasha' });
    const gated = await pairedDoor(server, other.api, 'Geti');
    const before = await makeEvent(other.api, { starts_at: seconds() + 3600, ends_at: seconds() + 7200 });
    const from = { checkpoint: null };
    await gated.pull('ticketed_events', (docs) => docs.some((doc) => doc.id === before.event.id), from);
    const unseen = await makeEvent(other.api, { starts_at: seconds() + 3600, ends_at: seconds() + 7200 });
    expect((await other.api.delete('/v1/apps/events')).status).toBe(200);
    let restored = false;
    try {
      expect((await gated.page('ticketed_events', null)).documents).toEqual([]);
      expect((await gated.page('ticketed_events', from.checkpoint)).documents).toEqual([]);
      // The check-in report is refused too.
      const [result] = await gated.push(
        report({
          scan: newId('scan'),
          event: before.event.id,
          ticket: newId('ticket'),
          code: 'x',
          door: 'Geti',
          at: seconds(),
        }),
      );
      expect(refused(result).code).toBe('app_not_installed');
      await expect(
        gated.ask({ scan: newId('scan'), event: before.event.id, code: 'x', door: 'Geti' }),
      ).rejects.toMatchObject({
        data: { code: 'app_not_installed' },
      });
      // Made before the removal and never pulled: the till gets it once the app is back.
      expect((await other.api.post('/v1/apps/events')).status).toBe(200);
      restored = true;
      await gated.pull('ticketed_events', (docs) => docs.some((doc) => doc.id === unseen.event.id), from);
    } finally {
      if (!restored) await other.api.post('/v1/apps/events');
    }
  });
});

describe('a door’s reports', () => {
  it('records an offline admission once, and the same scan pushed again is a repeat', async () => {
    const { event, tickets } = await eventWithTickets(1);
    const scan = newId('scan');
    const payload = {
      scan,
      event: event.id,
      ticket: tickets[0]!.id,
      code: tickets[0]!.code,
      door: door.name,
      at: seconds() - 30,
    };
    const [first] = await door.push(report(payload));
    const result = applied(first);
    expect(result).toMatchObject({ scan, ticket: tickets[0]!.id, double_admission: null, verdict: 'ok' });
    const [again] = await door.push(report(payload));
    expect(applied(again)).toEqual(result);
    const ticket = (await api.get(`/v1/events/tickets/${tickets[0]!.id}`)).body;
    expect(ticket.checked_in).toEqual({ at: payload.at, door: door.name });
    const rows = await server.database.pool.query(
      `SELECT count(*)::int AS n FROM event_checkins WHERE ticket_id = $1`,
      [tickets[0]!.id],
    );
    expect(rows.rows[0].n).toBe(1);
    // Online now, the server answers that it was admitted, at this door.
    const asked = await api.post('/v1/events/checkin', { event: event.id, code: tickets[0]!.code });
    expect(asked.body).toMatchObject({
      verdict: 'already_redeemed',
      checked_in: { door: door.name, at: payload.at },
    });
    const pulled = await door.pull('checkins', (docs) => docs.some((doc) => doc.scan === scan));
    expect(pulled.find((doc) => doc.scan === scan)).toMatchObject({ ticket: tickets[0]!.id, at: payload.at });
  });

  it('asked online, admits under the scan: the same question again is the same admission, and its report a repeat', async () => {
    const { event, tickets } = await eventWithTickets(1);
    const scan = newId('scan');
    const question = { scan, event: event.id, code: tickets[0]!.code, door: door.name };
    const answer = await door.ask(question);
    expect(answer).toMatchObject({
      object: 'checkin',
      verdict: 'ok',
      ticket: tickets[0]!.id,
      checked_in: { door: door.name },
    });
    expect(await door.ask(question)).toEqual(answer);
    // The same answer a REST check-in gives: its verdict object.
    const rest = await api.post('/v1/events/checkin', {
      event: event.id,
      code: tickets[0]!.code,
      door: 'api',
    });
    expect(Object.keys(rest.body).sort()).toEqual(Object.keys(answer).sort());
    expect(rest.body.verdict).toBe('already_redeemed');

    const [late] = await door.push(
      report({
        scan,
        event: event.id,
        ticket: tickets[0]!.id,
        code: tickets[0]!.code,
        door: door.name,
        at: seconds(),
      }),
    );
    expect(applied(late)).toMatchObject({ scan, double_admission: null, verdict: 'ok' });
    const doubles = await server.database.pool.query(
      `SELECT count(*)::int AS n FROM event_double_admissions WHERE ticket_id = $1`,
      [tickets[0]!.id],
    );
    expect(doubles.rows[0].n).toBe(0);
  });

  it('records two doors’ offline admissions of one ticket as one check-in and one double admission', async () => {
    const { event, tickets } = await eventWithTickets(1);
    const south = await pairedDoor(server, api, 'Lango la Kusini');
    const base = { event: event.id, ticket: tickets[0]!.id, code: tickets[0]!.code };
    const northScan = newId('scan');
    const southScan = newId('scan');
    const [north] = await door.push(
      report({ ...base, scan: northScan, door: door.name, at: seconds() - 120 }),
    );
    expect(applied(north)).toMatchObject({ double_admission: null, verdict: 'ok' });
    const [southResult] = await south.push(
      report({ ...base, scan: southScan, door: south.name, at: seconds() - 60 }),
    );
    const double = applied(southResult);
    expect(double).toMatchObject({
      scan: southScan,
      checkin: applied(north).checkin,
      verdict: 'already_redeemed',
    });
    expect(double.double_admission).toMatch(/^dadm_/);
    const [repeat] = await south.push(
      report({ ...base, scan: southScan, door: south.name, at: seconds() - 60 }),
    );
    expect(applied(repeat)).toEqual(double);

    const counts = await server.database.pool.query(
      `SELECT (SELECT count(*)::int FROM event_checkins WHERE ticket_id = $1) AS checkins,
              (SELECT count(*)::int FROM event_double_admissions WHERE ticket_id = $1) AS doubles,
              (SELECT count(*)::int FROM events WHERE type = 'ticket.double_admitted' AND data->'object'->>'ticket' = $1) AS events`,
      [tickets[0]!.id],
    );
    expect(counts.rows[0]).toEqual({ checkins: 1, doubles: 1, events: 1 });
    // Both doors pull it.
    for (const each of [door, south]) {
      const docs = await each.pull('double_admissions', (pulled) =>
        pulled.some((doc) => doc.id === double.double_admission),
      );
      expectDocuments('double_admissions', docs);
      expect(docs.find((doc) => doc.id === double.double_admission)).toMatchObject({
        ticket: tickets[0]!.id,
        holder_name: 'Neema Mushi',
        first: { checkin: applied(north).checkin, door: door.name, at: seconds() - 120 },
        door: south.name,
        at: seconds() - 60,
        scan: southScan,
      });
    }

    // The organiser sees it in the API: the check-in list, the double admissions and the order.
    const list = await api.get(`/v1/events/checkins?event=${event.id}`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        object: 'checkin_record',
        ticket: tickets[0]!.id,
        door: door.name,
        at: seconds() - 120,
        scan: northScan,
        double_admissions: [
          expect.objectContaining({ id: double.double_admission, door: south.name, at: seconds() - 60 }),
        ],
      }),
    ]);
    const byDoor = await api.get(
      `/v1/events/checkins?event=${event.id}&door=${encodeURIComponent(south.name)}`,
    );
    expect(byDoor.body.data).toEqual([]);
    const doubles = await api.get(`/v1/events/double-admissions?event=${event.id}`);
    expect(doubles.body.data).toEqual([
      expect.objectContaining({
        object: 'double_admission',
        ticket: tickets[0]!.id,
        holder: 'Neema Mushi',
        first: { checkin: applied(north).checkin, door: door.name, at: seconds() - 120 },
        door: south.name,
        at: seconds() - 60,
      }),
    ]);
    const orders = await api.get(`/v1/events/orders?event=${event.id}`);
    expect(orders.body.data[0].tickets[0].checked_in).toEqual({ door: door.name, at: seconds() - 120 });
    expect(orders.body.data[0].double_admissions).toEqual(doubles.body.data);
    const missing = await api.get('/v1/events/double-admissions');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      error: 'invalid_request_error',
      details: { event: expect.any(String) },
    });
  });

  it('records an admission of a refunded ticket, saying what the server’s verdict was', async () => {
    const { event, order: paid, tickets } = await eventWithTickets(1);
    expect((await api.post(`/v1/events/orders/${paid.id}/refund`)).status).toBe(200);
    const [result] = await door.push(
      report({
        scan: newId('scan'),
        event: event.id,
        ticket: tickets[0]!.id,
        code: tickets[0]!.code,
        door: door.name,
        at: seconds(),
      }),
    );
    expect(applied(result)).toMatchObject({
      ticket: tickets[0]!.id,
      double_admission: null,
      verdict: 'canceled',
    });
  });

  it('refuses a report whose code is forged, another event’s or another ticket’s, with the error object', async () => {
    const { event, tickets } = await eventWithTickets(2);
    const other = await eventWithTickets(1);
    const code = tickets[0]!.code;
    const forged = code.slice(0, 60) + (code[60] === 'A' ? 'B' : 'A') + code.slice(61);
    const base = { event: event.id, ticket: tickets[0]!.id, door: door.name, at: seconds() };
    const results = await door.push(
      report({ ...base, scan: newId('scan'), code: forged }),
      report({ ...base, scan: newId('scan'), code: other.tickets[0]!.code }),
      report({ ...base, scan: newId('scan'), code: tickets[1]!.code }),
      report({ ...base, scan: 'scn_not-an-id', code }),
      report({ ...base, event: newId('ticketedEvent'), scan: newId('scan'), code }),
    );
    expect(results.map((result) => refused(result).code)).toEqual([
      'parameter_invalid',
      'parameter_invalid',
      'parameter_invalid',
      'parameter_invalid',
      'resource_missing',
    ]);
    expect(refused(results[0]).details).toHaveProperty('code');
    expect(refused(results[2]).details).toHaveProperty('ticket');
    expect(refused(results[3]).details).toHaveProperty('scan');
    const checkins = await server.database.pool.query(
      `SELECT count(*)::int AS n FROM event_checkins WHERE event_id = $1`,
      [event.id],
    );
    expect(checkins.rows[0].n).toBe(0);
    await expect(door.ask({ scan: 'nope', event: event.id, code, door: door.name })).rejects.toMatchObject({
      data: { code: 'parameter_invalid', httpStatus: 400 },
    });
    // A bad code asked online is a verdict, not an error: the door goes on scanning.
    expect(
      (await door.ask({ scan: newId('scan'), event: event.id, code: forged, door: door.name })).verdict,
    ).toBe('invalid');
  });
});
