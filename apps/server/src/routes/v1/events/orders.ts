import { z } from 'zod';
import { checkinBody, EVENT_ORDER_STATUSES, eventOrderCreateBody, tanzanianMobileSchema } from '@tz/core';
import { defineRoute } from '../../../http/route.ts';
import { listPage } from '../../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../../http/list.ts';
import type { CheckinRow, EventOrderRow } from '../../../events/objects.ts';
import {
  checkinListObjects,
  checkinsSource,
  doubleAdmissionObject,
  doubleAdmissionsSource,
  type DoubleAdmissionRow,
} from '../../../events/admissions.ts';
import { idParams } from '../schemas.ts';
import {
  checkinRecordSchema,
  checkinSchema,
  doubleAdmissionSchema,
  eventOrderSchema,
  tag,
  ticketSchema,
} from './schemas.ts';

/** Ticket orders and check-in. Before `/events/{id}`, whose `{id}` would take these paths. */
export const eventOrderRoutes = [
  defineRoute({
    method: 'POST',
    path: '/events/orders',
    tag,
    summary: 'Create a ticket order',
    description:
      'Takes the tickets of the tiers asked for (refused with 409 `sold_out` when fewer are left, `sales_closed` outside a sale window or an event not published) and holds them until `held_until` (`EVENT_HOLD_MINUTES`) while the buyer pays at `checkout_url`, the hosted checkout, by mobile money. Paid: the order is `paid`, its tickets `valid` with their codes, `tickets_url` the short link of the buyer’s tickets page (QR codes, for an SMS), and `event_order.paid` recorded. Unpaid when the hold ends: `expired`, the tickets given back. A free order is paid at once. `promo_code` applies one of the event’s promos once (400 `discount_invalid` when it is unknown, outside its window, for other tiers or used up).',
    auth: 'secret',
    status: 201,
    body: eventOrderCreateBody,
    response: eventOrderSchema,
    handler: ({ body, auth, db, services }) => services.eventOrders.create(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/events/orders',
    tag,
    summary: 'List ticket orders',
    description:
      'Newest first. Filters combine: `event`, `status` and the buyer’s `phone` (any written form).',
    auth: 'secret',
    query: listQuery.extend({
      event: z.string().max(255).optional(),
      status: z.enum(EVENT_ORDER_STATUSES).optional(),
      phone: tanzanianMobileSchema.optional(),
    }),
    response: listEnvelope(eventOrderSchema),
    handler: async ({ query, auth, db, services }) => {
      const page = await listPage(
        db,
        services.eventOrders.ordersSource(auth, query),
        query,
        (row: EventOrderRow) => row,
      );
      return { ...page, data: await services.eventOrders.toObjects(db, page.data) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/events/orders/{id}',
    tag,
    summary: 'Retrieve a ticket order',
    auth: 'secret',
    params: idParams,
    response: eventOrderSchema,
    handler: ({ params, auth, db, services }) => services.eventOrders.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/events/orders/{id}/refund',
    tag,
    summary: 'Refund a ticket order',
    description:
      'A paid order: its payment refunded in full (as `POST /v1/payments/{id}/refund`, with its balance check), its tickets `void` (their codes answer `canceled` at the door) and their seats back on sale. Records `event_order.refunded`.',
    auth: 'secret',
    params: idParams,
    response: eventOrderSchema,
    handler: ({ params, auth, db, services }) => services.eventOrders.refund(db, auth, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/events/tickets/{id}',
    tag,
    summary: 'Retrieve a ticket',
    description: 'Its status, holder, code (once paid) and admission (`checked_in`: when and at which door).',
    auth: 'secret',
    params: idParams,
    response: ticketSchema,
    handler: ({ params, auth, db, services }) => services.checkins.ticket(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/events/checkin',
    tag,
    summary: 'Check in a ticket',
    description:
      'Judges a scanned code for the door’s `event` and admits it at most once, across doors and processes. Answers 200 with a `verdict`: `ok`, `already_redeemed` (with when and at which door), `invalid` (not a code, not signed by the event’s key, or revoked), `unpaid`, `canceled` (refunded, released, or the event canceled), `wrong_event`, `not_yet_valid` (before the doors open); with the ticket’s tier and holder when known. Accepts `Idempotency-Key`. Records `ticket.checked_in`.',
    auth: 'secret',
    body: checkinBody,
    response: checkinSchema,
    handler: ({ body, auth, db, services }) => services.checkins.checkin(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/events/checkins',
    tag,
    summary: 'List an event’s check-ins',
    description:
      'The `event`’s admissions, newest first, each with its door, time, the door’s scan and the server’s verdict at admission; `door` keeps one door’s. `double_admissions` on an admission names each later door that admitted the same ticket (offline), with its time: it is there within seconds of that door’s push.',
    auth: 'secret',
    query: listQuery.extend({
      event: z.string().max(255),
      door: z.string().min(1).max(64).optional(),
    }),
    response: listEnvelope(checkinRecordSchema),
    handler: async ({ query, auth, db }) => {
      const page = await listPage(
        db,
        checkinsSource(auth, query),
        query,
        (row: CheckinRow & { livemode: boolean }) => row,
      );
      return { ...page, data: await checkinListObjects(db, page.data) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/events/double-admissions',
    tag,
    summary: 'List an event’s double admissions',
    description:
      'Tickets of the `event` admitted by a second door that could not know of the first admission (offline), newest first: the ticket, the admission that stands (`first`: its door and time) and the later door and time. Each is also sent as `ticket.double_admitted` and pulled by every door.',
    auth: 'secret',
    query: listQuery.extend({ event: z.string().max(255) }),
    response: listEnvelope(doubleAdmissionSchema),
    handler: ({ query, auth, db }) =>
      listPage(db, doubleAdmissionsSource(auth, query), query, (row: DoubleAdmissionRow) =>
        doubleAdmissionObject(row),
      ),
  }),
];
