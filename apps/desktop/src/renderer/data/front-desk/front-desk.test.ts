/**
 * The front desk from the till's store, on memory storage: the board read as
 * the desk's own steps laid over what was pulled (a check-in queued offline
 * shows the room occupied at once), a walk-in's command and price, the balance
 * with payments not yet synced, check-out with cash or a manager's override,
 * the slips printed, and a step the server refused shown as a conflict.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { firstValueFrom } from 'rxjs';
import {
  addDays,
  commandPayloads,
  idPattern,
  nightCharges,
  type PullDocument,
  type RowsDocument,
} from '@tz/core';
import { openTestTill, pulled, settle, type TestTill } from '../../../../test/till-data.ts';
import {
  GUEST,
  TODAY,
  boardRoom,
  desk,
  openDesk as openDeskTill,
  pushed,
  quoteOf,
  room,
  stay,
} from './desk-fixtures.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

/** The desk on a test till, closed after the test. */
const openDesk = async (...args: Parameters<typeof openDeskTill>) => (till = await openDeskTill(...args));

describe('the front desk', () => {
  it('shows only once the property is pulled', async () => {
    const t = await openTestTill({ rooms: [room('101')] });
    till = t;
    await pulled(t, 'rooms');
    expect(await firstValueFrom(t.store.hasDesk$)).toBe(false);
    expect(await firstValueFrom(t.store.desk$)).toBeNull();
  });

  it('reads a check-in queued offline as the room occupied at once, and prints the registration card', async () => {
    const t = await openDesk([
      stay('resv_01kb00000000000000000000a1', {
        arrival: TODAY,
        departure: addDays(TODAY, 2),
        room: 'room_201',
      }),
    ]);
    expect(await firstValueFrom(t.store.hasDesk$)).toBe(true);
    let view = await desk(t, (v) => v.arrivals.length === 1);
    expect(boardRoom(view, '201').state).toBe('arriving');
    expect(boardRoom(view, '101').state).toBe('vacant_clean');
    expect(view.floors.map((floor) => floor.floor)).toEqual(['1', '2']);
    expect(view.arrivals[0]).toMatchObject({ guestName: 'Amina Juma', roomNumber: '201', nights: 2 });

    const shift = await t.store.openShift(10_000);
    const print = await t.store.checkIn({
      reservation: 'resv_01kb00000000000000000000a1',
      guests: [GUEST],
      deposit: 50_000,
    });
    expect(print).toBe('printed');
    view = await desk(t, (v) => v.inHouse.length === 1);
    expect(boardRoom(view, '201').state).toBe('occupied');
    expect(view.arrivals).toEqual([]);
    // No night is due before 14:00; the deposit not yet synced is owed back to the guest already.
    expect(view.inHouse[0]).toMatchObject({ waiting: true, status: 'checked_in', balance: -50_000 });
    // The card as core builds it, through the till's printer.
    const card = t.bridge.printed.at(-1)!.what as RowsDocument;
    expect(card.kind).toBe('registration_card');
    expect(card.details).toContainEqual({ label: 'Chumba', value: { text: '201' } });
    // Both steps queued as valid commands, in order.
    await settle(() =>
      expect(pushed(t).map((c) => c.type)).toEqual(['shift.open', 'reservation.check_in', 'folio.payment']),
    );
    const [, checkIn, deposit] = pushed(t);
    expect(commandPayloads['reservation.check_in'].safeParse(checkIn!.payload).success).toBe(true);
    expect(checkIn!.payload).toMatchObject({ reservation: 'resv_01kb00000000000000000000a1' });
    expect((checkIn!.payload as { room?: string }).room).toBeUndefined();
    expect(deposit!.payload).toMatchObject({ method: 'deposit', amount: 50_000, shift: shift.id });
    // The deposit is in the drawer: the shift expects it.
    expect(await firstValueFrom(t.store.shift$)).toMatchObject({ deskCash: 50_000, expectedCash: 60_000 });
  });

  it('books a walk-in into a free room of the type, priced as the server prices it', async () => {
    // 101 is held tonight by an arrival; 102 is dirty, so the clean 201 comes first.
    const t = await openDesk(
      [
        stay('resv_01kb00000000000000000000a2', {
          arrival: TODAY,
          departure: addDays(TODAY, 1),
          room: 'room_101',
        }),
      ],
      [room('101'), room('102', 'dirty'), room('201')],
    );
    await desk(t);
    const request = { roomType: 'rt_double', nights: 3, adults: 2, children: 0, guestName: ' Peter Mushi ' };
    const quoted = await t.store.quoteWalkIn(request);
    expect(quoted).toMatchObject({ arrival: TODAY, departure: '2026-11-29', room: 'room_201' });
    expect(quoted.freeRooms).toEqual(['room_201', 'room_102']);
    // Friday and Saturday at the weekend rate.
    expect(quoted.quote).toEqual(quoteOf(TODAY, '2026-11-29'));
    expect(quoted.quote.room_charge).toBe(70_000 + 90_000 + 90_000);

    const made = await t.store.walkIn(request);
    expect(made.reservation).toMatch(idPattern('reservation'));
    expect(made.room).toBe('room_201');
    const view = await desk(t, (v) => v.arrivals.length === 2);
    expect(boardRoom(view, '201').state).toBe('arriving');
    expect(view.arrivals.find((a) => a.id === made.reservation)).toMatchObject({
      guestName: 'Peter Mushi',
      total: quoted.quote.total,
      waiting: true,
    });
    await settle(() => expect(pushed(t)).toHaveLength(1));
    const command = pushed(t)[0]!;
    expect(command.type).toBe('reservation.create');
    expect(command.payload).toEqual({
      reservation: made.reservation,
      room_type: 'rt_double',
      room: 'room_201',
      arrival: TODAY,
      departure: '2026-11-29',
      adults: 2,
      children: 0,
      guest: { name: 'Peter Mushi' },
      at: Math.floor(Date.UTC(2026, 10, 26, 9) / 1000),
    });
    expect(commandPayloads['reservation.create'].safeParse(command.payload).success).toBe(true);
    // The next walk-in of the type gets the next room; a party too big is refused by core's rule.
    expect((await t.store.quoteWalkIn(request)).room).toBe('room_102');
    await expect(t.store.quoteWalkIn({ ...request, adults: 3 })).rejects.toMatchObject({ code: 'invalid' });
  });

  it('counts the nights due and the payments not yet synced in the balance, and checks out at zero', async () => {
    // In since two nights ago, leaving today: the server posted one night and holds a deposit of 30,000.
    const arrival = addDays(TODAY, -2);
    const quote = quoteOf(arrival, TODAY);
    const first = nightCharges(quote).filter((charge) => charge.night === arrival);
    const posted = first.reduce((sum, charge) => sum + charge.amount, 0);
    const id = 'resv_01kb00000000000000000000a3';
    const t = await openDesk([
      stay(id, {
        arrival,
        departure: TODAY,
        room: 'room_101',
        status: 'checked_in',
        folio_nights_posted: 1,
        folio_balance: posted - 30_000,
      }),
    ]);
    const view = await desk(t, (v) => v.departures.length === 1);
    expect(boardRoom(view, '101').state).toBe('departing');
    const owed = quote.total - 30_000;
    expect(view.departures[0]!.balance).toBe(owed);
    expect(await t.store.balanceOf(id)).toBe(owed);

    // Cash short of the balance needs a manager's override and its reason.
    await expect(t.store.checkOut({ reservation: id, cash: 20_000 })).rejects.toMatchObject({
      code: 'invalid',
    });
    const done = await t.store.checkOut({ reservation: id, cash: owed });
    expect(done).toEqual({ balance: 0, print: 'printed' });
    // The cash taken is not synced yet: the stay owes nothing now.
    expect(await t.store.balanceOf(id)).toBe(0);
    const after = await desk(t, (v) => v.inHouse.length === 0);
    expect(boardRoom(after, '101').state).toBe('vacant_dirty');
    await settle(() =>
      expect(pushed(t).map((c) => c.type)).toEqual(['folio.payment', 'reservation.check_out']),
    );
    expect(pushed(t)[0]!.payload).toMatchObject({ reservation: id, method: 'cash', amount: owed });
    expect(pushed(t)[1]!.payload).toEqual({ reservation: id, at: expect.any(Number) });
    const slip = t.bridge.printed.at(-1)!.what as RowsDocument;
    expect(slip.kind).toBe('folio');
    expect(slip.sections.at(-1)!.rows[0]).toMatchObject({ value: { amount: 0 }, strong: true });
  });

  it('lets a guest leave with a balance only with a manager’s PIN and a reason', async () => {
    const id = 'resv_01kb00000000000000000000a4';
    const t = await openDesk([
      stay(id, { arrival: addDays(TODAY, -1), departure: TODAY, room: 'room_102', status: 'checked_in' }),
    ]);
    await desk(t, (v) => v.departures.length === 1);
    const owed = await t.store.balanceOf(id);
    expect(owed).toBe(quoteOf(addDays(TODAY, -1), TODAY).total);
    await expect(t.store.checkOut({ reservation: id, reason: 'Company pays' })).rejects.toMatchObject({
      code: 'manager_pin_required',
    });
    await expect(t.store.checkOut({ reservation: id, managerPin: '9876' })).rejects.toMatchObject({
      code: 'invalid',
    });
    await expect(
      t.store.checkOut({ reservation: id, managerPin: '1234', reason: 'Company pays' }),
    ).rejects.toMatchObject({ code: 'manager_pin_wrong' });
    const done = await t.store.checkOut({
      reservation: id,
      cash: 10_000,
      managerPin: '9876',
      reason: 'Company pays',
    });
    expect(done.balance).toBe(owed - 10_000);
    await settle(() =>
      expect(pushed(t).map((c) => c.type)).toEqual(['folio.payment', 'reservation.check_out']),
    );
    expect(pushed(t)[1]!.payload).toMatchObject({
      override: { reason: 'Company pays', approved_by: 'emp_boss' },
    });
    expect(commandPayloads['reservation.check_out'].safeParse(pushed(t)[1]!.payload).success).toBe(true);
  });

  it('moves a stay and marks rooms through the housekeeping machine', async () => {
    const id = 'resv_01kb00000000000000000000a5';
    const t = await openDesk(
      [
        stay(id, {
          arrival: addDays(TODAY, -1),
          departure: addDays(TODAY, 1),
          room: 'room_101',
          status: 'checked_in',
        }),
      ],
      [room('101'), room('102', 'out_of_order'), room('201')],
    );
    await desk(t);
    // The free one, then its own (a room with a guest in house comes last); never the room out of order.
    expect(await t.store.roomsFor(id)).toEqual(['room_201', 'room_101']);
    await expect(t.store.moveStay(id, 'room_102')).rejects.toMatchObject({ code: 'room_unavailable' });
    await t.store.moveStay(id, 'room_201');
    let view = await desk(t, (v) => boardRoom(v, '201').state === 'occupied');
    expect(boardRoom(view, '101').state).toBe('vacant_clean');
    // Out of order comes back only as dirty.
    await expect(t.store.setHousekeeping('room_102', 'clean')).rejects.toMatchObject({ code: 'invalid' });
    await t.store.setHousekeeping('room_102', 'dirty');
    await t.store.setHousekeeping('room_101', 'out_of_order');
    view = await desk(t, (v) => boardRoom(v, '102').state === 'vacant_dirty');
    expect(boardRoom(view, '101').state).toBe('out_of_order');
  });

  it('checks a walk-in in before anything syncs, and keeps the room occupied once applied until the pull has it', async () => {
    const t = await openDesk([]);
    await desk(t);
    const made = await t.store.walkIn({
      roomType: 'rt_double',
      nights: 1,
      adults: 1,
      children: 0,
      guestName: 'Asha',
    });
    await t.store.checkIn({ reservation: made.reservation, guests: [{ ...GUEST, name: 'Asha' }] });
    let view = await desk(t, (v) => v.inHouse.length === 1);
    expect(boardRoom(view, '101').state).toBe('occupied');
    // The server applies both; its feed has not sent the stay yet.
    t.transport.answer = (commands) =>
      commands.map((command) => ({ id: command.id, status: 'applied', result: {} }));
    await t.store.syncNow();
    await settle(async () => expect((await firstValueFrom(t.store.sync$)).unsynced).toBe(0));
    view = await desk(t);
    expect(boardRoom(view, '101').state).toBe('occupied');
    expect(view.inHouse[0]).toMatchObject({ id: made.reservation, waiting: false });
    expect(pushed(t).map((c) => c.type)).toEqual(['reservation.create', 'reservation.check_in']);
  });

  it('shows a step the server refused as a conflict naming the stay and room, and lays it over no more', async () => {
    const id = 'resv_01kb00000000000000000000a6';
    const t = await openDesk([
      stay(id, {
        arrival: TODAY,
        departure: addDays(TODAY, 1),
        room: 'room_201',
        guest_name: 'Grace Mollel',
      }),
    ]);
    await desk(t);
    t.transport.answer = (commands) =>
      commands.map((command) => ({
        id: command.id,
        status: 'refused',
        error: { code: 'room_unavailable', message: 'Room 201 is taken for these nights' },
      }));
    await t.store.checkIn({ reservation: id, guests: [GUEST] });
    await t.store.syncNow();
    const view = await desk(t, (v) => v.conflicts.length === 1);
    expect(view.conflicts[0]).toMatchObject({
      type: 'reservation.check_in',
      code: 'room_unavailable',
      reservation: id,
      guestName: 'Grace Mollel',
      roomNumber: '201',
    });
    // The board shows the server's state: still arriving.
    expect(boardRoom(view, '201').state).toBe('arriving');
    await t.store.dismissConflict(view.conflicts[0]!);
    expect((await desk(t, (v) => v.conflicts.length === 0)).conflicts).toEqual([]);
  });

  it('shows a clash another desk had over a room this desk gave, and resolving it tells the server', async () => {
    const id = 'resv_01kb00000000000000000000a7';
    const clash: PullDocument<'desk_conflicts'> = {
      id: 'dcon_01kb00000000000000000000c1',
      _deleted: false,
      command: 'cmd_01kb00000000000000000000c1',
      command_type: 'reservation.create',
      till: 'till_other',
      till_name: 'Reception 2',
      reservation: null,
      guest_name: 'Baraka Mushi',
      room: 'room_201',
      room_number: '201',
      holder_reservation: id,
      holder_guest_name: 'Grace Mollel',
      code: 'room_unavailable',
      message: 'Room 201 is not free for the whole stay',
      created_at: 1_795_000_000,
    };
    const t = await openDesk(
      [stay(id, { arrival: TODAY, departure: addDays(TODAY, 1), room: 'room_201', status: 'checked_in' })],
      undefined,
      [clash],
    );
    const view = await desk(t, (v) => v.conflicts.length === 1);
    expect(view.conflicts[0]).toMatchObject({
      id: clash.id,
      mine: false,
      tillName: 'Reception 2',
      guestName: 'Baraka Mushi',
      holderName: 'Grace Mollel',
      roomNumber: '201',
    });
    await t.store.dismissConflict(view.conflicts[0]!);
    expect((await desk(t, (v) => v.conflicts.length === 0)).conflicts).toEqual([]);
    t.transport.answer = (commands) =>
      commands.map((command) => ({ id: command.id, status: 'applied', result: {} }));
    await t.store.syncNow();
    const resolve = pushed(t).find((command) => command.type === 'desk_conflict.resolve');
    expect(resolve?.payload).toMatchObject({ conflict: clash.id });
  });
});
