/** The hospitality objects as the `/v1` API answers them, and what the tabs share. */
import type { BookingMode, ConfirmationMode, HousekeepingStatus, ReservationStatus } from '@tz/core';
import { addDays } from '@tz/core/hospitality/stay';
import type { MessageKey } from '../../i18n/index.ts';

export interface Property {
  name: string;
  address_lines: string[];
  phone: string | null;
  check_in_time: string;
  check_out_time: string;
  star_rating: number | null;
  region: 'mainland' | 'zanzibar';
  usd_rate: number | null;
  hotel_levy_bps: number | null;
  tourism_levy_bps: number | null;
  infrastructure_tax_usd: number | null;
  vat_bps: number | null;
  booking_mode: BookingMode;
  confirmation: ConfirmationMode;
}
export interface Summary {
  property: Property;
  date: string;
  room_types: number;
  rooms: number;
  rooms_out_of_order: number;
  arrivals: number;
  departures: number;
  in_house: number;
  pending: number;
}
export interface Rate {
  id: string;
  room_type: string;
  starts_on: string;
  ends_on: string;
  days_of_week: number[] | null;
  rate: number;
}
export interface RoomType {
  id: string;
  name: string;
  description: string | null;
  max_adults: number;
  max_children: number;
  base_rate: number;
  day_use_rate: number | null;
  day_use_block_minutes: number;
  booking_mode: BookingMode | null;
  confirmation: ConfirmationMode | null;
  rates: Rate[];
  rooms: number;
  archived: boolean;
}
export interface Room {
  id: string;
  room_type: string;
  number: string;
  floor: string | null;
  housekeeping: HousekeepingStatus;
  archived: boolean;
}
export interface Blackout {
  id: string;
  room_type: string | null;
  room: string | null;
  starts_on: string;
  ends_on: string;
  reason: string | null;
}
export interface Quote {
  nights: number;
  night_lines: Array<{ date: string; rate: number; rate_id: string | null }>;
  room_charge: number;
  levies: Array<{
    kind: 'hotel_levy' | 'tourism_levy' | 'infrastructure_tax';
    basis: number;
    rate: number;
    amount: number;
  }>;
  vat: { rate: number; amount: number };
  total: number;
}
export interface Reservation {
  id: string;
  status: ReservationStatus;
  room_type: string;
  room: string | null;
  mode: BookingMode;
  arrival: string | null;
  departure: string | null;
  adults: number;
  children: number;
  guest: { name: string; phone: string | null; email: string | null };
  notes: string | null;
  source: 'front_desk' | 'api' | 'channel';
  quote: Quote;
  total: number;
  currency: string;
  created: number;
}
export interface Availability {
  data: Array<{
    room_type: RoomType;
    free_rooms: number;
    quote: Quote | null;
    unavailable_reason: string | null;
  }>;
}

export const STATUS_WORDS: Record<ReservationStatus, MessageKey> = {
  pending: 'hospPending',
  confirmed: 'hospConfirmed',
  checked_in: 'hospCheckedIn',
  checked_out: 'hospCheckedOut',
  canceled: 'hospCanceled',
  no_show: 'hospNoShow',
};
export const HOUSEKEEPING_WORDS: Record<HousekeepingStatus, MessageKey> = {
  clean: 'hospClean',
  dirty: 'hospDirty',
  inspected: 'hospInspected',
  out_of_order: 'hospOutOfOrder',
};
export const MODE_WORDS: Record<BookingMode, MessageKey> = {
  nightly: 'hospNightly',
  day_use: 'hospDayUse',
};
export const CONFIRMATION_WORDS: Record<ConfirmationMode, MessageKey> = {
  instant: 'hospInstant',
  on_request: 'hospOnRequest',
};
/** 0 = Sunday, as the API counts weekdays. */
export const WEEKDAY_WORDS: readonly MessageKey[] = [
  'hospSun',
  'hospMon',
  'hospTue',
  'hospWed',
  'hospThu',
  'hospFri',
  'hospSat',
];

/** The words of the hospitality calls' fields, for a refusal that names them. */
export const HOSPITALITY_ERRORS = {
  fields: {
    name: 'hospName',
    number: 'hospRoomNumber',
    floor: 'hospFloor',
    room: 'hospRoom',
    room_type: 'hospRoomType',
    guests: 'hospGuestName',
    'guests.0.name': 'hospGuestName',
    'guests.0.nationality': 'hospNationality',
    'guests.0.id_number': 'hospIdNumber',
    'guests.0.id_country': 'hospIdCountry',
    'guests.0.arriving_from': 'hospComingFrom',
    'guests.0.going_to': 'hospGoingTo',
    starts_on: 'hospFrom',
    ends_on: 'hospTo',
    arrival: 'hospArrival',
    departure: 'hospDeparture',
    adults: 'hospAdults',
    children: 'hospChildren',
    base_rate: 'hospBaseRate',
    rate: 'hospPrice',
    day_use_rate: 'hospDayUseRate',
    day_use_block_minutes: 'hospBlockMinutes',
    max_adults: 'hospMaxAdults',
    max_children: 'hospMaxChildren',
    check_in_time: 'hospCheckInTime',
    check_out_time: 'hospCheckOutTime',
    star_rating: 'hospStars',
    usd_rate: 'hospUsdRate',
    hotel_levy_bps: 'hospHotelLevy',
    tourism_levy_bps: 'hospTourismLevy',
    infrastructure_tax_usd: 'hospInfrastructureTax',
    vat_bps: 'hospVat',
    days_of_week: 'hospWeekdays',
    housekeeping: 'hospHousekeeping',
    'guest.name': 'hospGuestName',
    guest: 'hospGuestName',
    reason: 'hospReason',
  },
} as const satisfies { fields: Record<string, MessageKey> };

/** `2026-12-01` as "Tue 1 Dec" in the page's language (a calendar date: read at UTC, never shifted). */
export function dayLabel(date: string, language: 'sw' | 'en', withWeekday = true): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(language === 'sw' ? 'sw-TZ' : 'en-GB', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    ...(withWeekday ? { weekday: 'short' } : {}),
  });
}

/** The dates from `start`, `days` of them. */
export const datesFrom = (start: string, days: number): string[] =>
  Array.from({ length: days }, (_, index) => addDays(start, index));

/** A room as people name it: its number, and its type. */
export const roomName = (room: Room | undefined, types: readonly RoomType[]): string =>
  room ? `${room.number} · ${types.find((type) => type.id === room.room_type)?.name ?? ''}` : '';

/** Basis points as a percentage people read ("12", "1.5"). */
export const percentOf = (bps: number): string => String(bps / 100);

/** A typed percentage ("12", "1.5", "0") as basis points, or null when it is not one. */
export function typedPercent(text: string): number | null {
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const bps = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return bps <= 10_000 ? bps : null;
}
