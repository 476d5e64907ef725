import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { withMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import { book, makeRoomType } from './support.ts';

const clock = movableClock(new Date('2027-12-01T06:00:00Z'));
let server: RunningServer;
let api: Api;

beforeAll(async () => {
  ({ server, api } = await withMerchant({ business_name: 'Mwanza Guest House', clock }));
});
afterAll(() => server?.close());

const registration = (name: string, nationality: string) => ({
  name,
  nationality,
  id_type: 'passport',
  id_number: `P${name.length}2345`,
  id_country: nationality,
  arriving_from: 'Dar es Salaam',
  going_to: 'Arusha',
});
const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const eventTypes = async (id: string) => {
  const found = await server.database.pool.query(
    `SELECT type FROM events WHERE data->'object'->>'id' = $1 ORDER BY seq`,
    [id],
  );
  return found.rows.map((row) => row.type);
};

describe('availability and quotes', () => {
  it('lists each type’s free rooms and its quote over a year boundary, with the rule that prices each night', async () => {
    const { roomType } = await makeRoomType(api, { name: 'Garden', base_rate: 80_000, rooms: 2, first: 11 });
    await api.post('/v1/hospitality/rates', {
      room_type: roomType.id,
      starts_on: '2027-12-24',
      ends_on: '2028-01-01',
      rate: 120_000,
    });
    const found = await api.get(
      `/v1/hospitality/availability?arrival=2027-12-31&departure=2028-01-03&adults=2&room_type=${roomType.id}`,
    );
    expect(found.status).toBe(200);
    const [line] = found.body.data;
    expect(line.free_rooms).toBe(2);
    expect(
      line.quote.night_lines.map((night: { date: string; rate: number }) => [night.date, night.rate]),
    ).toEqual([
      ['2027-12-31', 120_000],
      ['2028-01-01', 120_000],
      ['2028-01-02', 80_000],
    ]);
    expect(line.quote.room_charge).toBe(320_000);
    expect(line.quote.levies).toEqual([{ kind: 'tourism_levy', basis: 320_000, rate: 100, amount: 3_200 }]);
    expect(line.quote.vat).toEqual({ rate: 1_800, amount: 57_600 });
    expect(line.quote.total).toBe(380_800);
  });

  it('says why a type cannot take a party, and refuses a stay with no dates', async () => {
    const { roomType } = await makeRoomType(api, { name: 'Single', rooms: 1, first: 21, max_adults: 1 });
    const found = await api.get(
      `/v1/hospitality/availability?arrival=2028-02-01&departure=2028-02-02&adults=2&room_type=${roomType.id}`,
    );
    expect(found.body.data[0]).toMatchObject({ free_rooms: 0, quote: null });
    expect(found.body.data[0].unavailable_reason).toContain('at most 1 adults');
    const none = await api.get('/v1/hospitality/availability?adults=2');
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('parameter_missing');
  });
});

describe('booking', () => {
  it('books the last room once: a second booking of the same night is refused with 409', async () => {
    const { roomType } = await makeRoomType(api, { name: 'Lake', rooms: 1, first: 31 });
    const first = await book(api, { room_type: roomType.id, arrival: '2028-02-28', departure: '2028-03-02' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      object: 'reservation',
      status: 'confirmed',
      room: null,
      mode: 'nightly',
      arrival: '2028-02-28',
      departure: '2028-03-02',
      starts_at: unix('2028-02-28T14:00:00+03:00'),
      ends_at: unix('2028-03-02T10:00:00+03:00'),
      source: 'api',
    });
    expect(first.body.quote.nights).toBe(3); // over the leap day
    const second = await book(api, {
      room_type: roomType.id,
      arrival: '2028-03-01',
      departure: '2028-03-03',
    });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ error: 'invalid_request_error', code: 'room_unavailable' });
    // The day the first guest leaves, the next may arrive: 10:00 out, 14:00 in.
    const turnover = await book(api, {
      room_type: roomType.id,
      arrival: '2028-03-02',
      departure: '2028-03-04',
    });
    expect(turnover.status).toBe(201);
    expect(await eventTypes(first.body.id)).toEqual(['reservation.created']);
  });

  it('counts the busiest moment of a stay, not every stay that touches it', async () => {
    const { roomType } = await makeRoomType(api, { name: 'Sweep', rooms: 2, first: 35 });
    // Two stays one after the other, each holding one of the two rooms.
    expect(
      (await book(api, { room_type: roomType.id, arrival: '2028-03-10', departure: '2028-03-12' })).status,
    ).toBe(201);
    expect(
      (await book(api, { room_type: roomType.id, arrival: '2028-03-12', departure: '2028-03-14' })).status,
    ).toBe(201);
    // A stay over both touches two stays, yet at no moment are both rooms held: one is free throughout.
    const long = await book(api, { room_type: roomType.id, arrival: '2028-03-10', departure: '2028-03-14' });
    expect(long.status).toBe(201);
    // Now both rooms are held on every night of the range.
    expect(
      (await book(api, { room_type: roomType.id, arrival: '2028-03-11', departure: '2028-03-12' })).status,
    ).toBe(409);
    expect(
      (await book(api, { room_type: roomType.id, arrival: '2028-03-13', departure: '2028-03-14' })).status,
    ).toBe(409);
  });

  it('holds a named room by the database: two stays of one room never overlap, but other rooms stay free', async () => {
    const { roomType, rooms } = await makeRoomType(api, { name: 'Hill', rooms: 2, first: 41 });
    const first = await book(api, {
      room_type: roomType.id,
      room: rooms[0],
      arrival: '2028-04-01',
      departure: '2028-04-05',
    });
    expect(first.body.room).toBe(rooms[0]);
    const sameRoom = await book(api, {
      room_type: roomType.id,
      room: rooms[0],
      arrival: '2028-04-04',
      departure: '2028-04-06',
    });
    expect(sameRoom.status).toBe(409);
    expect(sameRoom.body.code).toBe('room_unavailable');
    const otherRoom = await book(api, {
      room_type: roomType.id,
      room: rooms[1],
      arrival: '2028-04-04',
      departure: '2028-04-06',
    });
    expect(otherRoom.status).toBe(201);
    // Both rooms are now held on the night of the 4th: the type is full there.
    const full = await book(api, { room_type: roomType.id, arrival: '2028-04-04', departure: '2028-04-05' });
    expect(full.status).toBe(409);
    // The constraint itself refuses a row that skips the service's checks.
    const direct = server.database.pool.query(
      `INSERT INTO hospitality_reservations (id, merchant_id, livemode, room_type_id, room_id, status, mode, arrival, departure,
         starts_at, ends_at, adults, children, guest_name, source, quote, total)
       SELECT 'resv_direct', merchant_id, livemode, room_type_id, room_id, 'confirmed', mode, arrival, departure,
         starts_at, ends_at, 1, 0, 'X', 'api', quote, total FROM hospitality_reservations WHERE id = $1`,
      [first.body.id],
    );
    await expect(direct).rejects.toMatchObject({ code: '23P01' });
  });

  it('moves a stay to a free room of its type, and refuses a taken one', async () => {
    const { roomType, rooms } = await makeRoomType(api, { name: 'Moves', rooms: 2, first: 51 });
    const a = await book(api, {
      room_type: roomType.id,
      room: rooms[0],
      arrival: '2028-05-01',
      departure: '2028-05-03',
    });
    const b = await book(api, { room_type: roomType.id, arrival: '2028-05-02', departure: '2028-05-04' });
    const taken = await api.post(`/v1/hospitality/reservations/${b.body.id}/assign`, { room: rooms[0] });
    expect(taken.status).toBe(409);
    const moved = await api.post(`/v1/hospitality/reservations/${b.body.id}/assign`, { room: rooms[1] });
    expect(moved.body.room).toBe(rooms[1]);
    const swap = await api.post(`/v1/hospitality/reservations/${a.body.id}/assign`, { room: rooms[0] });
    expect(swap.status).toBe(200);
  });

  it('books day use in whole blocks beside nightly stays of other types', async () => {
    const { roomType } = await makeRoomType(api, {
      name: 'Dayroom',
      rooms: 1,
      first: 61,
      day_use_rate: 10_000,
    });
    await api.post('/v1/hospitality/availability', { room_type: roomType.id, mode: 'day_use' });
    const morning = await book(api, {
      room_type: roomType.id,
      starts_at: unix('2028-06-01T08:00:00+03:00'),
      ends_at: unix('2028-06-01T11:00:00+03:00'),
    });
    expect(morning.status).toBe(201);
    expect(morning.body).toMatchObject({
      mode: 'day_use',
      arrival: null,
      quote: { blocks: 3, room_charge: 30_000 },
    });
    const overlap = await book(api, {
      room_type: roomType.id,
      starts_at: unix('2028-06-01T10:00:00+03:00'),
      ends_at: unix('2028-06-01T12:00:00+03:00'),
    });
    expect(overlap.status).toBe(409);
    const after = await book(api, {
      room_type: roomType.id,
      starts_at: unix('2028-06-01T11:00:00+03:00'),
      ends_at: unix('2028-06-01T13:00:00+03:00'),
    });
    expect(after.status).toBe(201);
    const nightly = await book(api, {
      room_type: roomType.id,
      arrival: '2028-06-02',
      departure: '2028-06-03',
    });
    expect(nightly.status).toBe(400);
    expect(nightly.body.details).toHaveProperty('arrival');
  });

  it('holds an on-request booking as pending until confirmed, and frees it when declined', async () => {
    const { roomType } = await makeRoomType(api, { name: 'Request', rooms: 1, first: 71 });
    await api.post('/v1/hospitality/availability', { room_type: roomType.id, confirmation: 'on_request' });
    const asked = await book(api, { room_type: roomType.id, arrival: '2028-07-01', departure: '2028-07-02' });
    expect(asked.body.status).toBe('pending');
    expect(
      (await book(api, { room_type: roomType.id, arrival: '2028-07-01', departure: '2028-07-02' })).status,
    ).toBe(409);
    const confirmed = await api.post(`/v1/hospitality/reservations/${asked.body.id}/confirm`);
    expect(confirmed.body).toMatchObject({ status: 'confirmed' });
    expect(confirmed.body.confirmed).toBeTypeOf('number');
    const again = await api.post(`/v1/hospitality/reservations/${asked.body.id}/confirm`);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('state_transition_invalid');
    await api.post(`/v1/hospitality/reservations/${asked.body.id}/cancel`);
    expect(
      (await book(api, { room_type: roomType.id, arrival: '2028-07-01', departure: '2028-07-02' })).body
        .status,
    ).toBe('pending');
    expect(await eventTypes(asked.body.id)).toEqual([
      'reservation.created',
      'reservation.confirmed',
      'reservation.canceled',
    ]);
  });
});

