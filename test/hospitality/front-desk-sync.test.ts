import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskConflictDoc, PULL_DOCUMENTS, newId, type Command, type CommandResult } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { withMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import { makeEmployee, trpcTill } from '../support/tills.ts';
import { arrivingGuest, book, guest, makeRoomType } from './support.ts';

// The desk's day: 15:00 in Dar es Salaam, so a stay arriving today has its first night due.
const clock = movableClock(new Date('2027-06-10T15:00:00+03:00'));
const TODAY = '2027-06-10';
let server: RunningServer;
let api: Api;

beforeAll(async () => {
  ({ server, api } = await withMerchant({ business_name: 'Zanzibar Coral Inn', clock }));
  await api.patch('/v1/hospitality/property', { name: 'Coral Inn', phone: '+255 777 000 111' });
});
afterAll(() => server?.close());

type Till = Awaited<ReturnType<typeof pairedTill>>;

/** A till paired over tRPC, calling as the desktop app does. */
async function pairedTill() {
  const { till, push, pull } = await trpcTill(server, api);
  return { id: till.id, store: till.store, push, pull };
}

const commandId = () => `cmd_${newId('request').slice(-26).toUpperCase()}`;
const at = () => Math.floor(clock.now().getTime() / 1000);
const command = (type: Command['type'], payload: Record<string, unknown>): Command => ({
  id: commandId(),
  type,
  created_at: Date.now(),
  payload: { ...payload, at: at() },
});
const applied = (result: CommandResult | undefined) => {
  expect(result?.status, JSON.stringify(result)).toBe('applied');
  return (result as Extract<CommandResult, { status: 'applied' }>).result;
};
const refusedWith = (result: CommandResult | undefined) => {
  expect(result?.status, JSON.stringify(result)).toBe('refused');
  return (result as Extract<CommandResult, { status: 'refused' }>).error.code;
};
const folioOf = async (id: string) => (await api.get(`/v1/hospitality/reservations/${id}/folio`)).body;
const tomorrow = '2027-06-11';

/** A stay booked over the API for tonight, and checked in when asked. */
async function stayTonight(roomType: string, room: string, checkIn = true) {
  const booked = await book(api, { room_type: roomType, room, arrival: TODAY, departure: tomorrow });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  if (checkIn) {
    const checked = await api.post(
      `/v1/hospitality/reservations/${booked.body.id}/check_in`,
      arrivingGuest(),
    );
    expect(checked.body.status).toBe('checked_in');
  }
  return booked.body as { id: string; total: number };
}

describe('the front desk’s collections', () => {
  let till: Till;
  beforeAll(async () => {
    till = await pairedTill();
  });

  it('pull as documents of the protocol’s schemas: the property, types, rooms, rates and stays', async () => {
    const { roomType, rooms } = await makeRoomType(api, { name: 'Feed', rooms: 2, first: 1 });
    const rate = await api.post('/v1/hospitality/rates', {
      room_type: roomType.id,
      starts_on: '2027-07-01',
      ends_on: '2027-07-31',
      days_of_week: [5, 6],
      rate: 150_000,
    });
    const stay = await stayTonight(roomType.id, rooms[0]!);

    const [property] = await till.pull('property', (docs) => docs.length > 0);
    expect(PULL_DOCUMENTS.property.parse(property)).toMatchObject({
      id: 'property',
      name: 'Coral Inn',
      phone: '+255 777 000 111',
      check_in_time: '14:00',
      _deleted: false,
    });
    const types = await till.pull('room_types', (docs) => docs.some((doc) => doc.id === roomType.id));
    expect(PULL_DOCUMENTS.room_types.parse(types.find((doc) => doc.id === roomType.id))).toMatchObject({
      name: 'Feed',
      base_rate: 100_000,
      _deleted: false,
    });
    const roomDocs = await till.pull('rooms', (docs) =>
      rooms.every((id) => docs.some((doc) => doc.id === id)),
    );
    for (const doc of roomDocs) PULL_DOCUMENTS.rooms.parse(doc);
    expect(roomDocs.find((doc) => doc.id === rooms[0])).toMatchObject({
      room_type: roomType.id,
      number: 'Feed-1',
      housekeeping: 'clean',
    });
    const rates = await till.pull('room_rates', (docs) => docs.some((doc) => doc.id === rate.body.id));
    expect(PULL_DOCUMENTS.room_rates.parse(rates.find((doc) => doc.id === rate.body.id))).toMatchObject({
      room_type: roomType.id,
      starts_on: '2027-07-01',
      days_of_week: [5, 6],
      rate: 150_000,
    });
    const stays = await till.pull('reservations', (docs) => docs.some((doc) => doc.id === stay.id));
    const mine = PULL_DOCUMENTS.reservations.parse(stays.findLast((doc) => doc.id === stay.id));
    expect(mine).toMatchObject({
      room: rooms[0],
      status: 'checked_in',
      arrival: TODAY,
      total: stay.total,
      folio_balance: 0,
      folio_nights_posted: 0,
      registered_guests: 1,
      source: 'api',
    });
    expect(mine.checked_in_at).toEqual(expect.any(Number));
    expect(mine.starts_at).toBe(Date.parse('2027-06-10T14:00:00+03:00') / 1000);
  });

  it('sends an archived room as deleted, and a deleted rate as deleted, which then prices nothing', async () => {
    const { roomType, rooms } = await makeRoomType(api, { name: 'Gone', rooms: 2, first: 1 });
    const rate = await api.post('/v1/hospitality/rates', {
      room_type: roomType.id,
      starts_on: '2027-08-01',
      ends_on: '2027-08-31',
      rate: 175_000,
    });
    const quote = async () =>
      (
        await api.get(
          `/v1/hospitality/availability?arrival=2027-08-05&departure=2027-08-06&adults=1&room_type=${roomType.id}`,
        )
      ).body.data[0].quote.room_charge;
    expect(await quote()).toBe(175_000);
    const from = { checkpoint: null };
    await till.pull('rooms', (docs) => docs.some((doc) => doc.id === rooms[1]), from);
    expect((await api.delete(`/v1/hospitality/rooms/${rooms[1]}`)).status).toBe(200);
    const after = await till.pull('rooms', (docs) => docs.some((doc) => doc.id === rooms[1]), from);
    expect(after.find((doc) => doc.id === rooms[1])).toMatchObject({ _deleted: true });

    const rates = { checkpoint: null };
    await till.pull('room_rates', (docs) => docs.some((doc) => doc.id === rate.body.id), rates);
    expect((await api.delete(`/v1/hospitality/rates/${rate.body.id}`)).status).toBe(200);
    const gone = await till.pull('room_rates', (docs) => docs.some((doc) => doc.id === rate.body.id), rates);
    expect(gone.find((doc) => doc.id === rate.body.id)).toMatchObject({ _deleted: true });
    expect(await quote()).toBe(100_000);
    const listed = await api.get(`/v1/hospitality/room-types/${roomType.id}`);
    expect(listed.body.rates).toEqual([]);
    expect((await api.delete(`/v1/hospitality/rates/${rate.body.id}`)).status).toBe(404);
  });

  it('sends the stays that hold a room and those that ended within a week, not older ones', async () => {
    const { roomType, rooms } = await makeRoomType(api, { name: 'Window', rooms: 2, first: 1 });
    const canceled = await stayTonight(roomType.id, rooms[0]!, false);
    expect((await api.post(`/v1/hospitality/reservations/${canceled.id}/cancel`, {})).status).toBe(200);
    const holding = await stayTonight(roomType.id, rooms[1]!, false);
    // Pulled from the start each time, until the stay holding its room has come (it always goes down).
    const ids = async () => {
      const pulled = await till.pull('reservations', (docs) => docs.some((doc) => doc.id === holding.id));
      return new Set(pulled.map((doc) => doc.id));
    };
    expect([...(await ids())]).toEqual(expect.arrayContaining([canceled.id, holding.id]));
    try {
      // Eight days after the stay ended: the canceled one no longer goes down, the one holding its room does.
      clock.set(new Date('2027-06-19T11:00:00+03:00'));
      const later = await ids();
      expect(later.has(canceled.id)).toBe(false);
      expect(later.has(holding.id)).toBe(true);
    } finally {
      clock.set(new Date('2027-06-10T15:00:00+03:00'));
    }
  });

  it('moves a stay’s folio balance in the next pull once the desk takes a payment', async () => {
    const { roomType, rooms } = await makeRoomType(api, { name: 'Paid', rooms: 1, first: 1 });
    const stay = await stayTonight(roomType.id, rooms[0]!, false);
    const from = { checkpoint: null };
    await till.pull('reservations', (docs) => docs.some((doc) => doc.id === stay.id), from);
    const [result] = await till.push(
      command('folio.payment', { reservation: stay.id, method: 'deposit', amount: 40_000 }),
    );
    expect(applied(result)).toEqual({ reservation: stay.id, balance: -40_000 });
    const next = await till.pull('reservations', (docs) => docs.some((doc) => doc.id === stay.id), from);
    expect(next.find((doc) => doc.id === stay.id)).toMatchObject({ folio_balance: -40_000 });
  });
});

describe('the front desk’s commands', () => {
  it('walks a guest in, checks them in, takes cash and checks them out, as the API then shows', async () => {
    const till = await pairedTill();
    const { roomType, rooms } = await makeRoomType(api, { name: 'Walk-in', rooms: 1, first: 1 });
    const reservation = newId('reservation');
    const create = command('reservation.create', {
      reservation,
      room_type: roomType.id,
      arrival: TODAY,
      departure: tomorrow,
      guest: guest('Juma Said'),
    });
    const [created] = await till.push(create);
    expect(applied(created)).toEqual({ reservation, status: 'confirmed', room: null });
    const { total } = (await api.get(`/v1/hospitality/reservations/${reservation}`)).body;
    const results = await till.push(
      command('reservation.check_in', { reservation, room: rooms[0], ...arrivingGuest() }),
      command('folio.payment', { reservation, method: 'cash', amount: total }),
      command('reservation.check_out', { reservation }),
    );
    expect(results.map((result) => result.status)).toEqual(['applied', 'applied', 'applied']);
    expect(applied(results[0])).toEqual({ reservation, status: 'checked_in', room: rooms[0] });
    expect(applied(results[2])).toEqual({ reservation, status: 'checked_out', room: rooms[0] });

    const shown = (await api.get(`/v1/hospitality/reservations/${reservation}`)).body;
    expect(shown).toMatchObject({ id: reservation, status: 'checked_out', source: 'front_desk' });
    const folio = await folioOf(reservation);
    expect(folio).toMatchObject({ status: 'closed', balance: 0, closing_balance: 0, override: null });
    expect(folio.lines.filter((line: { kind: string }) => line.kind === 'cash')).toHaveLength(1);
    const room = (await api.get(`/v1/hospitality/rooms/${rooms[0]}`)).body;
    expect(room.housekeeping).toBe('dirty');
    const pulled = await till.pull('reservations', (docs) =>
      docs.some((doc) => doc.id === reservation && doc.status === 'checked_out'),
    );
    expect(pulled.findLast((doc) => doc.id === reservation)).toMatchObject({
      folio_balance: 0,
      folio_nights_posted: 1,
      registered_guests: 1,
      source: 'front_desk',
    });

    // The same id again, from another command, is not a second stay.
    const [again] = await till.push({ ...create, id: commandId() });
    expect(refusedWith(again)).toBe('parameter_invalid');
  });

  it('walks a guest in for day use, priced by the type’s block rate, and checks them in and out', async () => {
    const till = await pairedTill();
    const { roomType, rooms } = await makeRoomType(api, {
      name: 'Day room',
      rooms: 1,
      first: 1,
      day_use_rate: 12_000,
    });
    await api.post('/v1/hospitality/availability', { room_type: roomType.id, mode: 'day_use' });
    const reservation = newId('reservation');
    // From now (15:00) for three hours of the day, as the desk books a day-use walk-in.
    const startsAt = at() - (at() % 60);
    const dayUse = (id: string, hours: number) =>
      command('reservation.create', {
        reservation: id,
        room_type: roomType.id,
        room: rooms[0],
        starts_at: startsAt,
        ends_at: startsAt + hours * 3_600,
        guest: guest('Rehema Ali'),
      });
    expect(applied((await till.push(dayUse(reservation, 3)))[0])).toEqual({
      reservation,
      status: 'confirmed',
      room: rooms[0],
    });
    const shown = (await api.get(`/v1/hospitality/reservations/${reservation}`)).body;
    expect(shown).toMatchObject({
      mode: 'day_use',
      arrival: null,
      quote: { blocks: 3, room_charge: 36_000 },
    });
    // The room is held for those hours: a second walk-in into it then is refused and recorded.
    const [clash] = await till.push(dayUse(newId('reservation'), 1));
    expect(refusedWith(clash)).toBe('room_unavailable');

    const results = await till.push(
      command('reservation.check_in', { reservation, ...arrivingGuest() }),
      command('folio.payment', { reservation, method: 'cash', amount: shown.total }),
      command('reservation.check_out', { reservation }),
    );
    expect(results.map((result) => result.status)).toEqual(['applied', 'applied', 'applied']);
    expect(await folioOf(reservation)).toMatchObject({ status: 'closed', balance: 0, override: null });
    const pulled = await till.pull('reservations', (docs) =>
      docs.some((doc) => doc.id === reservation && doc.status === 'checked_out'),
    );
    expect(pulled.findLast((doc) => doc.id === reservation)).toMatchObject({
      mode: 'day_use',
      starts_at: startsAt,
      ends_at: startsAt + 3 * 3_600,
      folio_nights_posted: 1,
      folio_balance: 0,
    });
  });

  it('gives a room once when two tills check different stays into it: the second is refused whole', async () => {
    const [first, second] = await Promise.all([pairedTill(), pairedTill()]);
    const { roomType, rooms } = await makeRoomType(api, { name: 'Contested', rooms: 2, first: 1 });
    const one = await book(api, { room_type: roomType.id, arrival: TODAY, departure: '2027-06-12' });
    const two = await book(api, { room_type: roomType.id, arrival: tomorrow, departure: '2027-06-13' });
    const checkIn = (id: string) =>
      command('reservation.check_in', { reservation: id, room: rooms[0], ...arrivingGuest() });
    const [[a], [b]] = await Promise.all([
      first.push(checkIn(one.body.id)),
      second.push(checkIn(two.body.id)),
    ]);
    const outcomes = [a!, b!].map((result) => result.status).sort();
    expect(outcomes).toEqual(['applied', 'refused']);
    const lost = a!.status === 'refused' ? a! : b!;
    expect(refusedWith(lost)).toBe('room_unavailable');
    const loser = lost === a ? one.body.id : two.body.id;
    const left = (await api.get(`/v1/hospitality/reservations/${loser}`)).body;
    expect(left).toMatchObject({ status: 'confirmed', room: null });
    expect((await api.get(`/v1/hospitality/reservations/${loser}/guests`)).body.data).toEqual([]);

    // Both desks see the clash: the one whose step stood too, naming both guests and the refused desk.
    const winner = lost === a ? two.body.id : one.body.id;
    const loserTill = lost === a ? first : second;
    const seen = await Promise.all(
      [first, second].map((till) =>
        till.pull('desk_conflicts', (docs) => docs.some((doc) => doc.command === lost.id)),
      ),
    );
    for (const docs of seen) {
      const clash = docs.find((doc) => doc.command === lost.id)!;
      expect(deskConflictDoc.parse(clash)).toMatchObject({
        _deleted: false,
        command_type: 'reservation.check_in',
        till: loserTill.id,
        reservation: loser,
        room: rooms[0],
        room_number: 'Contested-1',
        holder_reservation: winner,
        code: 'room_unavailable',
      });
      expect(clash.guest_name).toBe(lost === a ? one.body.guest.name : two.body.guest.name);
    }
    // Pushed again, the refusal records nothing new; resolved from the other desk, it leaves both.
    expect(refusedWith((await loserTill.push(checkIn(loser)))[0])).toBe('room_unavailable');
    const clashId = seen[0]!.find((doc) => doc.command === lost.id)!.id;
    const otherTill = loserTill === first ? second : first;
    const resolve = command('desk_conflict.resolve', { conflict: clashId });
    expect(applied((await otherTill.push(resolve))[0])).toEqual({ conflict: clashId });
    expect(applied((await otherTill.push(resolve))[0])).toEqual({ conflict: clashId });
    for (const till of [first, second]) {
      const docs = await till.pull('desk_conflicts', (all) =>
        all.some((doc) => doc.id === clashId && doc._deleted),
      );
      expect(docs.filter((doc) => doc.id === clashId).map((doc) => doc._deleted)).toEqual([true]);
    }
    const unknown = command('desk_conflict.resolve', { conflict: 'dcon_01kb00000000000000000000zz' });
    expect(refusedWith((await otherTill.push(unknown))[0])).toBe('resource_missing');
  });

  it('counts the cash a desk takes in its till’s shift: the Z report expects it, foreign cash apart', async () => {
    const till = await pairedTill();
    const cashier = await makeEmployee(api, [till.store]);
    const { roomType, rooms } = await makeRoomType(api, { name: 'Drawer', rooms: 1, first: 1 });
    const stay = await stayTonight(roomType.id, rooms[0]!);
    const shift = newId('shift');
    const pay = (payload: Record<string, unknown>) =>
      command('folio.payment', {
        reservation: stay.id,
        method: 'cash',
        shift,
        cashier: cashier.id,
        ...payload,
      });
    // The shift's own commands carry their times by other names.
    const shiftCommand = (type: Command['type'], payload: Record<string, unknown>): Command => ({
      ...command(type, {}),
      payload,
    });
    const results = await till.push(
      shiftCommand('shift.open', { shift, cashier: cashier.id, opening_float: 20_000, opened_at: at() }),
      pay({ method: 'deposit', amount: 30_000 }),
      pay({ amount: 12_500 }),
      pay({ foreign: { currency: 'USD', amount: 2_000, rate: 2_600 } }), // USD 20.00
      shiftCommand('shift.close', { shift, counted: [{ method: 'cash', amount: 62_500 }], closed_at: at() }),
    );
    expect(
      results.map((result) => (result.status === 'refused' ? result.error.code : result.status)),
    ).toEqual(Array(5).fill('applied'));
    const closed = (await api.get(`/v1/retail/shifts/${shift}`)).body;
    expect(closed.report.lines.find((line: { method: string }) => line.method === 'cash')).toMatchObject({
      float: 20_000,
      desk: 42_500,
      expected: 62_500,
      difference: 0,
    });
    expect(closed.report.cashiers).toEqual([
      expect.objectContaining({ cashier: cashier.id, desk_cash: 42_500 }),
    ]);
    // The folio has all three; the drawer only the shillings.
    expect((await folioOf(stay.id)).payments).toBe(42_500 + 52_000);

    // Another till's shift is not this till's drawer.
    const other = await pairedTill();
    const refused = await other.push(
      command('folio.payment', { reservation: stay.id, method: 'cash', amount: 1_000, shift }),
    );
    expect(refusedWith(refused[0])).toBe('resource_missing');
  });

  it('moves a stay to another room of its type, not into one another stay holds', async () => {
    const till = await pairedTill();
    const { roomType, rooms } = await makeRoomType(api, { name: 'Moving', rooms: 3, first: 1 });
    const stay = await stayTonight(roomType.id, rooms[0]!);
    await stayTonight(roomType.id, rooms[2]!, false);
    const move = (room: string) => command('reservation.move', { reservation: stay.id, room });
    expect(applied((await till.push(move(rooms[1]!)))[0])).toEqual({
      reservation: stay.id,
      status: 'checked_in',
      room: rooms[1],
    });
    expect(refusedWith((await till.push(move(rooms[2]!)))[0])).toBe('room_unavailable');
    expect((await api.get(`/v1/hospitality/reservations/${stay.id}`)).body.room).toBe(rooms[1]);
  });

  it('applies a command pushed twice once', async () => {
    const till = await pairedTill();
    const { roomType, rooms } = await makeRoomType(api, { name: 'Twice', rooms: 1, first: 1 });
    const stay = await stayTonight(roomType.id, rooms[0]!);
    const pay = command('folio.payment', { reservation: stay.id, method: 'cash', amount: 5_000 });
    const [once] = await till.push(pay);
    const [twice] = await till.push(pay);
    expect(applied(twice)).toEqual(applied(once));
    const folio = await folioOf(stay.id);
    expect(folio.lines.filter((line: { kind: string }) => line.kind === 'cash')).toHaveLength(1);
    expect(folio.payments).toBe(5_000);
  });

  it('refuses a check-out owing, and lets a manager’s override through, recording who approved it', async () => {
    const till = await pairedTill();
    const cashier = await makeEmployee(api, [till.store]);
    const manager = await makeEmployee(api, [till.store], { name: 'Mwanaisha', role: 'manager' });
    const { roomType, rooms } = await makeRoomType(api, { name: 'Owing', rooms: 1, first: 1 });
    const stay = await stayTonight(roomType.id, rooms[0]!);

    const [owing] = await till.push(command('reservation.check_out', { reservation: stay.id }));
    expect(refusedWith(owing)).toBe('folio_unsettled');
    const override = (approvedBy: string) =>
      command('reservation.check_out', {
        reservation: stay.id,
        override: { reason: 'Company pays by invoice', approved_by: approvedBy },
      });
    const [byCashier] = await till.push(override(cashier.id));
    expect(refusedWith(byCashier)).toBe('parameter_invalid');
    expect((await api.get(`/v1/hospitality/reservations/${stay.id}`)).body.status).toBe('checked_in');

    const [approved] = await till.push(override(manager.id));
    expect(applied(approved)).toMatchObject({ reservation: stay.id, status: 'checked_out' });
    const folio = await folioOf(stay.id);
    expect(folio).toMatchObject({
      status: 'closed',
      closing_balance: stay.total,
      override: { reason: 'Company pays by invoice', by: `till:${till.id}/employee:${manager.id}` },
    });
  });

  it('marks a room through housekeeping’s states, refusing a step the table has not', async () => {
    const till = await pairedTill();
    const { rooms } = await makeRoomType(api, { name: 'Clean', rooms: 1, first: 1 });
    const mark = (housekeeping: string) => command('room.housekeeping', { room: rooms[0], housekeeping });
    expect(applied((await till.push(mark('out_of_order')))[0])).toEqual({
      room: rooms[0],
      housekeeping: 'out_of_order',
    });
    // Out of order comes back through dirty: it is cleaned before it is sold.
    const [skipped] = await till.push(mark('clean'));
    expect(refusedWith(skipped)).toBe('state_transition_invalid');
    expect((await api.get(`/v1/hospitality/rooms/${rooms[0]}`)).body.housekeeping).toBe('out_of_order');

    // While the app is removed its commands are refused, and the feed still answers what was set up.
    expect((await api.delete('/v1/apps/hospitality')).status).toBe(200);
    try {
      const [removed] = await till.push(mark('dirty'));
      expect(refusedWith(removed)).toBe('app_not_installed');
      const pulled = await till.pull('rooms', (docs) => docs.some((doc) => doc.id === rooms[0]));
      expect(pulled.findLast((doc) => doc.id === rooms[0])).toMatchObject({ housekeeping: 'out_of_order' });
    } finally {
      expect((await api.post('/v1/apps/hospitality')).status).toBe(200);
    }
  });
});
