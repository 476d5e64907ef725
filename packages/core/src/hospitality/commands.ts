/**
 * The inputs of the hospitality writes, as zod schemas: the REST routes
 * validate with them (and document them in OpenAPI), and the till's front desk
 * checks a booking made offline with the same rules before it queues the
 * command. Wire names are the API's (snake_case).
 */
import { z } from 'zod';
import { EAST_AFRICA_TIME_ZONE } from '../time.ts';
import { VAT_REGIONS } from '../retail/tax.ts';
import {
  MAX_UNIX_SECONDS,
  metadataSchema,
  priceSchema,
  referenceSchema,
  textSchema,
} from '../retail/commands.ts';
import { HOUSEKEEPING_STATUSES } from './states.ts';
import { isCalendarDate } from './stay.ts';

/**
 * Time zones whose clock is East Africa Time all year (UTC+03:00, no daylight
 * saving): the stay's times are read at that fixed offset.
 */
export const PROPERTY_TIME_ZONES = [
  EAST_AFRICA_TIME_ZONE,
  'Africa/Nairobi',
  'Africa/Kampala',
  'Africa/Addis_Ababa',
  'Indian/Comoro',
] as const;
export type PropertyTimeZone = (typeof PROPERTY_TIME_ZONES)[number];

export const BOOKING_MODES = ['nightly', 'day_use'] as const;
export type BookingMode = (typeof BOOKING_MODES)[number];
/** How a room type is booked: its own mode, else the property's. */
export const bookingModeOf = (
  property: { booking_mode: BookingMode },
  roomType: { booking_mode: BookingMode | null },
): BookingMode => roomType.booking_mode ?? property.booking_mode;

export const CONFIRMATION_MODES = ['instant', 'on_request'] as const;
export type ConfirmationMode = (typeof CONFIRMATION_MODES)[number];

export const calendarDateSchema = z
  .string()
  .refine(isCalendarDate, { error: 'must be a date as YYYY-MM-DD' })
  .describe('A calendar date, YYYY-MM-DD');

export const clockTimeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be a time as HH:MM (24-hour)' });

const unixSeconds = z.number().int({ error: 'must be whole unix seconds' }).min(0).max(MAX_UNIX_SECONDS);
const basisPoints = z.number().int({ error: 'must be an integer' }).min(0).max(10_000);
const name = textSchema(200).min(1, { error: 'is required' });
const headcount = (max: number) => z.number().int({ error: 'must be a whole number' }).min(0).max(max);

export const propertyPatchBody = z.strictObject({
  name: name.optional(),
  address_lines: z.array(textSchema(64).min(1)).max(4).optional(),
  phone: textSchema(40).nullable().optional(),
  time_zone: z.enum(PROPERTY_TIME_ZONES).optional().describe(`Defaults to ${EAST_AFRICA_TIME_ZONE}`),
  check_in_time: clockTimeSchema.optional().describe('Defaults to 14:00'),
  check_out_time: clockTimeSchema.optional().describe('Defaults to 10:00'),
  star_rating: z.number().int().min(1).max(5).nullable().optional().describe('null: unclassified'),
  region: z
    .enum(VAT_REGIONS)
    .optional()
    .describe(
      'mainland (the default: VAT 18 %, tourism development levy 1 %) or zanzibar (VAT 15 %, hotel levy 12 %, infrastructure tax)',
    ),
  usd_rate: z
    .number()
    .int({ error: 'must be whole shillings' })
    .min(1)
    .max(1_000_000)
    .nullable()
    .optional()
    .describe('Shillings per US dollar, for the Zanzibar infrastructure tax'),
  hotel_levy_bps: basisPoints
    .nullable()
    .optional()
    .describe('null: 1200 (12 %) on Zanzibar, 0 on the mainland'),
  tourism_levy_bps: basisPoints
    .nullable()
    .optional()
    .describe('null: 100 (1 %) on the mainland, 0 on Zanzibar'),
  infrastructure_tax_usd: z
    .number()
    .int()
    .min(0)
    .max(1_000)
    .nullable()
    .optional()
    .describe(
      'US dollars per person per night; null: by star rating on Zanzibar (5, 4 or 2), 0 on the mainland',
    ),
  vat_bps: basisPoints.nullable().optional().describe('null: the region’s standard VAT rate'),
});

/** `POST /hospitality/availability`: how the property, or one room type, is booked. */
export const bookingModeBody = z.strictObject({
  room_type: referenceSchema.optional().describe('A room type (rt_...); the whole property when absent'),
  mode: z.enum(BOOKING_MODES).optional().describe('nightly stays, or day use in blocks of hours'),
  confirmation: z
    .enum(CONFIRMATION_MODES)
    .optional()
    .describe('instant: confirmed when booked; on_request: pending until the property confirms'),
});

