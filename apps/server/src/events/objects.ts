/**
 * The events tables' rows and the objects the API shows for them.
 */
import type { EventOrderStatus, EventStatus, TicketStatus } from '@tz/core';
import { unixOrNull, unixSeconds } from '../infra/time.ts';
import { doubleAdmissionObject, type DoubleAdmissionRow } from './admissions.ts';

export interface OrganizerRow {
  merchant_id: string;
  livemode: boolean;
  display_name: string;
  contact_email: string | null;
  contact_phone: string | null;
  payout_phone: string | null;
  refund_policy: string | null;
  created_at: Date;
  updated_at: Date;
}

export const organizerObject = (row: OrganizerRow) => ({
  object: 'event_organizer' as const,
  display_name: row.display_name,
  contact_email: row.contact_email,
  contact_phone: row.contact_phone,
  payout_phone: row.payout_phone,
  refund_policy: row.refund_policy,
  livemode: row.livemode,
  updated: unixSeconds(row.updated_at),
});

export interface EventRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  name: string;
  venue: string;
  description: string | null;
  starts_at: Date;
  ends_at: Date;
  doors_open_at: Date | null;
  time_zone: string;
  capacity: number;
  taken: number;
  status: EventStatus;
  door_public_key: string;
  door_private_key: string;
  metadata: Record<string, string>;
  published_at: Date | null;
  canceled_at: Date | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface TierRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  event_id: string;
  name: string;
  price: number;
  currency: 'TZS';
  quantity: number;
  taken: number;
  sales_start: Date | null;
  sales_end: Date | null;
  per_order_limit: number;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const tierObject = (row: TierRow) => ({
  id: row.id,
  object: 'event_tier' as const,
  event: row.event_id,
  name: row.name,
  price: row.price,
  currency: row.currency,
  quantity: row.quantity,
  taken: row.taken,
  available: row.quantity - row.taken,
  sales_start: unixOrNull(row.sales_start),
  sales_end: unixOrNull(row.sales_end),
  per_order_limit: row.per_order_limit,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  updated: unixSeconds(row.updated_at),
});

export const eventObject = (row: EventRow, tiers: readonly TierRow[]) => ({
  id: row.id,
  object: 'ticketed_event' as const,
  name: row.name,
  venue: row.venue,
  description: row.description,
  starts_at: unixSeconds(row.starts_at),
  ends_at: unixSeconds(row.ends_at),
  doors_open_at: unixOrNull(row.doors_open_at),
  time_zone: row.time_zone,
  capacity: row.capacity,
  taken: row.taken,
  available: row.capacity - row.taken,
  status: row.status,
  tiers: tiers.filter((tier) => tier.deleted_at === null).map(tierObject),
  metadata: row.metadata,
  published: unixOrNull(row.published_at),
  canceled: unixOrNull(row.canceled_at),
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  updated: unixSeconds(row.updated_at),
});

export interface EventOrderRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  event_id: string;
  status: EventOrderStatus;
  buyer_name: string;
  buyer_phone: string | null;
  buyer_email: string | null;
  amount: number;
  currency: 'TZS';
  checkout_id: string | null;
  payment_id: string | null;
  promo_id: string | null;
  discount: number;
  /** The buyer's tickets page (`/t/{token}`), made when the order is paid. */
  tickets_token: string | null;
  held_until: Date;
  metadata: Record<string, string>;
  paid_at: Date | null;
  expired_at: Date | null;
  refunded_at: Date | null;
  channel: 'online' | 'till';
  till_id: string | null;
  shift_id: string | null;
  receipt_number: string | null;
  oversold: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface OrderLineRow {
  order_id: string;
  tier_id: string;
  quantity: number;
  unit_price: number;
}

export interface TicketRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  event_id: string;
  tier_id: string;
  order_id: string;
  status: TicketStatus;
  holder_name: string;
  code: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface CheckinRow {
  id: string;
  event_id: string;
  ticket_id: string;
  door: string;
  checked_in_at: Date;
  /** The door's scan that made it (`scn_…`); null from the REST API. */
  scan_id: string | null;
  /** The server's verdict at admission: other than `ok` only for a door that admitted on its own. */
  verdict: 'ok' | 'unpaid' | 'canceled' | 'not_yet_valid';
}

/** A ticket as the API shows it; its code only once issued (paid). */
export const ticketObject = (row: TicketRow, checkin: CheckinRow | null = null) => ({
  id: row.id,
  object: 'ticket' as const,
  event: row.event_id,
  tier: row.tier_id,
  order: row.order_id,
  status: row.status,
  holder: row.holder_name,
  code: row.status === 'valid' ? row.code : null,
  checked_in: checkin ? { at: unixSeconds(checkin.checked_in_at), door: checkin.door } : null,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
});

export const eventOrderObject = (
  row: EventOrderRow,
  lines: readonly OrderLineRow[],
  tickets: readonly TicketRow[],
  urls: { checkout: string | null; tickets: string | null },
  admissions: { checkins: readonly CheckinRow[]; doubles: readonly DoubleAdmissionRow[] },
) => ({
  id: row.id,
  object: 'event_order' as const,
  event: row.event_id,
  status: row.status,
  buyer: { name: row.buyer_name, phone: row.buyer_phone, email: row.buyer_email },
  lines: lines.map((line) => ({
    tier: line.tier_id,
    quantity: line.quantity,
    unit_price: line.unit_price,
    amount: line.unit_price * line.quantity,
  })),
  promo: row.promo_id,
  discount: row.discount,
  amount: row.amount,
  currency: row.currency,
  checkout: row.checkout_id,
  checkout_url: urls.checkout,
  tickets_url: urls.tickets,
  payment: row.payment_id,
  held_until: unixSeconds(row.held_until),
  tickets: tickets.map((ticket) =>
    ticketObject(ticket, admissions.checkins.find((checkin) => checkin.ticket_id === ticket.id) ?? null),
  ),
  double_admissions: admissions.doubles.map(doubleAdmissionObject),
  channel: row.channel,
  till:
    row.till_id === null
      ? null
      : { id: row.till_id, shift: row.shift_id, receipt_number: row.receipt_number },
  oversold: row.oversold,
  metadata: row.metadata,
  paid: unixOrNull(row.paid_at),
  expired: unixOrNull(row.expired_at),
  refunded: unixOrNull(row.refunded_at),
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
});
