/** Hospitality's rows as the database keeps them and as the API shows them. */
import type {
  BookingMode,
  ConfirmationMode,
  HousekeepingStatus,
  LevySettings,
  PricedRoomType,
  PropertyTimeZone,
  ReservationStatus,
  StarRating,
  StayQuote,
  VatRegion,
} from '@tz/core';
import { unixOrNull, unixSeconds } from '../infra/time.ts';

export interface PropertyRow {
  merchant_id: string;
  livemode: boolean;
  name: string;
  address_lines: string[];
  phone: string | null;
  time_zone: PropertyTimeZone;
  check_in_time: string;
  check_out_time: string;
  star_rating: StarRating | null;
  region: VatRegion;
  usd_rate: number | null;
  hotel_levy_bps: number | null;
  tourism_levy_bps: number | null;
  infrastructure_tax_usd: number | null;
  vat_bps: number | null;
  booking_mode: BookingMode;
  confirmation: ConfirmationMode;
  created_at: Date;
  updated_at: Date;
}

export const levySettingsOf = (row: PropertyRow): LevySettings => ({
  region: row.region,
  star_rating: row.star_rating,
  usd_rate: row.usd_rate,
  hotel_levy_bps: row.hotel_levy_bps,
  tourism_levy_bps: row.tourism_levy_bps,
  infrastructure_tax_usd: row.infrastructure_tax_usd,
  vat_bps: row.vat_bps,
});

export const propertyObject = (row: PropertyRow) => ({
  object: 'hospitality_property' as const,
  name: row.name,
  address_lines: row.address_lines,
  phone: row.phone,
  time_zone: row.time_zone,
  check_in_time: row.check_in_time,
  check_out_time: row.check_out_time,
  star_rating: row.star_rating,
  region: row.region,
  usd_rate: row.usd_rate,
  hotel_levy_bps: row.hotel_levy_bps,
  tourism_levy_bps: row.tourism_levy_bps,
  infrastructure_tax_usd: row.infrastructure_tax_usd,
  vat_bps: row.vat_bps,
  booking_mode: row.booking_mode,
  confirmation: row.confirmation,
  livemode: row.livemode,
  updated: unixSeconds(row.updated_at),
});

export interface RoomTypeRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  name: string;
  description: string | null;
  max_adults: number;
  max_children: number;
  base_rate: number;
  day_use_rate: number | null;
  day_use_block_minutes: number;
  booking_mode: BookingMode | null;
  confirmation: ConfirmationMode | null;
  metadata: Record<string, string>;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface RateRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  room_type_id: string;
  starts_on: string;
  ends_on: string;
  days_of_week: number[] | null;
  rate: number;
  created_at: Date;
}

export const rateObject = (row: RateRow) => ({
  id: row.id,
  object: 'room_rate' as const,
  room_type: row.room_type_id,
  starts_on: row.starts_on,
  ends_on: row.ends_on,
  days_of_week: row.days_of_week,
  rate: row.rate,
  currency: 'TZS' as const,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
});

export const roomTypeObject = (row: RoomTypeRow, rates: RateRow[], roomCount: number) => ({
  id: row.id,
  object: 'room_type' as const,
  name: row.name,
  description: row.description,
  max_adults: row.max_adults,
  max_children: row.max_children,
  base_rate: row.base_rate,
  day_use_rate: row.day_use_rate,
  day_use_block_minutes: row.day_use_block_minutes,
  currency: 'TZS' as const,
  booking_mode: row.booking_mode,
  confirmation: row.confirmation,
  rates: rates.map(rateObject),
  rooms: roomCount,
  archived: row.archived_at !== null,
  metadata: row.metadata,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  updated: unixSeconds(row.updated_at),
});
export type RoomTypeObject = ReturnType<typeof roomTypeObject>;

/** What core's quote reads of a room type. */
export const pricedRoomType = (row: RoomTypeRow, rates: RateRow[]): PricedRoomType => ({
  base_rate: row.base_rate,
  rates: rates.map((rate) => ({
    id: rate.id,
    starts_on: rate.starts_on,
    ends_on: rate.ends_on,
    days_of_week: rate.days_of_week,
    rate: rate.rate,
  })),
  max_adults: row.max_adults,
  max_children: row.max_children,
  day_use_block_minutes: row.day_use_block_minutes,
  day_use_rate: row.day_use_rate,
});

export interface RoomRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  room_type_id: string;
  number: string;
  floor: string | null;
  housekeeping: HousekeepingStatus;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const roomObject = (row: RoomRow) => ({
  id: row.id,
  object: 'room' as const,
  room_type: row.room_type_id,
  number: row.number,
  floor: row.floor,
  housekeeping: row.housekeeping,
  archived: row.archived_at !== null,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  updated: unixSeconds(row.updated_at),
});

export interface BlackoutRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  room_type_id: string | null;
  room_id: string | null;
  starts_on: string;
  ends_on: string;
  reason: string | null;
  deleted_at: Date | null;
  created_at: Date;
}

export const blackoutObject = (row: BlackoutRow) => ({
  id: row.id,
  object: 'blackout' as const,
  room_type: row.room_type_id,
  room: row.room_id,
  starts_on: row.starts_on,
  ends_on: row.ends_on,
  reason: row.reason,
  deleted: row.deleted_at !== null,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
});

export interface ReservationRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  room_type_id: string;
  room_id: string | null;
  status: ReservationStatus;
  mode: BookingMode;
  arrival: string | null;
  departure: string | null;
  starts_at: Date;
  ends_at: Date;
  adults: number;
  children: number;
  guest_name: string;
  guest_phone: string | null;
  guest_email: string | null;
  customer_id: string | null;
  notes: string | null;
  source: 'front_desk' | 'api' | 'channel';
  quote: StayQuote;
  total: number;
  currency: 'TZS';
  metadata: Record<string, string>;
  confirmed_at: Date | null;
  checked_in_at: Date | null;
  checked_out_at: Date | null;
  canceled_at: Date | null;
  /** The folio's closing at check-out: its balance then, and a manager's override when it was not zero. */
  folio_closed_at: Date | null;
  folio_closing_balance: number | null;
  folio_override_reason: string | null;
  folio_override_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export const reservationObject = (row: ReservationRow) => ({
  id: row.id,
  object: 'reservation' as const,
  status: row.status,
  room_type: row.room_type_id,
  room: row.room_id,
  mode: row.mode,
  arrival: row.arrival,
  departure: row.departure,
  starts_at: unixSeconds(row.starts_at),
  ends_at: unixSeconds(row.ends_at),
  adults: row.adults,
  children: row.children,
  guest: { name: row.guest_name, phone: row.guest_phone, email: row.guest_email },
  customer: row.customer_id,
  notes: row.notes,
  source: row.source,
  quote: row.quote,
  total: row.total,
  currency: row.currency,
  metadata: row.metadata,
  confirmed: unixOrNull(row.confirmed_at),
  checked_in: unixOrNull(row.checked_in_at),
  checked_out: unixOrNull(row.checked_out_at),
  canceled: unixOrNull(row.canceled_at),
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  updated: unixSeconds(row.updated_at),
});
export type ReservationObject = ReturnType<typeof reservationObject>;
