/**
 * The front desk as this till knows it: the pulled property, rooms, rates and
 * stays with the desk's own steps laid over them, so a check-in queued offline
 * shows the room occupied at once. The server checks every step again when it
 * arrives; a step it refused is not laid over (the board shows the server's
 * state) and is listed as a conflict to resolve.
 *
 * Pure functions of plain documents: the store (`front-desk.ts`) feeds them.
 */
import {
  eastAfricaDate,
  nightsOf,
  quoteDayUse,
  quoteNights,
  shillingsOf,
  type ForeignTender,
  type HousekeepingStatus,
  type LevySettings,
  type PricedRoomType,
  type PullDocument,
  type StarRating,
  type StayQuote,
} from '@tz/core';
import type { CommandStatus } from '../store/schema.ts';

export type PropertyDoc = PullDocument<'property'>;
export type RoomTypeDoc = PullDocument<'room_types'>;
export type RoomDoc = PullDocument<'rooms'>;
export type RoomRateDoc = PullDocument<'room_rates'>;
export type ReservationDoc = PullDocument<'reservations'>;
export type DeskConflictDoc = PullDocument<'desk_conflicts'>;

/** What the desk pulled, as stored in `records`. */
export interface DeskData {
  property: PropertyDoc | null;
  roomTypes: RoomTypeDoc[];
  rooms: RoomDoc[];
  rates: RoomRateDoc[];
  reservations: ReservationDoc[];
  /** Clashes between desks the server recorded, unresolved. */
  conflicts: DeskConflictDoc[];
}

/** The front desk's command types: the ones laid over the board and listed as conflicts. */
export const DESK_COMMAND_TYPES = [
  'reservation.create',
  'reservation.check_in',
  'reservation.move',
  'folio.payment',
  'reservation.check_out',
  'room.housekeeping',
] as const;
export type DeskCommandType = (typeof DESK_COMMAND_TYPES)[number];

/** What the desk reads of an outbox command. */
export interface DeskCommand {
  id: string;
  type: DeskCommandType;
  status: CommandStatus;
  payload: Record<string, unknown>;
  error: { code: string; message: string } | null;
  /** Unix ms, once the server answered. */
  synced_at: number | null;
}

/** An applied step is still laid over for this long: until the pull brings the server's state back. */
export const APPLIED_OVERLAY_MS = 10 * 60 * 1000;

// --------------------------------------------------------------- pricing

export const levySettingsOf = (property: PropertyDoc): LevySettings => ({
  region: property.region,
  star_rating: property.star_rating as StarRating | null,
  usd_rate: property.usd_rate,
  hotel_levy_bps: property.hotel_levy_bps,
  tourism_levy_bps: property.tourism_levy_bps,
  infrastructure_tax_usd: property.infrastructure_tax_usd,
  vat_bps: property.vat_bps,
});

/** A room type with its rates in the order they were made (ids are time-ordered), as the quote takes it. */
export function pricedRoomType(type: RoomTypeDoc, rates: readonly RoomRateDoc[]): PricedRoomType {
  return {
    base_rate: type.base_rate,
    rates: rates
      .filter((rate) => rate.room_type === type.id)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map(({ id, starts_on, ends_on, days_of_week, rate }) => ({
        id,
        starts_on,
        ends_on,
        days_of_week,
        rate,
      })),
    max_adults: type.max_adults,
    max_children: type.max_children,
    day_use_block_minutes: type.day_use_block_minutes,
    day_use_rate: type.day_use_rate,
  };
}

export interface StayAsked {
  roomType: string;
  arrival: string;
  departure: string;
  adults: number;
  children: number;
}

/** A day-use stay asked: whole blocks between two instants (unix seconds). */
export interface DayUseAsked {
  roomType: string;
  startsAt: number;
  endsAt: number;
  adults: number;
  children: number;
}

function pricing(data: DeskData, roomType: string) {
  const type = data.roomTypes.find((candidate) => candidate.id === roomType);
  if (!data.property || !type) throw new Error('The room type is not on this till');
  return { type: pricedRoomType(type, data.rates), settings: levySettingsOf(data.property) };
}

/** A nightly stay's quote from the pulled property, type and rates: core's `quoteNights`, as the server prices it. */
export function quoteStay(data: DeskData, stay: StayAsked): StayQuote {
  const { type, settings } = pricing(data, stay.roomType);
  return quoteNights(type, settings, stay);
}

