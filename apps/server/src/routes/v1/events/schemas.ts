import { z } from 'zod';
import {
  CHECKIN_VERDICTS,
  EVENT_ORDER_STATUSES,
  EVENT_STATUSES,
  EVENT_TIME_ZONES,
  TICKET_STATUSES,
} from '@tz/core';
import { livemode, unix } from '../schemas.ts';

/** The events objects as the API shows them. */

export const tag = 'Events';

export const organizerSchema = z.object({
  object: z.literal('event_organizer'),
  display_name: z.string(),
  contact_email: z.string().nullable(),
  contact_phone: z.string().nullable(),
  payout_phone: z.string().nullable().describe('Normalised to 255XXXXXXXXX'),
  refund_policy: z.string().nullable(),
  livemode,
  updated: unix,
});

export const tierSchema = z.object({
  id: z.string().describe('Begins with tier_'),
  object: z.literal('event_tier'),
  event: z.string(),
  name: z.string(),
  price: z.number().int().describe('Whole shillings; tickets sold keep the price they were sold at'),
  currency: z.literal('TZS'),
  quantity: z.number().int(),
  taken: z.number().int().describe('Tickets held or sold'),
  available: z.number().int(),
  sales_start: unix.nullable(),
  sales_end: unix.nullable(),
  per_order_limit: z.number().int(),
  livemode,
  created: unix,
  updated: unix,
});

export const eventSchema = z.object({
  id: z.string().describe('Begins with tev_'),
  object: z.literal('ticketed_event'),
  name: z.string(),
  venue: z.string(),
  description: z.string().nullable(),
  starts_at: unix,
  ends_at: unix,
  doors_open_at: unix.nullable().describe('null: six hours before starts_at'),
  time_zone: z.enum(EVENT_TIME_ZONES),
  capacity: z.number().int(),
  taken: z.number().int().describe('Tickets held or sold, across tiers'),
  available: z.number().int(),
  status: z.enum(EVENT_STATUSES),
  tiers: z.array(tierSchema),
  metadata: z.record(z.string(), z.string()),
  published: unix.nullable(),
  canceled: unix.nullable(),
  livemode,
  created: unix,
  updated: unix,
});

export const doorKeySchema = z.object({
  object: z.literal('door_key'),
  event: z.string(),
  algorithm: z.literal('Ed25519'),
  public_key: z.string().describe('The raw 32-byte public key, base64url'),
  code_version: z.literal(1).describe('The ticket code format it verifies (docs/EVENTS.md)'),
  livemode,
});

const checkedIn = z.object({ at: unix, door: z.string() });

export const ticketSchema = z.object({
  id: z.string().describe('Begins with tkt_'),
  object: z.literal('ticket'),
  event: z.string(),
  tier: z.string(),
  order: z.string(),
  status: z.enum(TICKET_STATUSES),
  holder: z.string(),
  code: z.string().nullable().describe('The signed QR payload, once the ticket is paid (base64url)'),
  checked_in: checkedIn.nullable(),
  livemode,
  created: unix,
});

export const doubleAdmissionSchema = z.object({
  id: z.string().describe('Begins with dadm_'),
  object: z.literal('double_admission'),
  event: z.string(),
  ticket: z.string(),
  holder: z.string(),
  first: z
    .object({ checkin: z.string(), door: z.string(), at: unix })
    .describe('The admission that stands: its door and time'),
  door: z.string().describe('The later door, which could not know of the first admission (offline)'),
  at: unix.describe('When the later door admitted, by its clock'),
  scan: z.string().describe('The later door’s scan (scn_…)'),
  detected: unix.describe('When the server learnt of it: the later door’s push'),
  livemode,
});

export const checkinRecordSchema = z.object({
  id: z.string().describe('Begins with chk_'),
  object: z.literal('checkin_record'),
  event: z.string(),
  ticket: z.string(),
  door: z.string(),
  at: unix.describe('When the door admitted'),
  scan: z.string().nullable().describe('The door’s scan (scn_…); null for a check-in through the API'),
  verdict: z
    .enum(['ok', 'unpaid', 'canceled', 'not_yet_valid'])
    .describe('The server’s verdict at admission: other than `ok` only when a door admitted on its own'),
  double_admissions: z.array(doubleAdmissionSchema).describe('Later doors that admitted the same ticket'),
  livemode,
});

