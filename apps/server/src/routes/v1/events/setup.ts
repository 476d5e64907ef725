import { z } from 'zod';
import {
  EVENT_STATUSES,
  eventCreateBody,
  eventPatchBody,
  organizerPatchBody,
  tierCreateBody,
  tierPatchBody,
} from '@tz/core';
import { defineRoute } from '../../../http/route.ts';
import { listPage } from '../../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../../http/list.ts';
import { eventObjects } from '../../../events/events.ts';
import type { EventRow } from '../../../events/objects.ts';
import { eventSales } from '../../../events/sales.ts';
import { idParams } from '../schemas.ts';
import { doorKeySchema, eventSchema, organizerSchema, salesSchema, tag, tierSchema } from './schemas.ts';

/** The organizer, events and their tiers. The fixed paths come before `/events/{id}`. */
export const eventSetupRoutes = [
  defineRoute({
    method: 'GET',
    path: '/events/organizer',
    tag,
    summary: 'Retrieve the organizer',
    description:
      'Who sells the tickets, as buyers see it; it exists from the start, named after the business.',
    auth: 'secret',
    response: organizerSchema,
    handler: ({ auth, db, services }) => services.ticketedEvents.organizer(db, auth),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/events/organizer',
    tag,
    summary: 'Update the organizer',
    description:
      'Display name, contact, the mobile money number sales are paid out to, and the refund policy shown to buyers. Fields left out keep their value; `null` clears one. Records `event_organizer.updated`.',
    auth: 'secret',
    body: organizerPatchBody,
    response: organizerSchema,
    handler: ({ body, auth, db, services }) => services.ticketedEvents.updateOrganizer(db, auth, body),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/events/tiers/{id}',
    tag,
    summary: 'Update a tier',
    description:
      'A new price prices orders from now; tickets sold keep the price they were sold at. A quantity below the tickets held or sold is refused.',
    auth: 'secret',
    params: idParams,
    body: tierPatchBody,
    response: tierSchema,
    handler: ({ params, body, auth, db, services }) => services.eventTiers.update(db, auth, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/events/tiers/{id}',
    tag,
    summary: 'Delete a tier',
    description: 'Refused with 409 `tickets_sold` while any of its tickets is held or sold.',
    auth: 'secret',
    params: idParams,
    response: tierSchema.extend({ deleted: z.literal(true) }),
    handler: ({ params, auth, db, services }) => services.eventTiers.delete(db, auth, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/events',
    tag,
    summary: 'List events',
    description: 'Newest first, each with its tiers; `status` narrows.',
    auth: 'secret',
    query: listQuery.extend({ status: z.enum(EVENT_STATUSES).optional() }),
    response: listEnvelope(eventSchema),
    handler: async ({ query, auth, db, services }) => {
      const page = await listPage(
        db,
        services.ticketedEvents.eventsSource(auth, query),
        query,
        (row: EventRow) => row,
      );
      return { ...page, data: await eventObjects(db, page.data) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/events',
    tag,
    summary: 'Create an event',
    description:
      'A `draft` with its own door key (Ed25519) for signing its tickets. `capacity` caps the tickets of all its tiers together. Records `ticketed_event.created`.',
    auth: 'secret',
    status: 201,
    body: eventCreateBody,
    response: eventSchema,
    handler: ({ body, auth, db, services }) => services.ticketedEvents.create(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/events/{id}',
    tag,
    summary: 'Retrieve an event',
    auth: 'secret',
    params: idParams,
    response: eventSchema,
    handler: ({ params, auth, db, services }) => services.ticketedEvents.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/events/{id}',
    tag,
    summary: 'Update an event',
    description:
      'Fields left out keep their value. `status` moves it `draft -> published -> canceled | ended` (only a published event sells; a canceled one admits no one, and its paid orders are refunded in the same transaction, each with `payment.refunded` and `event_order.refunded`). A capacity below the tickets held or sold is refused. Records `ticketed_event.updated`, or `ticketed_event.canceled`.',
    auth: 'secret',
    params: idParams,
    body: eventPatchBody,
    response: eventSchema,
    handler: ({ params, body, auth, db, services }) =>
      services.ticketedEvents.update(db, auth, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/events/{id}',
    tag,
    summary: 'Delete an event',
    description:
      'Refused with 409 `tickets_sold` once any order is paid: cancel it instead (`PATCH` with `status: canceled`).',
    auth: 'secret',
    params: idParams,
    response: eventSchema.extend({ deleted: z.literal(true) }),
    handler: ({ params, auth, db, services }) => services.ticketedEvents.delete(db, auth, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/events/{id}/door-key',
    tag,
    summary: 'Retrieve an event’s door key',
    description:
      'The public key a door verifies ticket codes with, offline (core’s `verifyTicketCode`; the format in docs/EVENTS.md).',
    auth: 'secret',
    params: idParams,
    response: doorKeySchema,
    handler: ({ params, auth, db, services }) => services.ticketedEvents.doorKey(db, auth, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/events/{id}/sales',
    tag,
    summary: 'Retrieve an event’s sales',
    description:
      'Tickets of paid orders per tier per day, the day each order was paid in the event’s time zone, with each tier’s totals and the event’s (orders, tickets, gross, promo discount, amount paid). Refunded orders are left out.',
    auth: 'secret',
    params: idParams,
    response: salesSchema,
    handler: ({ params, auth, db }) => eventSales(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/events/{id}/tiers',
    tag,
    summary: 'Create a tier',
    description:
      'A price in shillings, a quantity, an optional sale window (`sales_start`, `sales_end`) and a limit per order (default 10). Records `event_tier.created`.',
    auth: 'secret',
    status: 201,
    params: idParams,
    body: tierCreateBody,
    response: tierSchema,
    handler: ({ params, body, auth, db, services }) => services.eventTiers.create(db, auth, params.id, body),
  }),
];
