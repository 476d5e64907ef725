/**
 * A walk-in's stay and price, from what the till holds: its nights from the
 * arrival, or for a type booked for day use (core's `bookingModeOf`) its
 * blocks from now, the same day; priced by core's quote as the server prices
 * it, with the free rooms of the type for it on this till's board.
 */
import { addDays, bookingModeOf } from '@tz/core';
import { TillRefusal, type WalkInQuote, type WalkInRequest } from '../api.ts';
import { deskToday, quoteDayUseStay, quoteStay, type DeskData, type Overlaid } from './desk-state.ts';
import { freeRooms, freeRoomsAt } from './desk-view.ts';

function walkInStay(data: DeskData, request: WalkInRequest, nowMs: number) {
  const type = data.roomTypes.find((candidate) => candidate.id === request.roomType);
  if (!type || !data.property) throw new TillRefusal('not_found', 'No such room type on this till');
  if (bookingModeOf(data.property, type) === 'day_use') {
    const blocks = request.blocks ?? 0;
    if (!Number.isInteger(blocks) || blocks < 1)
      throw new TillRefusal('invalid', 'At least one block of time', { field: 'blocks' });
    const startsAt = Math.floor(nowMs / 60_000) * 60;
    const endsAt = startsAt + blocks * type.day_use_block_minutes * 60;
    const day = deskToday(startsAt * 1000);
    // Day use is the hours of one day: the stay is out by midnight at the property.
    if (deskToday(endsAt * 1000 - 1) !== day)
      throw new TillRefusal('invalid', 'A day-use stay ends the same day', { field: 'blocks' });
    return { arrival: day, departure: day, dayUse: { startsAt, endsAt } };
  }
  const arrival = request.arrival ?? deskToday(nowMs);
  if (!Number.isInteger(request.nights) || request.nights < 1)
    throw new TillRefusal('invalid', 'At least one night', { field: 'nights' });
  return { arrival, departure: addDays(arrival, request.nights), dayUse: null };
}

export function walkInQuote(
  data: DeskData,
  overlaid: Pick<Overlaid, 'rooms' | 'reservations'>,
  request: WalkInRequest,
  nowMs: number,
): WalkInQuote {
  const stay = walkInStay(data, request, nowMs);
  const party = { roomType: request.roomType, adults: request.adults, children: request.children };
  const quote = stay.dayUse
    ? quoteDayUseStay(data, { ...party, ...stay.dayUse })
    : quoteStay(data, { ...party, arrival: stay.arrival, departure: stay.departure });
  const free = stay.dayUse
    ? freeRoomsAt(overlaid, data.property!, request.roomType, stay.dayUse.startsAt, stay.dayUse.endsAt)
    : freeRooms(overlaid, request.roomType, stay.arrival, stay.departure);
  return { ...stay, quote, room: free[0]?.id ?? null, freeRooms: free.map((room) => room.id) };
}