describe('blackouts', () => {
  it('refuses to close nights that guests hold, naming them, and closes free ones', async () => {
    const { roomType, rooms } = await makeRoomType(api, { name: 'Closed', rooms: 2, first: 81 });
    const held = await book(api, {
      room_type: roomType.id,
      room: rooms[0],
      arrival: '2028-08-10',
      departure: '2028-08-12',
    });
    const overType = await api.post('/v1/hospitality/blackouts', {
      room_type: roomType.id,
      starts_on: '2028-08-11',
      ends_on: '2028-08-20',
      reason: 'Painting',
    });
    expect(overType.status).toBe(409);
    expect(overType.body.code).toBe('reservations_in_the_way');
    expect(overType.body.details.reservations).toBe(held.body.id);
    const otherRoom = await api.post('/v1/hospitality/blackouts', {
      room: rooms[1],
      starts_on: '2028-08-11',
      ends_on: '2028-08-20',
    });
    expect(otherRoom.status).toBe(201);
    // One room held by a guest, the other closed: nothing left on the 11th, and free again on the 21st.
    expect(
      (await book(api, { room_type: roomType.id, arrival: '2028-08-11', departure: '2028-08-12' })).status,
    ).toBe(409);
    expect(
      (await book(api, { room_type: roomType.id, arrival: '2028-08-21', departure: '2028-08-22' })).status,
    ).toBe(201);
    const found = await api.get(
      `/v1/hospitality/availability?arrival=2028-08-15&departure=2028-08-16&room_type=${roomType.id}`,
    );
    expect(found.body.data[0].free_rooms).toBe(1);
    await api.delete(`/v1/hospitality/blackouts/${otherRoom.body.id}`);
    expect(
      (await book(api, { room_type: roomType.id, arrival: '2028-08-11', departure: '2028-08-12' })).status,
    ).toBe(201);
  });
});

