/**
 * A day-use walk-in at the desk, offline: a type booked for day use is sold
 * in blocks of its time from now, priced by core's `quoteDayUse` as the
 * server prices it, into a room no stay holds for those hours; the command
 * carries the hours, the board shows the guest arriving, and the stay checks
 * in with its one "night" due at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, commandPayloads, quoteDayUse, type PullDocument } from '@tz/core';
import { settle, type TestTill } from '../../../../test/till-data.ts';
import { GUEST, TODAY, boardRoom, desk, double, openDesk, property, pushed, stay } from './desk-fixtures.ts';
import { levySettingsOf, pricedRoomType } from './desk-state.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

const siesta: PullDocument<'room_types'> = {
  ...double,
  id: 'rt_siesta',
  name: 'Siesta',
  day_use_rate: 15_000,
  day_use_block_minutes: 60,
  booking_mode: 'day_use',
};
const dayRoom = (number: string): PullDocument<'rooms'> => ({
  id: `room_${number}`,
  _deleted: false,
  room_type: 'rt_siesta',
  number,
  floor: '3',
  housekeeping: 'clean',
});
// The test clock is 12:00 at the property.
const NOON = Date.parse(`${TODAY}T12:00:00+03:00`) / 1000;
const HOUR = 3_600;

describe('a day-use walk-in', () => {
  it('is quoted by the block rate into a room free for its hours, queued with them, and checked in', async () => {
    // Room 301 is held from 12:00 to 14:00 by another day-use guest.
    const held = {
      ...stay('resv_01kb00000000000000000000d1', { arrival: TODAY, departure: addDays(TODAY, 1) }),
      arrival: null,
      departure: null,
      room_type: 'rt_siesta',
      room: 'room_301',
      mode: 'day_use' as const,
      starts_at: NOON,
      ends_at: NOON + 2 * HOUR,
      quote: null,
    };
    const t = (till = await openDesk([held], [dayRoom('301'), dayRoom('302')], [], property, [
      double,
      siesta,
    ]));
    await desk(t);
    const request = {
      roomType: 'rt_siesta',
      nights: 0,
      blocks: 3,
      adults: 2,
      children: 0,
      guestName: 'Rehema',
    };
    const quoted = await t.store.quoteWalkIn(request);
    expect(quoted).toMatchObject({
      arrival: TODAY,
      departure: TODAY,
      dayUse: { startsAt: NOON, endsAt: NOON + 3 * HOUR },
      room: 'room_302',
      freeRooms: ['room_302'],
    });
    expect(quoted.quote).toEqual(
      quoteDayUse(pricedRoomType(siesta, []), levySettingsOf(property), {
        starts_at: NOON,
        ends_at: NOON + 3 * HOUR,
        adults: 2,
        children: 0,
      }),
    );
    expect(quoted.quote).toMatchObject({ blocks: 3, nights: 0, room_charge: 45_000 });
    // From 14:00 room 301 is free again: an hour's stay then would get it; one past midnight is refused.
    await expect(t.store.quoteWalkIn({ ...request, blocks: 13 })).rejects.toMatchObject({
      code: 'invalid',
      details: { field: 'blocks' },
    });
    await expect(t.store.quoteWalkIn({ ...request, blocks: 0 })).rejects.toMatchObject({ code: 'invalid' });

    const made = await t.store.walkIn(request);
    expect(made.room).toBe('room_302');
    let view = await desk(t, (v) => v.arrivals.some((a) => a.id === made.reservation));
    expect(boardRoom(view, '302').state).toBe('arriving');
    expect(view.arrivals.find((a) => a.id === made.reservation)).toMatchObject({
      guestName: 'Rehema',
      nights: 0,
      total: quoted.quote.total,
      hours: { startsAt: NOON, endsAt: NOON + 3 * HOUR },
    });
    await settle(() => expect(pushed(t)).toHaveLength(1));
    const command = pushed(t)[0]!;
    expect(command.payload).toEqual({
      reservation: made.reservation,
      room_type: 'rt_siesta',
      room: 'room_302',
      starts_at: NOON,
      ends_at: NOON + 3 * HOUR,
      adults: 2,
      children: 0,
      guest: { name: 'Rehema' },
      at: NOON,
    });
    expect(commandPayloads['reservation.create'].safeParse(command.payload).success).toBe(true);
    // No room of the type is left for those hours.
    expect((await t.store.quoteWalkIn(request)).freeRooms).toEqual([]);

    // Checked in before anything syncs: in house and leaving today, owing the whole price at once.
    await t.store.checkIn({ reservation: made.reservation, guests: [{ ...GUEST, name: 'Rehema' }] });
    view = await desk(t, (v) => v.inHouse.some((s) => s.id === made.reservation));
    expect(boardRoom(view, '302').state).toBe('departing');
    expect(view.departures.map((d) => d.id)).toContain(made.reservation);
    expect(await t.store.balanceOf(made.reservation)).toBe(quoted.quote.total);
  });
});
