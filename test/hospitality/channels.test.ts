import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { client, eventually, signUp, startTestServer } from '../support/server.ts';
import type { Api } from '../support/retail.ts';
import { isolatedDatabase } from '../webhooks/support.ts';
import { book, makeRoomType } from './support.ts';

// 09:00 in Dar es Salaam; every stay below is ahead of it.
const clock = movableClock(new Date('2027-03-01T06:00:00Z'));
let server: RunningServer;
let api: Api;
let dropDatabase: () => Promise<void>;
let feedServer: http.Server;
let feedBase: string;
/** What each feed path answers; changed by the tests between fetches. */
const feeds = new Map<string, { status: number; body: string }>();

const calendar = (...events: Array<{ uid: string; start: string; end: string; summary?: string }>) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Channel//Test//EN',
    ...events.flatMap((event) => [
      'BEGIN:VEVENT',
      `UID:${event.uid}`,
      'DTSTAMP:20270301T000000Z',
      `DTSTART;VALUE=DATE:${event.start.replaceAll('-', '')}`,
      `DTEND;VALUE=DATE:${event.end.replaceAll('-', '')}`,
      `SUMMARY:${event.summary ?? 'CLOSED - Not available'}`,
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

beforeAll(async () => {
  // A database of its own: other files' servers refuse loopback feeds and run other clocks.
  const database = await isolatedDatabase();
  dropDatabase = () => database.drop();
  server = await startTestServer({ ...database.env, CHANNEL_ALLOW_PRIVATE_URLS: 'true' }, { clock });
  const merchant = await signUp(server.url, { business_name: 'Arusha Lodge' });
  api = client(server.url, merchant.keys.secretTest);
  feedServer = http.createServer((req, res) => {
    const answer = feeds.get(req.url ?? '') ?? { status: 404, body: 'not found' };
    res.writeHead(answer.status, { 'content-type': 'text/calendar' });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  feedBase = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server?.close();
  feedServer?.closeAllConnections();
  await new Promise((resolve) => feedServer?.close(resolve));
  await dropDatabase?.();
});

const feedOf = async (id: string) => {
  const listed = await api.get('/v1/hospitality/channels/feeds?limit=100');
  return listed.body.data.find((feed: { id: string }) => feed.id === id);
};

/** The next fetch of a feed: its interval passes on the clock, then whichever pass claims it fetches it. */
async function refetch(feedId: string) {
  clock.advance(901_000);
  const due = Math.floor(clock.now().getTime() / 1000);
  return eventually(
    async () => {
      await server.services.channelImports.importDue();
      const feed = await feedOf(feedId);
      return feed.last_fetched >= due && feed;
    },
    10_000,
    'the feed’s next fetch',
  );
}

async function addFeed(roomType: string, path: string, name = 'Booking.com') {
  const created = await api.post('/v1/hospitality/channels/feeds', {
    room_type: roomType,
    url: `${feedBase}${path}`,
    name,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  // Fetched at once: adding the feed wakes the import.
  await eventually(
    async () => (await feedOf(created.body.id)).last_fetched !== null,
    10_000,
    'the first fetch',
  );
  return created.body.id as string;
}

const channelsOf = async (roomType: string) => {
  const found = await api.get('/v1/hospitality/channels');
  expect(found.status).toBe(200);
  return found.body.data.find((entry: { room_type: { id: string } }) => entry.room_type.id === roomType);
};

const reservationsOf = async (roomType: string) =>
  (await api.get(`/v1/hospitality/reservations?room_type=${roomType}&limit=100`)).body.data as Array<{
    id: string;
    status: string;
    source: string;
    arrival: string;
    departure: string;
  }>;

const freeRooms = async (roomType: string, arrival: string, departure: string) =>
  (
    await api.get(
      `/v1/hospitality/availability?arrival=${arrival}&departure=${departure}&room_type=${roomType}`,
    )
  ).body.data[0].free_rooms as number;

describe('the iCal export', () => {
  it('shows a booking the moment it commits, without the guest, and a rotated or revoked URL is gone', async () => {
    const { roomType } = await makeRoomType(api, { name: 'Kilimanjaro', rooms: 2, first: 301 });
    const created = await api.post('/v1/hospitality/channels/exports', { room_type: roomType.id });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const url: string = created.body.url;
    expect(url).toMatch(new RegExp(`^${server.url}/ical/[A-Za-z0-9_-]{43}\\.ics$`));
    expect(created.body.url_hint).toBe(`…${url.slice(-8, -4)}.ics`);

    const empty = await fetch(url);
    expect(empty.status).toBe(200);
    expect(empty.headers.get('content-type')).toContain('text/calendar');
    const parsedEmpty = new ICAL.Component(ICAL.parse(await empty.text()));
    expect(parsedEmpty.name).toBe('vcalendar');
    expect(parsedEmpty.getFirstPropertyValue('prodid')).toBeTruthy();
    expect(parsedEmpty.getAllSubcomponents('vevent')).toHaveLength(0);

    const booked = await book(api, {
      room_type: roomType.id,
      arrival: '2027-04-02',
      departure: '2027-04-05',
      guest: { name: 'Neema Mushi', phone: '255754000111' },
    });
    expect(booked.status).toBe(201);
    const blackout = await api.post('/v1/hospitality/blackouts', {
      room_type: roomType.id,
      starts_on: '2027-05-01',
      ends_on: '2027-05-02',
      reason: 'Painting',
    });
    expect(blackout.status).toBe(201);

    const text = await (await fetch(url)).text();
    expect(text).not.toContain('Neema');
    expect(text).not.toContain('255754000111');
    expect(text).toContain('\r\n');
    const events = new ICAL.Component(ICAL.parse(text))
      .getAllSubcomponents('vevent')
      .map((component) => new ICAL.Event(component));
    expect(
      events.map((event) => [
        event.summary,
        event.startDate.isDate,
        event.startDate.toString(),
        event.endDate.toString(),
      ]),
    ).toEqual([
      ['Booked', true, '2027-04-02', '2027-04-05'],
      ['Closed', true, '2027-05-01', '2027-05-03'],
    ]);
    expect(events[0]!.uid).toContain(booked.body.id);
    expect(events.every((event) => event.component.getFirstPropertyValue('dtstamp'))).toBe(true);

    // A canceled booking leaves the calendar at once.
    await api.post(`/v1/hospitality/reservations/${booked.body.id}/cancel`);
    const afterCancel = new ICAL.Component(ICAL.parse(await (await fetch(url)).text()));
    expect(afterCancel.getAllSubcomponents('vevent')).toHaveLength(1);

    expect((await channelsOf(roomType.id)).export).toMatchObject({
      status: 'active',
      url_hint: `…${url.slice(-8, -4)}.ics`,
    });
    const rotated = await api.post('/v1/hospitality/channels/exports', { room_type: roomType.id });
    expect(rotated.body.url).not.toBe(url);
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(rotated.body.url)).status).toBe(200);

    expect((await api.delete(`/v1/hospitality/channels/exports/${roomType.id}`)).status).toBe(200);
    expect((await fetch(rotated.body.url)).status).toBe(404);
    expect((await channelsOf(roomType.id)).export.status).toBe('none');
    expect((await fetch(`${server.url}/ical/not-a-token.ics`)).status).toBe(404);
  });
});

describe('importing a feed', () => {
  it('blocks its dates; an empty feed and a missing event are reported, nothing is canceled', async () => {
    const { roomType } = await makeRoomType(api, { name: 'Serengeti', rooms: 1, first: 401 });
    feeds.set('/serengeti.ics', {
      status: 200,
      body: calendar(
        { uid: 'bdc-1@booking.com', start: '2027-03-10', end: '2027-03-13' },
        { uid: 'bdc-2@booking.com', start: '2027-03-20', end: '2027-03-22' },
      ),
    });
    const feedId = await addFeed(roomType.id, '/serengeti.ics');
    expect(await feedOf(feedId)).toMatchObject({ last_status: 'ok', last_event_count: 2, last_error: null });

    const imported = await reservationsOf(roomType.id);
    expect(imported.map((r) => [r.source, r.status, r.arrival, r.departure]).sort()).toEqual([
      ['channel', 'confirmed', '2027-03-10', '2027-03-13'],
      ['channel', 'confirmed', '2027-03-20', '2027-03-22'],
    ]);
    expect(await freeRooms(roomType.id, '2027-03-11', '2027-03-12')).toBe(0);
    const refused = await book(api, {
      room_type: roomType.id,
      arrival: '2027-03-11',
      departure: '2027-03-12',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('room_unavailable');

    // The channel's outage looks like an empty calendar: it changes nothing.
    feeds.set('/serengeti.ics', { status: 200, body: calendar() });
    expect(await refetch(feedId)).toMatchObject({ last_status: 'empty', last_event_count: 0 });
    expect((await feedOf(feedId)).last_error).toContain('nothing was changed');
    expect((await reservationsOf(roomType.id)).map((r) => r.status)).toEqual(['confirmed', 'confirmed']);
    expect((await channelsOf(roomType.id)).conflicts).toEqual([]);

    // The first event disappears: reported, its reservation kept.
    feeds.set('/serengeti.ics', {
      status: 200,
      body: calendar({ uid: 'bdc-2@booking.com', start: '2027-03-20', end: '2027-03-22' }),
    });
    expect(await refetch(feedId)).toMatchObject({ last_status: 'ok', last_event_count: 1 });
    const first = imported.find((r) => r.arrival === '2027-03-10')!;
    const second = imported.find((r) => r.arrival === '2027-03-20')!;
    const [missing] = (await channelsOf(roomType.id)).conflicts;
    expect(missing).toMatchObject({
      kind: 'missing',
      reservation: first.id,
      uid: 'bdc-1@booking.com',
      arrival: '2027-03-10',
      departure: '2027-03-13',
      resolution: null,
    });
    expect((await api.get(`/v1/hospitality/reservations/${first.id}`)).body.status).toBe('confirmed');

    // Fetched again, still missing: one conflict, not one per fetch.
    await refetch(feedId);
    expect((await channelsOf(roomType.id)).conflicts).toHaveLength(1);

    const wrong = await api.post(`/v1/hospitality/channels/conflicts/${missing.id}/resolve`, {
      action: 'dismiss',
    });
    expect(wrong.status).toBe(400);
    const kept = await api.post(`/v1/hospitality/channels/conflicts/${missing.id}/resolve`, {
      action: 'keep',
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body).toMatchObject({ resolution: 'keep' });
    expect((await api.get(`/v1/hospitality/reservations/${first.id}`)).body.status).toBe('confirmed');
    expect((await channelsOf(roomType.id)).conflicts).toEqual([]);

    // The second moves to other dates: reported, not moved; then a person cancels it.
    feeds.set('/serengeti.ics', {
      status: 200,
      body: calendar({ uid: 'bdc-2@booking.com', start: '2027-03-24', end: '2027-03-26' }),
    });
    await refetch(feedId);
    const [changed] = (await channelsOf(roomType.id)).conflicts;
    expect(changed).toMatchObject({ kind: 'changed', reservation: second.id, arrival: '2027-03-24' });
    expect((await api.get(`/v1/hospitality/reservations/${second.id}`)).body.arrival).toBe('2027-03-20');
    const canceled = await api.post(`/v1/hospitality/channels/conflicts/${changed.id}/resolve`, {
      action: 'cancel_reservation',
    });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect((await api.get(`/v1/hospitality/reservations/${second.id}`)).body.status).toBe('canceled');
    expect(await freeRooms(roomType.id, '2027-03-20', '2027-03-22')).toBe(1);
  });

  it('reports an event that collides with a booking, and never puts two stays in one room-night', async () => {
    const { roomType } = await makeRoomType(api, { name: 'Ngorongoro', rooms: 1, first: 501 });
    const direct = await book(api, {
      room_type: roomType.id,
      arrival: '2027-03-15',
      departure: '2027-03-17',
    });
    expect(direct.status).toBe(201);
    feeds.set('/ngorongoro.ics', {
      status: 200,
      body: calendar({ uid: 'airbnb-77', start: '2027-03-16', end: '2027-03-18', summary: 'Reserved' }),
    });
    const feedId = await addFeed(roomType.id, '/ngorongoro.ics', 'Airbnb');
    expect(await feedOf(feedId)).toMatchObject({ last_status: 'ok' });
    const [collision] = (await channelsOf(roomType.id)).conflicts;
    expect(collision).toMatchObject({ kind: 'collision', uid: 'airbnb-77', reservation: null, feed: feedId });
    const held = await server.database.pool.query(
      `SELECT count(*)::int AS n FROM hospitality_reservations
       WHERE room_type_id = $1 AND status IN ('pending', 'confirmed', 'checked_in')`,
      [roomType.id],
    );
    expect(held.rows[0].n).toBe(1);

    // Fetched again: the same conflict, still no second stay.
    await refetch(feedId);
    expect((await channelsOf(roomType.id)).conflicts.map((c: { id: string }) => c.id)).toEqual([
      collision.id,
    ]);
    expect((await reservationsOf(roomType.id)).filter((r) => r.source === 'channel')).toEqual([]);

    const dismissed = await api.post(`/v1/hospitality/channels/conflicts/${collision.id}/resolve`, {
      action: 'dismiss',
    });
    expect(dismissed.body).toMatchObject({ resolution: 'dismiss' });
    const again = await api.post(`/v1/hospitality/channels/conflicts/${collision.id}/resolve`, {
      action: 'dismiss',
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('state_transition_invalid');
  });

  it('records a failing feed’s status and changes nothing', async () => {
    const { roomType } = await makeRoomType(api, { name: 'Mikumi', rooms: 1, first: 601 });
    feeds.set('/mikumi.ics', {
      status: 200,
      body: calendar({ uid: 'x-1', start: '2027-03-08', end: '2027-03-09' }),
    });
    const feedId = await addFeed(roomType.id, '/mikumi.ics');
    const before = await reservationsOf(roomType.id);
    expect(before).toHaveLength(1);

    feeds.set('/mikumi.ics', { status: 503, body: 'busy' });
    expect(await refetch(feedId)).toMatchObject({ last_status: 'failed', last_error: 'HTTP 503' });
    feeds.set('/mikumi.ics', { status: 200, body: '<html><body>Sign in</body></html>' });
    const unreadable = await refetch(feedId);
    expect(unreadable.last_status).toBe('failed');
    expect(unreadable.last_error).toContain('not an iCalendar file');
    expect(await reservationsOf(roomType.id)).toEqual(before);
    expect((await channelsOf(roomType.id)).conflicts).toEqual([]);

    // Deleted, it is fetched no more; its reservation stays.
    expect((await api.delete(`/v1/hospitality/channels/feeds/${feedId}`)).status).toBe(200);
    expect((await channelsOf(roomType.id)).feeds).toEqual([]);
    expect(await reservationsOf(roomType.id)).toEqual(before);
  });
});

describe('feed URLs', () => {
  it('are refused on a private, loopback or metadata address', async () => {
    const strict = await startTestServer();
    try {
      const merchant = await signUp(strict.url);
      const test = client(strict.url, merchant.keys.secretTest);
      const { roomType } = await makeRoomType(test, { name: 'Strict', rooms: 1 });
      const local = await test.post('/v1/hospitality/channels/feeds', {
        room_type: roomType.id,
        url: `${feedBase}/x.ics`,
        name: 'Local',
      });
      expect(local.status).toBe(400);
      expect(local.body.code).toBe('url_not_allowed');
      expect(local.body.message).toContain('Feed URLs');
      for (const url of ['http://169.254.169.254/latest', 'http://10.0.0.5/cal.ics', 'ftp://example.com/x'])
        expect(
          (await test.post('/v1/hospitality/channels/feeds', { room_type: roomType.id, url, name: 'X' }))
            .status,
        ).toBe(400);
    } finally {
      await strict.close();
    }
  });
});