/** A day-use stay's quote by the type's block rate: core's `quoteDayUse`, as the server prices it. */
export function quoteDayUseStay(data: DeskData, stay: DayUseAsked): StayQuote {
  const { type, settings } = pricing(data, stay.roomType);
  return quoteDayUse(type, settings, { ...stay, starts_at: stay.startsAt, ends_at: stay.endsAt });
}

// ---------------------------------------------------------------- dates

/** The property's date now: every property keeps East Africa Time. */
export const deskToday = (nowMs: number): string => eastAfricaDate(new Date(nowMs));

/** A stay's first and last dates: a day-use stay's are its day. */
export function stayDates(stay: ReservationDoc): { arrival: string; departure: string } {
  return {
    arrival: stay.arrival ?? eastAfricaDate(new Date(stay.starts_at * 1000)),
    departure: stay.departure ?? eastAfricaDate(new Date(stay.ends_at * 1000)),
  };
}

/** Unix ms of a date's clock time (`14:00`) at the property. */
const atProperty = (date: string, time: string) => Date.parse(`${date}T${time}:00+03:00`);

/**
 * When a stay holds its room, unix seconds: a day-use stay its hours, a
 * nightly one from the arrival's check-in time to the departure's check-out.
 */
export function stayInstants(
  stay: ReservationDoc,
  property: PropertyDoc,
): { startsAt: number; endsAt: number } {
  if (stay.mode === 'day_use' || !stay.arrival || !stay.departure)
    return { startsAt: stay.starts_at, endsAt: stay.ends_at };
  return {
    startsAt: atProperty(stay.arrival, property.check_in_time) / 1000,
    endsAt: atProperty(stay.departure, property.check_out_time) / 1000,
  };
}

/** The nights due by `nowMs`: each at the check-in time of its date, all once the departure has come. */
export function nightsDue(stay: ReservationDoc, property: PropertyDoc, nowMs: number): number {
  if (stay.mode === 'day_use') return nowMs >= stay.starts_at * 1000 ? 1 : 0;
  if (!stay.arrival || !stay.departure) return 0;
  if (deskToday(nowMs) >= stay.departure) return nightsOf(stay.arrival, stay.departure).length;
  return nightsOf(stay.arrival, stay.departure).filter(
    (night) => atProperty(night, property.check_in_time) <= nowMs,
  ).length;
}

// -------------------------------------------------------------- overlay

export interface Overlaid {
  rooms: RoomDoc[];
  reservations: ReservationDoc[];
  /** Shillings taken at this desk per reservation, not yet applied by the server. */
  unsyncedPayments: Map<string, number>;
  /** Reservations with a step still waiting to sync. */
  waiting: Set<string>;
}

export const HOLDING = new Set(['pending', 'confirmed', 'checked_in']);

/** Whether a step's effect belongs on the board: waiting, or applied so lately that the pull may not have it yet. */
function laidOver(command: DeskCommand, nowMs: number, forwardOnly: boolean): boolean {
  if (command.status === 'pending') return true;
  return (
    forwardOnly &&
    command.status === 'applied' &&
    command.synced_at !== null &&
    nowMs - command.synced_at < APPLIED_OVERLAY_MS
  );
}

