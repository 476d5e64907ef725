/** The events objects as the `/v1` API answers them, and what the events pages share. */
import type { EventOrderStatus, EventStatus, TicketStatus } from '@tz/core';
import { formatEastAfricaTime } from '@tz/core/time';
import { ApiError } from '../../api.ts';
import type { ErrorWords } from '../../errors.ts';
import type { MessageKey } from '../../i18n/index.ts';

export interface Tier {
  id: string;
  event: string;
  name: string;
  price: number;
  quantity: number;
  taken: number;
  available: number;
  sales_start: number | null;
  sales_end: number | null;
  per_order_limit: number;
}
export interface TicketedEvent {
  id: string;
  name: string;
  venue: string;
  description: string | null;
  starts_at: number;
  ends_at: number;
  doors_open_at: number | null;
  time_zone: string;
  capacity: number;
  taken: number;
  available: number;
  status: EventStatus;
  tiers: Tier[];
}
export interface Promo {
  id: string;
  tier: string | null;
  code: string;
  percent_off: number | null;
  amount_off: number | null;
  usage_limit: number | null;
  used: number;
  valid_from: number | null;
  valid_until: number | null;
}
export interface Ticket {
  id: string;
  tier: string;
  status: TicketStatus;
  holder: string;
  checked_in: { at: number; door: string } | null;
}
export interface EventOrder {
  id: string;
  event: string;
  status: EventOrderStatus;
  buyer: { name: string; phone: string; email: string | null };
  lines: Array<{ tier: string; quantity: number; unit_price: number; amount: number }>;
  promo: string | null;
  discount: number;
  amount: number;
  tickets: Ticket[];
  created: number;
}
export interface CheckinRecord {
  id: string;
  ticket: string;
  door: string;
  at: number;
  double_admissions: Array<{ id: string; door: string; at: number; holder: string }>;
}
export interface Organizer {
  display_name: string;
  contact_email: string | null;
  contact_phone: string | null;
  payout_phone: string | null;
  refund_policy: string | null;
}
interface Sold {
  tickets: number;
  gross: number;
}
export interface Sales {
  time_zone: string;
  tiers: Array<{ tier: string; name: string } & Sold>;
  days: Array<{ date: string; tickets: number; tiers: Array<{ tier: string } & Sold> }>;
  total: { orders: number; discount: number; amount: number } & Sold;
}

export const EVENT_STATUS_WORDS: Record<EventStatus, MessageKey> = {
  draft: 'evStatusDraft',
  published: 'evStatusPublished',
  canceled: 'evStatusCanceled',
  ended: 'evStatusEnded',
};
export const ORDER_STATUS_WORDS: Record<EventOrderStatus, MessageKey> = {
  pending: 'evOrderPending',
  paid: 'evOrderPaid',
  expired: 'evOrderExpired',
  refunded: 'evOrderRefunded',
};
export const TICKET_STATUS_WORDS: Record<TicketStatus, MessageKey> = {
  held: 'evTicketHeld',
  valid: 'evTicketValid',
  released: 'evTicketReleased',
  void: 'evTicketVoid',
};

/** The fields and codes the events pages' calls can meet, in the user's words. */
export const EVENT_ERRORS: ErrorWords = {
  codes: { tickets_sold: 'evTierHasSales' },
  fields: {
    name: 'evName',
    venue: 'evVenue',
    description: 'evDescription',
    starts_at: 'evStarts',
    ends_at: 'evEnds',
    doors_open_at: 'evDoorsOpen',
    time_zone: 'evTimeZone',
    capacity: 'evCapacity',
    price: 'evPrice',
    quantity: 'evQuantity',
    sales_start: 'evSalesStart',
    sales_end: 'evSalesEnd',
    per_order_limit: 'evPerOrder',
    code: 'evCode',
    percent_off: 'evDiscount',
    amount_off: 'evDiscount',
    tier: 'evAppliesTo',
    usage_limit: 'evUsageLimit',
    valid_from: 'evValidFrom',
    valid_until: 'evValidUntil',
    display_name: 'evDisplayName',
    contact_email: 'evContactEmail',
    contact_phone: 'evContactPhone',
    payout_phone: 'evPayoutPhone',
    refund_policy: 'evRefundPolicy',
    phone: 'evBuyerPhone',
  },
};

/*
 * Every event time zone keeps East Africa Time all year (core's EVENT_TIME_ZONES),
 * so a time typed for the event is read, and shown, at UTC+03:00.
 */

/** Unix seconds as a `datetime-local` field holds them ("2026-12-05T19:30"); empty for none. */
export const timeField = (seconds: number | null): string =>
  seconds === null ? '' : formatEastAfricaTime(new Date(seconds * 1000)).slice(0, 16);

/** What a `datetime-local` field holds as unix seconds; empty is null, anything else unreadable is refused naming the field. */
export function typedTime(text: string, field: string, reason: string): number | null {
  if (text.trim() === '') return null;
  const time = Date.parse(`${text}:00+03:00`);
  if (Number.isNaN(time))
    throw new ApiError(400, 'parameter_invalid', `Invalid ${field}`, { [field]: reason });
  return time / 1000;
}

/** A required time: empty is refused as the API refuses it, naming the field. */
export function requiredTime(text: string, field: string, reason: string): number {
  const time = typedTime(text, field, reason);
  if (time === null) throw new ApiError(400, 'parameter_invalid', `Invalid ${field}`, { [field]: reason });
  return time;
}

/** A whole number typed in a field; empty is null unless `required`, anything else unreadable is refused naming the field. */
export function typedCount(text: string, field: string, reason: string, required = false): number | null {
  const cleaned = text.replace(/[\s,]/g, '');
  if (cleaned === '' && !required) return null;
  const value = Number(cleaned);
  if (cleaned === '' || !Number.isInteger(value) || value < 0)
    throw new ApiError(400, 'parameter_invalid', `Invalid ${field}`, { [field]: reason });
  return value;
}
