import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { NightAudit } from '../../apps/server/src/hospitality/night-audit.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import { throwingLogger } from '../support/logger.ts';
import type { Api } from '../support/retail.ts';
import { arrivingGuest, book, makeRoomType } from './support.ts';

const STAYS = 40;
const clock = movableClock(new Date('2028-12-30T09:00:00+03:00'));
const servers: RunningServer[] = [];
let audits: Array<() => Promise<void>>;
let api: Api;

/**
 * Two processes' night audits on one database: two servers on PostgreSQL; on
 * the embedded database (one process's), a second audit in the same server.
 */
beforeAll(async () => {
  const env = { NIGHT_AUDIT: 'false' };
  servers.push(await startTestServer(env, { clock }));
  const first = servers[0]!;
  if (process.env.TEST_DATABASE_URL) {
    servers.push(await startTestServer(env, { clock }));
    audits = servers.map((server) => () => server.services.nightAudit.runDue());
  } else {
    const second = new NightAudit(first.database, clock, 1_000, throwingLogger);
    audits = [() => first.services.nightAudit.runDue(), () => second.runDue()];
  }
  api = client(first.url, (await signUp(first.url, { business_name: 'Twin Palms' })).keys.secretTest);
});
afterAll(async () => {
  for (const server of servers) await server.close();
});

const auditTwiceFromBoth = async () => {
  await Promise.all(audits.map((audit) => audit()));
  await Promise.all(audits.map((audit) => audit()));
};

describe('the night audit in two processes', () => {
  it('posts every stay’s nights once, however the two interleave, and each folio comes to its quote', async () => {
    const { roomType, rooms } = await makeRoomType(api, {
      name: 'Twin',
      rooms: STAYS,
      first: 1,
      base_rate: 95_001,
    });
    const stays: Array<{ id: string; total: number }> = [];
    for (const [index, room] of rooms.entries()) {
      // From one to four nights, all across the year end.
      const departure = ['2028-12-31', '2029-01-01', '2029-01-02', '2029-01-03'][index % 4];
      const stay = await book(api, {
        room_type: roomType.id,
        room,
        arrival: '2028-12-30',
        departure,
        adults: 1 + (index % 2),
      });
      expect(stay.status, JSON.stringify(stay.body)).toBe(201);
      expect(
        (await api.post(`/v1/hospitality/reservations/${stay.body.id}/check_in`, arrivingGuest())).status,
      ).toBe(200);
      stays.push(stay.body);
    }
    const ids = stays.map((stay) => stay.id);
    const db = servers[0]!.database.pool;
    const postedNights = async () =>
      (
        await db.query(
          `SELECT count(*)::int AS nights, count(DISTINCT (reservation_id, night))::int AS distinct_nights
           FROM hospitality_folio_lines WHERE reservation_id = ANY($1) AND kind = 'room'`,
          [ids],
        )
      ).rows[0];

    clock.set(new Date('2028-12-30T14:00:00+03:00'));
    await auditTwiceFromBoth();
    expect(await postedNights()).toEqual({ nights: STAYS, distinct_nights: STAYS });

    // Night by night to the last departure, a guest leaving (with an override) while the audits run.
    clock.set(new Date('2028-12-31T14:00:00+03:00'));
    const leaving = stays[1]!.id;
    const [out] = await Promise.all([
      api.post(`/v1/hospitality/reservations/${leaving}/check_out`, {
        override: { reason: 'Settles by invoice' },
      }),
      ...audits.map((audit) => audit()),
    ]);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    clock.set(new Date('2029-01-01T14:00:00+03:00'));
    await auditTwiceFromBoth();
    clock.set(new Date('2029-01-03T09:00:00+03:00'));
    await auditTwiceFromBoth();

    const expected = stays.reduce((sum, _, index) => sum + 1 + (index % 4), 0);
    expect(await postedNights()).toEqual({ nights: expected, distinct_nights: expected });
    const sums = await db.query(
      `SELECT reservation_id, sum(amount)::bigint AS charged FROM hospitality_folio_lines
       WHERE reservation_id = ANY($1) GROUP BY reservation_id`,
      [ids],
    );
    const charged = new Map(sums.rows.map((row) => [row.reservation_id, Number(row.charged)]));
    for (const stay of stays) expect(charged.get(stay.id), stay.id).toBe(stay.total);

    // What each run posted adds up to the nights the audits (not the check-out) posted.
    const runs = await api.get('/v1/hospitality/night-audits?limit=100');
    expect(runs.status).toBe(200);
    const byAudit = await db.query(
      `SELECT count(*)::int AS nights FROM hospitality_folio_lines
       WHERE reservation_id = ANY($1) AND kind = 'room' AND audit_id IS NOT NULL`,
      [ids],
    );
    const listed = runs.body.data.reduce((sum: number, run: { nights: number }) => sum + run.nights, 0);
    expect(listed).toBe(byAudit.rows[0].nights);
    expect(listed).toBeGreaterThanOrEqual(expected - 1);
  });

  it('charges a day-use stay once, whole, when it begins', async () => {
    const { roomType, rooms } = await makeRoomType(api, {
      name: 'Dayroom',
      rooms: 1,
      first: 1,
      day_use_rate: 15_000,
    });
    await api.post('/v1/hospitality/availability', { room_type: roomType.id, mode: 'day_use' });
    const startsAt = Math.floor(Date.parse('2029-01-05T10:00:00+03:00') / 1000);
    const stay = await book(api, {
      room_type: roomType.id,
      room: rooms[0],
      starts_at: startsAt,
      ends_at: startsAt + 3 * 3_600,
    });
    expect(stay.status, JSON.stringify(stay.body)).toBe(201);
    clock.set(new Date('2029-01-05T09:00:00+03:00'));
    await api.post(`/v1/hospitality/reservations/${stay.body.id}/check_in`, arrivingGuest());
    await auditTwiceFromBoth();
    expect((await api.get(`/v1/hospitality/reservations/${stay.body.id}/folio`)).body.lines).toEqual([]);
    clock.set(new Date('2029-01-05T10:00:00+03:00'));
    await auditTwiceFromBoth();
    const folio = (await api.get(`/v1/hospitality/reservations/${stay.body.id}/folio`)).body;
    expect(folio.lines.map((line: { kind: string; night: string }) => [line.kind, line.night])).toEqual([
      ['room', '2029-01-05'],
      ['tourism_levy', '2029-01-05'],
      ['vat', '2029-01-05'],
    ]);
    expect(folio.balance).toBe(stay.body.total);
  });
});