describe('a stay from arrival to departure', () => {
  it('checks in to a room that is not out of order, and out to a dirty room free for the next guest', async () => {
    const { roomType, rooms } = await makeRoomType(api, { name: 'Stay', rooms: 2, first: 91 });
    const arrival = '2027-12-01';
    const stay = await book(api, { room_type: roomType.id, arrival, departure: '2027-12-03' });
    const noRoom = await api.post(`/v1/hospitality/reservations/${stay.body.id}/check_in`, {});
    expect(noRoom.status).toBe(400);
    expect(noRoom.body.details).toHaveProperty('room');
    await api.patch(`/v1/hospitality/rooms/${rooms[0]}`, { housekeeping: 'out_of_order' });
    const broken = await api.post(`/v1/hospitality/reservations/${stay.body.id}/check_in`, {
      room: rooms[0],
    });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toContain('out of order');
    const unregistered = await api.post(`/v1/hospitality/reservations/${stay.body.id}/check_in`, {
      room: rooms[1],
    });
    expect(unregistered.status).toBe(400);
    expect(unregistered.body.details).toHaveProperty('guests');
    const checkedIn = await api.post(`/v1/hospitality/reservations/${stay.body.id}/check_in`, {
      room: rooms[1],
      guests: [registration('Amina Juma', 'TZ'), registration('Peter Otieno', 'KE')],
    });
    expect(checkedIn.body).toMatchObject({ status: 'checked_in', room: rooms[1] });
    const register = await api.get(`/v1/hospitality/reservations/${stay.body.id}/guests`);
    expect(
      register.body.data.map((guest: { name: string; nationality: string }) => [
        guest.name,
        guest.nationality,
      ]),
    ).toEqual([
      ['Amina Juma', 'TZ'],
      ['Peter Otieno', 'KE'],
    ]);
    const card = await api.get(`/v1/hospitality/reservations/${stay.body.id}/registration_card?language=en`);
    expect(card.body).toMatchObject({
      kind: 'registration_card',
      title: 'REGISTRATION CARD',
      store: { name: 'Mwanza Guest House' },
    });
    expect(card.body.details).toContainEqual({ label: 'Room', value: { text: 'Stay-92' } });
    expect(card.body.sections.map((section: { heading: string }) => section.heading)).toEqual([
      'Guest 1: Amina Juma',
      'Guest 2: Peter Otieno',
    ]);
    const badGuest = await api.post(`/v1/hospitality/reservations/${stay.body.id}/guests`, {
      guests: [{ ...registration('X', 'TZ'), nationality: 'Tanzania' }],
    });
    expect(badGuest.status).toBe(400);
    expect(badGuest.body.details).toHaveProperty(['guests.0.nationality']);
    const today = await api.get('/v1/hospitality');
    expect(today.body.in_house).toBeGreaterThanOrEqual(1);
    const out = await api.post(`/v1/hospitality/reservations/${stay.body.id}/check_out`);
    expect(out.body.status).toBe('checked_out');
    expect((await api.get(`/v1/hospitality/rooms/${rooms[1]}`)).body.housekeeping).toBe('dirty');
    const next = await book(api, {
      room_type: roomType.id,
      room: rooms[1],
      arrival,
      departure: '2027-12-02',
    });
    expect(next.status).toBe(201);
    expect(await eventTypes(stay.body.id)).toEqual([
      'reservation.created',
      'reservation.checked_in',
      'reservation.checked_out',
    ]);
  });

  it('marks a no-show only once the stay should have begun', async () => {
    const { roomType } = await makeRoomType(api, { name: 'Absent', rooms: 1, first: 99 });
    const stay = await book(api, { room_type: roomType.id, arrival: '2027-12-02', departure: '2027-12-03' });
    const early = await api.post(`/v1/hospitality/reservations/${stay.body.id}/no_show`);
    expect(early.status).toBe(400);
    clock.set(new Date('2027-12-02T20:00:00+03:00'));
    const late = await api.post(`/v1/hospitality/reservations/${stay.body.id}/no_show`);
    expect(late.body.status).toBe('no_show');
    expect(
      (await book(api, { room_type: roomType.id, arrival: '2027-12-02', departure: '2027-12-03' })).status,
    ).toBe(201);
  });

  it('lists reservations by status and arrival, newest first', async () => {
    const listed = await api.get(
      '/v1/hospitality/reservations?status=checked_out&arrival_gte=2027-12-01&arrival_lte=2027-12-01',
    );
    expect(listed.status).toBe(200);
    expect(listed.body.data.length).toBeGreaterThanOrEqual(1);
    for (const reservation of listed.body.data)
      expect(reservation).toMatchObject({ status: 'checked_out', arrival: '2027-12-01' });
  });
});
