/**
 * The inputs of the events writes, as zod schemas: the REST routes validate
 * with them and document them in OpenAPI. Wire names are the API's; times are
 * unix seconds, prices whole shillings.
 */
import { z } from 'zod';
import {
  MAX_UNIX_SECONDS,
  metadataSchema,
  priceSchema,
  referenceSchema,
  textSchema,
} from '../retail/commands.ts';
import { PROPERTY_TIME_ZONES } from '../hospitality/commands.ts';
import { tanzanianMobileSchema } from '../phone.ts';
import { EAST_AFRICA_TIME_ZONE } from '../time.ts';

const unixSeconds = z.number().int({ error: 'must be whole unix seconds' }).min(0).max(MAX_UNIX_SECONDS);
const name = textSchema(200).min(1, { error: 'is required' });
const email = z.email({ error: 'must be an email address' }).max(254);
const count = (max: number) => z.number().int({ error: 'must be a whole number' }).min(0).max(max);

/** Time zones an event's times are shown in: those on East Africa Time all year. */
export const EVENT_TIME_ZONES = PROPERTY_TIME_ZONES;

export const organizerPatchBody = z.strictObject({
  display_name: name.optional().describe('Shown to buyers; defaults to the business name'),
  contact_email: email.nullable().optional(),
  contact_phone: textSchema(40).min(1).nullable().optional(),
  payout_phone: tanzanianMobileSchema
    .nullable()
    .optional()
    .describe('The mobile money number sales are paid out to'),
  refund_policy: textSchema(2000).nullable().optional().describe('Shown to buyers before they pay'),
});
export type OrganizerPatch = z.output<typeof organizerPatchBody>;

const eventFields = {
  name,
  venue: textSchema(200).min(1, { error: 'is required' }),
  description: textSchema(2000).nullable().optional(),
  starts_at: unixSeconds,
  ends_at: unixSeconds,
  doors_open_at: unixSeconds
    .nullable()
    .optional()
    .describe('When check-in opens; null: six hours before `starts_at`'),
  time_zone: z.enum(EVENT_TIME_ZONES).optional().describe(`Defaults to ${EAST_AFRICA_TIME_ZONE}`),
  capacity: count(1_000_000).describe('Tickets the venue holds, across all tiers'),
  metadata: metadataSchema.optional(),
};

const endsAfterStart = (value: { starts_at?: number | undefined; ends_at?: number | undefined }) =>
  value.starts_at === undefined || value.ends_at === undefined || value.ends_at > value.starts_at;

export const eventCreateBody = z
  .strictObject(eventFields)
  .refine(endsAfterStart, { error: 'must be after starts_at', path: ['ends_at'] });
export type EventCreateInput = z.output<typeof eventCreateBody>;

export const eventPatchBody = z
  .strictObject(eventFields)
  .partial()
  .extend({
    status: z
      .enum(['published', 'canceled', 'ended'])
      .optional()
      .describe('draft -> published -> canceled or ended'),
  })
  .refine(endsAfterStart, { error: 'must be after starts_at', path: ['ends_at'] });
export type EventPatch = z.output<typeof eventPatchBody>;

const tierFields = {
  name,
  price: priceSchema.describe('Whole shillings'),
  quantity: count(1_000_000).describe('Tickets of the tier for sale'),
  sales_start: unixSeconds.nullable().optional().describe('null: on sale once the event is published'),
  sales_end: unixSeconds.nullable().optional().describe('null: until the event starts'),
  per_order_limit: z.number().int().min(1).max(100).optional().describe('Defaults to 10'),
};

const windowInOrder = (value: {
  sales_start?: number | null | undefined;
  sales_end?: number | null | undefined;
}) => value.sales_start == null || value.sales_end == null || value.sales_end > value.sales_start;

export const tierCreateBody = z
  .strictObject(tierFields)
  .refine(windowInOrder, { error: 'must be after sales_start', path: ['sales_end'] });
export type TierCreateInput = z.output<typeof tierCreateBody>;

export const tierPatchBody = z
  .strictObject({
    name: tierFields.name.optional(),
    price: tierFields.price.optional(),
    quantity: tierFields.quantity.optional(),
    sales_start: tierFields.sales_start,
    sales_end: tierFields.sales_end,
    per_order_limit: tierFields.per_order_limit,
  })
  .refine(windowInOrder, { error: 'must be after sales_start', path: ['sales_end'] });
export type TierPatch = z.output<typeof tierPatchBody>;

export const eventOrderCreateBody = z.strictObject({
  event: referenceSchema.describe('The event (tev_…)'),
  lines: z
    .array(z.strictObject({ tier: referenceSchema, quantity: z.number().int().min(1).max(100) }))
    .min(1)
    .max(20)
    .refine((lines) => new Set(lines.map((line) => line.tier)).size === lines.length, {
      error: 'names a tier twice',
    }),
  buyer: z.strictObject({
    name,
    phone: tanzanianMobileSchema,
    email: email.optional(),
  }),
  promo_code: z.string().trim().min(1).max(32).optional().describe('A promo code of the event, applied once'),
  success_url: z.url().max(2000).optional(),
  cancel_url: z.url().max(2000).optional(),
  metadata: metadataSchema.optional(),
});
export type EventOrderInput = z.output<typeof eventOrderCreateBody>;

export const checkinBody = z.strictObject({
  event: referenceSchema.describe('The event the door admits to'),
  code: z.string().min(1).max(1000).describe('The QR code as scanned'),
  door: textSchema(64).min(1).optional().describe('Which door scanned it; defaults to `api`'),
});
export type CheckinInput = z.output<typeof checkinBody>;