const roomTypeFields = {
  description: textSchema(1000).optional(),
  max_adults: headcount(20).min(1).optional().describe('Defaults to 2'),
  max_children: headcount(20).optional().describe('Defaults to 0'),
  base_rate: priceSchema.describe('Shillings per night before levies and VAT, when no rate covers the night'),
  day_use_rate: priceSchema
    .nullable()
    .optional()
    .describe('Shillings per block of day use; null: not sold by day'),
  day_use_block_minutes: z
    .number()
    .int()
    .min(15)
    .max(720)
    .refine((minutes) => minutes % 15 === 0, { error: 'must be a multiple of 15 minutes' })
    .optional()
    .describe('Defaults to 60'),
  metadata: metadataSchema.optional(),
};

export const roomTypeCreateBody = z.strictObject({ name, ...roomTypeFields });
export const roomTypePatchBody = z.strictObject({
  name: name.optional(),
  ...roomTypeFields,
  base_rate: roomTypeFields.base_rate.optional(),
});

export const roomCreateBody = z.strictObject({
  room_type: referenceSchema.describe('The room type (rt_...)'),
  number: textSchema(20).min(1, { error: 'is required' }).describe('As on the door: 101, A2, Kilimanjaro'),
  floor: textSchema(20).nullable().optional(),
  housekeeping: z.enum(HOUSEKEEPING_STATUSES).optional().describe('Defaults to clean'),
});
export const roomPatchBody = z.strictObject({
  room_type: referenceSchema.optional(),
  number: textSchema(20).min(1).optional(),
  floor: textSchema(20).nullable().optional(),
  housekeeping: z.enum(HOUSEKEEPING_STATUSES).optional(),
});

const dateRange = <T extends { starts_on: string; ends_on: string }>(value: T, ctx: z.RefinementCtx) => {
  if (value.ends_on < value.starts_on)
    ctx.addIssue({ code: 'custom', path: ['ends_on'], message: 'must not be before starts_on' });
};

export const rateCreateBody = z
  .strictObject({
    room_type: referenceSchema,
    starts_on: calendarDateSchema.describe('The first night the rate prices'),
    ends_on: calendarDateSchema.describe('The last night the rate prices (included)'),
    days_of_week: z
      .array(z.number().int().min(0).max(6))
      .min(1)
      .max(7)
      .nullable()
      .optional()
      .describe('0 = Sunday … 6 = Saturday; absent: every day'),
    rate: priceSchema.describe('Shillings per night before levies and VAT'),
  })
  .superRefine(dateRange);

export const blackoutCreateBody = z
  .strictObject({
    room_type: referenceSchema.optional().describe('Closes every room of the type'),
    room: referenceSchema.optional().describe('Closes one room'),
    starts_on: calendarDateSchema.describe('The first night closed'),
    ends_on: calendarDateSchema.describe('The last night closed (included)'),
    reason: textSchema(200).optional(),
  })
  .superRefine(dateRange)
  .superRefine((value, ctx) => {
    if (value.room_type !== undefined && value.room !== undefined)
      ctx.addIssue({ code: 'custom', path: ['room'], message: 'give room_type or room, not both' });
  });

export const guestSchema = z.strictObject({
  name: name.describe('The guest’s full name'),
  phone: textSchema(40).optional(),
  email: textSchema(200).optional(),
});

export const RESERVATION_SOURCES = ['front_desk', 'api', 'channel'] as const;

export const reservationCreateBody = z
  .strictObject({
    room_type: referenceSchema.describe('The room type booked (rt_...)'),
    room: referenceSchema
      .optional()
      .describe('Assign a room now (room_...); otherwise any free room of the type is held'),
    arrival: calendarDateSchema.optional().describe('Nightly stays: the arrival date'),
    departure: calendarDateSchema.optional().describe('Nightly stays: the departure date'),
    starts_at: unixSeconds.optional().describe('Day use: when the stay starts (unix seconds)'),
    ends_at: unixSeconds.optional().describe('Day use: when it ends, a whole number of blocks later'),
    adults: headcount(20).min(1).optional().describe('Defaults to 1'),
    children: headcount(20).optional().describe('Defaults to 0'),
    guest: guestSchema,
    customer: referenceSchema.optional().describe('A customer of this account (cus_...)'),
    notes: textSchema(1000).optional(),
    metadata: metadataSchema.optional(),
  })
  .superRefine((value, ctx) => {
    const nightly = value.arrival !== undefined || value.departure !== undefined;
    const dayUse = value.starts_at !== undefined || value.ends_at !== undefined;
    if (nightly === dayUse)
      ctx.addIssue({
        code: 'custom',
        path: ['arrival'],
        message: 'give arrival and departure (nightly) or starts_at and ends_at (day use)',
      });
    else if (nightly && (value.arrival === undefined || value.departure === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [value.arrival === undefined ? 'arrival' : 'departure'],
        message: 'is required',
      });
    else if (dayUse && (value.starts_at === undefined || value.ends_at === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [value.starts_at === undefined ? 'starts_at' : 'ends_at'],
        message: 'is required',
      });
  });
export type ReservationCreateInput = z.output<typeof reservationCreateBody>;
