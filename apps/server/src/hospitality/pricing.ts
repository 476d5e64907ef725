/**
 * A requested stay read from a query or a booking, placed in time and priced
 * by core's quote under the room type's booking mode: shared by availability
 * and booking, so both quote the same.
 */
import type { z } from 'zod';
import {
  bookingModeOf,
  invalidField,
  quoteDayUse,
  quoteNights,
  type BookingMode,
  type Party,
  type StayQuote,
  type reservationCreateBody,
} from '@tz/core';
import {
  levySettingsOf,
  pricedRoomType,
  type PropertyRow,
  type RateRow,
  type RoomTypeRow,
} from './objects.ts';
import { nightlyStay, type Stay } from './stays.ts';

type ReservationInput = z.output<typeof reservationCreateBody>;

/** Nightly dates, or a day-use stay's instants. */
export type StayRequest = { arrival: string; departure: string } | { starts_at: number; ends_at: number };

export interface AvailabilityQuery extends Party {
  arrival?: string | undefined;
  departure?: string | undefined;
  starts_at?: number | undefined;
  ends_at?: number | undefined;
  room_type?: string | undefined;
}

export function stayRequestOf(value: AvailabilityQuery | ReservationInput): StayRequest {
  if (value.arrival !== undefined && value.departure !== undefined)
    return { arrival: value.arrival, departure: value.departure };
  if (value.starts_at !== undefined && value.ends_at !== undefined)
    return { starts_at: value.starts_at, ends_at: value.ends_at };
  throw invalidField(
    'parameter_missing',
    'arrival',
    'give arrival and departure, or starts_at and ends_at for day use',
  );
}

/** Where the stay sits in time: from the arrival's check-in to the departure's check-out, or its own instants. */
export function stayOf(property: PropertyRow, request: StayRequest): Stay {
  return 'arrival' in request
    ? nightlyStay(property, request.arrival, request.departure)
    : { starts_at: new Date(request.starts_at * 1000), ends_at: new Date(request.ends_at * 1000) };
}

/** The stay's price by the room type's booking mode; a stay of the other kind is refused. */
export function priceStay(
  property: PropertyRow,
  roomType: RoomTypeRow,
  rates: RateRow[],
  request: StayRequest,
  party: Party,
): { quote: StayQuote; mode: BookingMode } {
  const mode = bookingModeOf(property, roomType);
  const priced = pricedRoomType(roomType, rates);
  const settings = levySettingsOf(property);
  if ('arrival' in request) {
    if (mode !== 'nightly')
      throw invalidField(
        'parameter_invalid',
        'arrival',
        `${roomType.name} is booked for day use: give starts_at and ends_at`,
      );
    return { mode, quote: quoteNights(priced, settings, { ...request, ...party }) };
  }
  if (mode !== 'day_use')
    throw invalidField(
      'parameter_invalid',
      'starts_at',
      `${roomType.name} is booked by the night: give arrival and departure`,
    );
  return { mode, quote: quoteDayUse(priced, settings, { ...request, ...party }) };
}
