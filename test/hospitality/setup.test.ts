import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { withMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import { book, makeRoomType } from './support.ts';

let server: RunningServer;
let api: Api;

beforeAll(async () => {
  ({ server, api } = await withMerchant({ business_name: 'Kilimanjaro Lodge' }));
});
afterAll(() => server?.close());

describe('the property', () => {
  it('exists from the start, named after the business, and keeps what is changed', async () => {
    const day = await api.get('/v1/hospitality');
    expect(day.status).toBe(200);
    expect(day.body.property).toMatchObject({
      name: 'Kilimanjaro Lodge',
      region: 'mainland',
      check_in_time: '14:00',
      check_out_time: '10:00',
      booking_mode: 'nightly',
      confirmation: 'instant',
    });
    const patched = await api.patch('/v1/hospitality/property', {
      region: 'zanzibar',
      star_rating: 4,
      usd_rate: 2_600,
      check_in_time: '12:00',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      region: 'zanzibar',
      star_rating: 4,
      usd_rate: 2_600,
      check_in_time: '12:00',
    });
    const again = await api.patch('/v1/hospitality/property', { name: 'Stone Town Inn', usd_rate: null });
    expect(again.body).toMatchObject({
      name: 'Stone Town Inn',
      region: 'zanzibar',
      usd_rate: null,
      check_in_time: '12:00',
    });
    await api.patch('/v1/hospitality/property', {
      region: 'mainland',
      star_rating: null,
      check_in_time: '14:00',
    });
  });

  it('refuses bad settings with the field named', async () => {
    const bad = await api.patch('/v1/hospitality/property', { check_in_time: '25:00', star_rating: 6 });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toHaveProperty('check_in_time');
    expect(bad.body.details).toHaveProperty('star_rating');
  });

  it('sets the booking mode of the property or of one room type', async () => {
    const { roomType } = await makeRoomType(api, { name: 'Cabana', rooms: 0, day_use_rate: 20_000 });
    const typed = await api.post('/v1/hospitality/availability', {
      room_type: roomType.id,
      mode: 'day_use',
      confirmation: 'on_request',
    });
    expect(typed.status).toBe(200);
    expect(typed.body.room_type).toMatchObject({ booking_mode: 'day_use', confirmation: 'on_request' });
    expect(typed.body.property).toMatchObject({ booking_mode: 'nightly' });
    const whole = await api.post('/v1/hospitality/availability', { confirmation: 'instant' });
    expect(whole.body).toMatchObject({ room_type: null, property: { confirmation: 'instant' } });
  });
});

describe('room types, rates and rooms', () => {
  it('keeps rates on their type, in the order made', async () => {
    const { roomType } = await makeRoomType(api, {
      name: 'Suite',
      base_rate: 250_000,
      rooms: 0,
      max_adults: 3,
    });
    const season = await api.post('/v1/hospitality/rates', {
      room_type: roomType.id,
      starts_on: '2027-07-01',
      ends_on: '2027-08-31',
      rate: 300_000,
    });
    expect(season.status).toBe(201);
    const weekend = await api.post('/v1/hospitality/rates', {
      room_type: roomType.id,
      starts_on: '2027-07-01',
      ends_on: '2027-08-31',
      days_of_week: [6, 5, 5],
      rate: 350_000,
    });
    expect(weekend.body.days_of_week).toEqual([5, 6]);
    const read = await api.get(`/v1/hospitality/room-types/${roomType.id}`);
    expect(read.body.rates.map((rate: { id: string }) => rate.id)).toEqual([season.body.id, weekend.body.id]);
    const backwards = await api.post('/v1/hospitality/rates', {
      room_type: roomType.id,
      starts_on: '2027-08-31',
      ends_on: '2027-07-01',
      rate: 1,
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.details).toHaveProperty('ends_on');
    expect((await api.delete(`/v1/hospitality/rates/${season.body.id}`)).body.deleted).toBe(true);
    expect((await api.get(`/v1/hospitality/room-types/${roomType.id}`)).body.rates).toHaveLength(1);
  });

  it('numbers rooms uniquely and moves housekeeping only through its table', async () => {
    const { roomType, rooms } = await makeRoomType(api, { name: 'Twin', rooms: 1, first: 201 });
    const clash = await api.post('/v1/hospitality/rooms', { room_type: roomType.id, number: 'twin-201' });
    expect(clash.status).toBe(400);
    expect(clash.body.details).toEqual({ number: 'is taken by another room' });
    const broken = await api.patch(`/v1/hospitality/rooms/${rooms[0]}`, { housekeeping: 'out_of_order' });
    expect(broken.body.housekeeping).toBe('out_of_order');
    const straightToClean = await api.patch(`/v1/hospitality/rooms/${rooms[0]}`, { housekeeping: 'clean' });
    expect(straightToClean.status).toBe(400);
    expect(straightToClean.body.code).toBe('state_transition_invalid');
    expect(
      (await api.patch(`/v1/hospitality/rooms/${rooms[0]}`, { housekeeping: 'dirty' })).body.housekeeping,
    ).toBe('dirty');
    const listed = await api.get(`/v1/hospitality/rooms?room_type=${roomType.id}&housekeeping=dirty`);
    expect(listed.body.data.map((room: { id: string }) => room.id)).toEqual([rooms[0]]);
  });

  it('refuses to archive a type or a room that guests are booked in, naming the reservations', async () => {
    const { roomType, rooms } = await makeRoomType(api, {
      name: 'Family',
      rooms: 2,
      first: 301,
      max_adults: 4,
    });
    const booked = await book(api, {
      room_type: roomType.id,
      room: rooms[0],
      arrival: '2030-01-10',
      departure: '2030-01-12',
    });
    expect(booked.status).toBe(201);
    const type = await api.delete(`/v1/hospitality/room-types/${roomType.id}`);
    expect(type.status).toBe(409);
    expect(type.body).toMatchObject({ error: 'invalid_request_error', code: 'reservations_in_the_way' });
    expect(type.body.message).toContain(booked.body.id);
    const room = await api.delete(`/v1/hospitality/rooms/${rooms[0]}`);
    expect(room.status).toBe(409);
    expect((await api.delete(`/v1/hospitality/rooms/${rooms[1]}`)).body.archived).toBe(true);
    await api.post(`/v1/hospitality/reservations/${booked.body.id}/cancel`);
    const archived = await api.delete(`/v1/hospitality/room-types/${roomType.id}`);
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ archived: true, rooms: 0 });
    const late = await api.post('/v1/hospitality/rooms', { room_type: roomType.id, number: 'F-9' });
    expect(late.status).toBe(400);
  });

  it('answers 403 while the hospitality app is removed', async () => {
    expect((await api.delete('/v1/apps/hospitality')).status).toBe(200);
    const refused = await api.get('/v1/hospitality/room-types');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('app_not_installed');
    expect((await api.post('/v1/apps/hospitality')).status).toBe(200);
    expect((await api.get('/v1/hospitality/room-types')).status).toBe(200);
  });
});