/** A reservation made at this desk, as the server will make it, before it comes back in a pull. */
function createdHere(data: DeskData, payload: Record<string, unknown>): ReservationDoc {
  const p = payload as {
    reservation: string;
    room_type: string;
    room?: string;
    guest: { name: string; phone?: string };
    at: number;
    adults?: number;
    children?: number;
  } & ({ arrival: string; departure: string } | { starts_at: number; ends_at: number });
  const adults = p.adults ?? 1;
  const children = p.children ?? 0;
  const party = { roomType: p.room_type, adults, children };
  let quote: StayQuote | null = null;
  try {
    quote =
      'arrival' in p
        ? quoteStay(data, { ...party, arrival: p.arrival, departure: p.departure })
        : quoteDayUseStay(data, { ...party, startsAt: p.starts_at, endsAt: p.ends_at });
  } catch {
    quote = null;
  }
  const type = data.roomTypes.find((candidate) => candidate.id === p.room_type);
  const onRequest = (type?.confirmation ?? data.property?.confirmation) === 'on_request';
  const checkIn = data.property?.check_in_time ?? '14:00';
  const checkOut = data.property?.check_out_time ?? '10:00';
  return {
    id: p.reservation,
    _deleted: false,
    room_type: p.room_type,
    room: p.room ?? null,
    status: onRequest ? 'pending' : 'confirmed',
    ...('arrival' in p
      ? {
          mode: 'nightly' as const,
          arrival: p.arrival,
          departure: p.departure,
          starts_at: Math.floor(atProperty(p.arrival, checkIn) / 1000),
          ends_at: Math.floor(atProperty(p.departure, checkOut) / 1000),
        }
      : {
          mode: 'day_use' as const,
          arrival: null,
          departure: null,
          starts_at: p.starts_at,
          ends_at: p.ends_at,
        }),
    adults,
    children,
    guest_name: p.guest.name,
    guest_phone: p.guest.phone ?? null,
    source: 'front_desk',
    quote,
    total: quote?.total ?? 0,
    folio_balance: 0,
    folio_nights_posted: 0,
    registered_guests: 0,
    checked_in_at: null,
    checked_out_at: null,
  };
}

/** The pulled documents with the desk's own steps applied, in the order they were taken. */
export function overlay(data: DeskData, commands: readonly DeskCommand[], nowMs: number): Overlaid {
  const rooms = new Map(data.rooms.map((room) => [room.id, { ...room }]));
  // A stay is copied only when a step changes it: a hotel's till holds thousands.
  const stays = new Map(data.reservations.map((stay) => [stay.id, stay]));
  const copied = new Set<string>();
  const ownCopy = (id: string): ReservationDoc | undefined => {
    const stay = stays.get(id);
    if (!stay || copied.has(id)) return stay;
    const copy = { ...stay };
    stays.set(id, copy);
    copied.add(id);
    return copy;
  };
  const unsyncedPayments = new Map<string, number>();
  const waiting = new Set<string>();
  for (const command of [...commands].sort((a, b) => a.id.localeCompare(b.id))) {
    const p = command.payload as { reservation?: string; room?: string; at?: number };
    const stay = p.reservation ? ownCopy(p.reservation) : undefined;
    if (command.status === 'pending' && p.reservation) waiting.add(p.reservation);
    switch (command.type) {
      case 'reservation.create':
        if (laidOver(command, nowMs, true) && p.reservation && !stays.has(p.reservation)) {
          stays.set(p.reservation, createdHere(data, command.payload));
          copied.add(p.reservation);
        }
        break;
      case 'reservation.check_in':
        if (
          laidOver(command, nowMs, true) &&
          stay &&
          (stay.status === 'confirmed' || stay.status === 'pending')
        ) {
          stay.status = 'checked_in';
          stay.room = p.room ?? stay.room;
          stay.checked_in_at = p.at ?? null;
          stay.registered_guests += ((command.payload.guests as unknown[] | undefined) ?? []).length;
        }
        break;
      case 'reservation.move':
        if (laidOver(command, nowMs, false) && stay && p.room) stay.room = p.room;
        break;
      case 'folio.payment':
        if (laidOver(command, nowMs, false) && p.reservation) {
          const paid = command.payload as { amount?: number; foreign?: ForeignTender };
          const amount = paid.amount ?? (paid.foreign ? shillingsOf(paid.foreign) : 0);
          unsyncedPayments.set(p.reservation, (unsyncedPayments.get(p.reservation) ?? 0) + amount);
        }
        break;
      case 'reservation.check_out':
        if (laidOver(command, nowMs, true) && stay && stay.status === 'checked_in') {
          stay.status = 'checked_out';
          stay.checked_out_at = p.at ?? null;
          // The server marks the room dirty as the guest leaves.
          const room = stay.room ? rooms.get(stay.room) : undefined;
          if (room && room.housekeeping !== 'out_of_order' && command.status === 'pending')
            room.housekeeping = 'dirty';
        }
        break;
      case 'room.housekeeping': {
        const room = p.room ? rooms.get(p.room) : undefined;
        if (laidOver(command, nowMs, false) && room)
          room.housekeeping = command.payload.housekeeping as HousekeepingStatus;
        break;
      }
    }
  }
  return { rooms: [...rooms.values()], reservations: [...stays.values()], unsyncedPayments, waiting };
}

// --------------------------------------------------------------- the view
