import { z } from 'zod';
import {
  BOOKING_MODES,
  CONFIRMATION_MODES,
  HOUSEKEEPING_STATUSES,
  PROPERTY_TIME_ZONES,
  RESERVATION_SOURCES,
  RESERVATION_STATUSES,
  VAT_REGIONS,
} from '@tz/core';
import { livemode, unix } from '../schemas.ts';

/** The hospitality objects as the API shows them. */

export const tag = 'Hospitality';

const date = z.string().describe('YYYY-MM-DD');
const nullableBps = z.number().int().nullable();

export const propertySchema = z.object({
  object: z.literal('hospitality_property'),
  name: z.string(),
  address_lines: z.array(z.string()),
  phone: z.string().nullable(),
  time_zone: z.enum(PROPERTY_TIME_ZONES),
  check_in_time: z.string().describe('HH:MM'),
  check_out_time: z.string().describe('HH:MM'),
  star_rating: z.number().int().nullable(),
  region: z.enum(VAT_REGIONS),
  usd_rate: z.number().int().nullable(),
  hotel_levy_bps: nullableBps,
  tourism_levy_bps: nullableBps,
  infrastructure_tax_usd: z.number().int().nullable(),
  vat_bps: nullableBps,
  booking_mode: z.enum(BOOKING_MODES),
  confirmation: z.enum(CONFIRMATION_MODES),
  livemode,
  updated: unix,
});

export const rateSchema = z.object({
  id: z.string().describe('Begins with rate_'),
  object: z.literal('room_rate'),
  room_type: z.string(),
  starts_on: date,
  ends_on: date,
  days_of_week: z.array(z.number().int()).nullable(),
  rate: z.number().int(),
  currency: z.literal('TZS'),
  livemode,
  created: unix,
});

export const roomTypeSchema = z.object({
  id: z.string().describe('Begins with rt_'),
  object: z.literal('room_type'),
  name: z.string(),
  description: z.string().nullable(),
  max_adults: z.number().int(),
  max_children: z.number().int(),
  base_rate: z.number().int(),
  day_use_rate: z.number().int().nullable(),
  day_use_block_minutes: z.number().int(),
  currency: z.literal('TZS'),
  booking_mode: z.enum(BOOKING_MODES).nullable().describe('null: the property’s'),
  confirmation: z.enum(CONFIRMATION_MODES).nullable().describe('null: the property’s'),
  rates: z.array(rateSchema),
  rooms: z.number().int().describe('Rooms of the type in use'),
  archived: z.boolean(),
  metadata: z.record(z.string(), z.string()),
  livemode,
  created: unix,
  updated: unix,
});

export const roomSchema = z.object({
  id: z.string().describe('Begins with room_'),
  object: z.literal('room'),
  room_type: z.string(),
  number: z.string(),
  floor: z.string().nullable(),
  housekeeping: z.enum(HOUSEKEEPING_STATUSES),
  archived: z.boolean(),
  livemode,
  created: unix,
  updated: unix,
});

export const blackoutSchema = z.object({
  id: z.string().describe('Begins with blk_'),
  object: z.literal('blackout'),
  room_type: z.string().nullable(),
  room: z.string().nullable(),
  starts_on: date,
  ends_on: date,
  reason: z.string().nullable(),
  deleted: z.boolean(),
  livemode,
  created: unix,
});

const levyLine = z.object({
  kind: z.enum(['hotel_levy', 'tourism_levy', 'infrastructure_tax']),
  basis: z
    .number()
    .int()
    .describe('The room charge in shillings, or person-nights for the infrastructure tax'),
  rate: z.number().int().describe('Basis points, or US dollars per person-night for the infrastructure tax'),
  amount: z.number().int(),
});

export const quoteSchema = z.object({
  nights: z.number().int(),
  blocks: z.number().int().describe('Day use: blocks of day_use_block_minutes'),
  night_lines: z.array(z.object({ date, rate: z.number().int(), rate_id: z.string().nullable() })),
  room_charge: z.number().int(),
  levies: z.array(levyLine),
  vat: z.object({ rate: z.number().int().describe('Basis points'), amount: z.number().int() }),
  total: z.number().int(),
});

export const reservationSchema = z.object({
  id: z.string().describe('Begins with resv_'),
  object: z.literal('reservation'),
  status: z.enum(RESERVATION_STATUSES),
  room_type: z.string(),
  room: z.string().nullable(),
  mode: z.enum(BOOKING_MODES),
  arrival: date.nullable(),
  departure: date.nullable(),
  starts_at: unix.describe('When the stay begins: the arrival’s check-in time, or the day-use start'),
  ends_at: unix.describe('When it ends: the departure’s check-out time, or the day-use end'),
  adults: z.number().int(),
  children: z.number().int(),
  guest: z.object({ name: z.string(), phone: z.string().nullable(), email: z.string().nullable() }),
  customer: z.string().nullable(),
  notes: z.string().nullable(),
  source: z.enum(RESERVATION_SOURCES),
  quote: quoteSchema,
  total: z.number().int(),
  currency: z.literal('TZS'),
  metadata: z.record(z.string(), z.string()),
  confirmed: unix.nullable(),
  checked_in: unix.nullable(),
  checked_out: unix.nullable(),
  canceled: unix.nullable(),
  livemode,
  created: unix,
  updated: unix,
});