export const eventOrderSchema = z.object({
  id: z.string().describe('Begins with eord_'),
  object: z.literal('event_order'),
  event: z.string(),
  status: z.enum(EVENT_ORDER_STATUSES),
  buyer: z.object({
    name: z.string(),
    phone: z.string().nullable().describe('null for a box-office sale'),
    email: z.string().nullable(),
  }),
  lines: z.array(
    z.object({
      tier: z.string(),
      quantity: z.number().int(),
      unit_price: z.number().int(),
      amount: z.number().int(),
    }),
  ),
  promo: z.string().nullable().describe('The promo applied, once'),
  discount: z.number().int().describe('What the promo took off the lines’ sum'),
  amount: z.number().int().describe('What the buyer pays: the lines’ sum less the discount'),
  currency: z.literal('TZS'),
  checkout: z.string().nullable(),
  checkout_url: z.string().nullable().describe('The hosted page where the buyer pays by mobile money'),
  tickets_url: z
    .string()
    .nullable()
    .describe(
      'The buyer’s tickets as QR codes (`/t/{token}`), a short link to send by SMS; null until the order is paid',
    ),
  payment: z.string().nullable(),
  held_until: unix.describe('When an unpaid order gives its tickets back'),
  tickets: z.array(ticketSchema),
  double_admissions: z
    .array(doubleAdmissionSchema)
    .describe('Its tickets admitted again by a later door (both doors and times)'),
  channel: z.enum(['online', 'till']).describe('`till`: sold at a till’s box office'),
  till: z
    .object({ id: z.string(), shift: z.string().nullable(), receipt_number: z.string().nullable() })
    .nullable()
    .describe('The till that sold it, its shift and receipt number (box office only)'),
  oversold: z
    .boolean()
    .describe('A box-office sale made offline that found its seats taken: recorded outside the counts'),
  metadata: z.record(z.string(), z.string()),
  paid: unix.nullable(),
  expired: unix.nullable(),
  refunded: unix.nullable(),
  livemode,
  created: unix,
});

export const promoSchema = z.object({
  id: z.string().describe('Begins with promo_'),
  object: z.literal('event_promo'),
  event: z.string(),
  tier: z.string().nullable().describe('null: the whole event'),
  code: z.string(),
  percent_off: z.number().int().nullable(),
  amount_off: z.number().int().nullable(),
  usage_limit: z.number().int().nullable(),
  used: z.number().int().describe('Orders holding or having paid with it'),
  valid_from: unix.nullable(),
  valid_until: unix.nullable(),
  deleted: z.boolean(),
  livemode,
  created: unix,
});

export const checkinSchema = z.object({
  object: z.literal('checkin'),
  verdict: z.enum(CHECKIN_VERDICTS),
  event: z.string(),
  door: z.string(),
  ticket: z.string().nullable(),
  order: z.string().nullable(),
  tier: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  holder: z.string().nullable(),
  checked_in: checkedIn
    .nullable()
    .describe('`ok`: this admission; `already_redeemed`: the first one, when and at which door'),
  livemode,
});

const sold = { tickets: z.number().int(), gross: z.number().int().describe('At the lines’ prices') };

export const salesSchema = z.object({
  object: z.literal('event_sales'),
  event: z.string(),
  time_zone: z.enum(EVENT_TIME_ZONES).describe('The days are the event’s'),
  currency: z.literal('TZS'),
  tiers: z.array(z.object({ tier: z.string(), name: z.string(), ...sold })),
  days: z
    .array(
      z.object({
        date: z.string().describe('YYYY-MM-DD in the event’s time zone'),
        tickets: z.number().int(),
        tiers: z.array(z.object({ tier: z.string(), ...sold })).describe('The tiers sold that day'),
      }),
    )
    .describe('The days with sales, oldest first'),
  total: z.object({
    orders: z.number().int(),
    ...sold,
    discount: z.number().int().describe('What promos took off'),
    amount: z.number().int().describe('What buyers paid: gross less discount'),
  }),
  livemode,
});
