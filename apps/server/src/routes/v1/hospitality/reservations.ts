import { z } from 'zod';
import {
  calendarDateSchema,
  guestRegistrationSchema,
  ID_DOCUMENT_TYPES,
  RECEIPT_LANGUAGES,
  RESERVATION_STATUSES,
  reservationCreateBody,
} from '@tz/core';
import { rowsDocumentSchema } from '@tz/core/receipt-schema';
import { defineRoute } from '../../../http/route.ts';
import { listPage } from '../../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../../http/list.ts';
import { reservationObject, type ReservationRow } from '../../../hospitality/objects.ts';
import { idParams, livemode, unix } from '../schemas.ts';
import { propertySchema, quoteSchema, reservationSchema, roomTypeSchema, tag } from './schemas.ts';

/** /hospitality (the day at a glance), availability with quotes, and reservations through their stay. */

const count = z.number().int();
const headcount = (fallback: number) => z.coerce.number().int().min(0).max(20).default(fallback);
const unixQuery = z.coerce.number().int().min(0).optional();

const summarySchema = z.object({
  object: z.literal('hospitality'),
  property: propertySchema,
  date: z.string().describe('Today in East Africa Time'),
  room_types: count,
  rooms: count,
  rooms_out_of_order: count,
  arrivals: count.describe('Pending and confirmed stays arriving today'),
  departures: count.describe('Guests in house due to leave today (or late)'),
  in_house: count,
  pending: count.describe('Requests waiting for the property to confirm'),
});

const availabilitySchema = z.object({
  object: z.literal('availability'),
  arrival: z.string().nullable(),
  departure: z.string().nullable(),
  data: z.array(
    z.object({
      room_type: roomTypeSchema,
      free_rooms: count.describe('Rooms of the type free for the whole stay'),
      quote: quoteSchema
        .nullable()
        .describe('The stay’s price for the party; null when the type cannot take it'),
      unavailable_reason: z.string().nullable(),
    }),
  ),
});

const registrationSchema = z.object({
  id: z.string().describe('Begins with greg_'),
  object: z.literal('guest_registration'),
  reservation: z.string(),
  name: z.string(),
  nationality: z.string().describe('ISO 3166 two-letter code'),
  id_type: z.enum(ID_DOCUMENT_TYPES),
  id_number: z.string(),
  id_country: z.string(),
  arriving_from: z.string(),
  going_to: z.string(),
  phone: z.string().nullable(),
  livemode,
  created: unix,
});

const roomBody = z.strictObject({ room: z.string().min(1).max(255).describe('The room (room_...)') });
const checkInBody = z.strictObject({
  room: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe('The room, when the stay has none yet or moves on arrival'),
  guests: z
    .array(guestRegistrationSchema)
    .max(20)
    .optional()
    .describe('Guests to register now; at least one must be registered by check-in'),
});

const step = (
  path: string,
  summary: string,
  description: string,
  call: 'confirm' | 'cancel' | 'markNoShow',
) =>
  defineRoute({
    method: 'POST',
    path: `/hospitality/reservations/{id}/${path}`,
    tag,
    summary,
    description,
    auth: 'secret',
    params: idParams,
    response: reservationSchema,
    handler: ({ params, auth, db, services }) => services.reservations[call](db, auth, params.id),
  });

export const reservationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/hospitality',
    tag,
    summary: 'Get hospitality',
    description:
      'The property and its day: rooms, arrivals, departures, guests in house and requests waiting.',
    auth: 'secret',
    response: summarySchema,
    handler: ({ auth, db, services }) => services.reservations.summary(db, auth),
  }),
  defineRoute({
    method: 'GET',
    path: '/hospitality/availability',
    tag,
    summary: 'Check availability',
    description:
      'For a stay (arrival and departure, or starts_at and ends_at for day use) and a party: each room type’s free rooms and its priced quote (nights, rates, levies, VAT, total).',
    auth: 'secret',
    query: z.object({
      arrival: calendarDateSchema.optional(),
      departure: calendarDateSchema.optional(),
      starts_at: unixQuery,
      ends_at: unixQuery,
      adults: headcount(1),
      children: headcount(0),
      room_type: z.string().max(255).optional(),
    }),
    response: availabilitySchema,
    handler: ({ query, auth, db, services }) => services.availability.availability(db, auth, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/hospitality/reservations',
    tag,
    summary: 'List reservations',
    auth: 'secret',
    query: listQuery.extend({
      status: z.enum(RESERVATION_STATUSES).optional(),
      room_type: z.string().max(255).optional(),
      room: z.string().max(255).optional(),
      arrival_gte: calendarDateSchema.optional(),
      arrival_lte: calendarDateSchema.optional(),
    }),
    response: listEnvelope(reservationSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.reservations.reservationsSource(auth, query), query, (row: ReservationRow) =>
        reservationObject(row),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: '/hospitality/reservations',
    tag,
    summary: 'Create a reservation',
    description:
      'Books a room of the type for the stay, and the named room when given. Refused with 409 `room_unavailable` when no room (or not that room) is free for the whole stay: never two stays in one room-night. Confirmed at once, or `pending` when the type confirms on request.',
    auth: 'secret',
    status: 201,
    body: reservationCreateBody,
    response: reservationSchema,
    handler: ({ body, auth, db, services }) => services.reservations.create(db, auth, body, 'api'),
  }),
  defineRoute({
    method: 'GET',
    path: '/hospitality/reservations/{id}',
    tag,
    summary: 'Retrieve a reservation',
    auth: 'secret',
    params: idParams,
    response: reservationSchema,
    handler: ({ params, auth, db, services }) => services.reservations.retrieve(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/hospitality/reservations/{id}/assign',
    tag,
    summary: 'Assign or move a room',
    description:
      'Gives the stay a room of its type, or moves it to another; 409 `room_unavailable` when that room is taken.',
    auth: 'secret',
    params: idParams,
    body: roomBody,
    response: reservationSchema,
    handler: ({ params, body, auth, db, services }) =>
      services.reservations.assignRoom(db, auth, params.id, body.room),
  }),
  defineRoute({
    method: 'POST',
    path: '/hospitality/reservations/{id}/check_in',
    tag,
    summary: 'Check a guest in',
    description:
      'The stay needs a room (given here or before) that is not out of order, and at least one registered guest (given here or before).',
    auth: 'secret',
    params: idParams,
    body: checkInBody,
    response: reservationSchema,
    handler: ({ params, body, auth, db, services }) =>
      services.reservations.checkIn(db, auth, params.id, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/hospitality/reservations/{id}/guests',
    tag,
    summary: 'List a stay’s registered guests',
    auth: 'secret',
    params: idParams,
    response: z.object({
      object: z.literal('list'),
      data: z.array(registrationSchema),
      has_more: z.literal(false),
    }),
    handler: async ({ params, auth, db, services }) => ({
      object: 'list' as const,
      data: await services.guests.list(db, auth, params.id),
      has_more: false as const,
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/hospitality/reservations/{id}/guests',
    tag,
    summary: 'Register guests',
    description: 'Adds guests to the stay’s register (name, nationality, identity document, from and to).',
    auth: 'secret',
    status: 201,
    params: idParams,
    body: z.strictObject({ guests: z.array(guestRegistrationSchema).min(1).max(20) }),
    response: z.object({
      object: z.literal('list'),
      data: z.array(registrationSchema),
      has_more: z.literal(false),
    }),
    handler: async ({ params, body, auth, db, services }) => ({
      object: 'list' as const,
      data: await services.guests.register(db, auth, params.id, body.guests),
      has_more: false as const,
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/hospitality/reservations/{id}/registration_card',
    tag,
    summary: 'Get the registration card',
    description:
      'The card the stay’s guests sign, as a document for the receipt printer (rows, in `language`: sw or en).',
    auth: 'secret',
    params: idParams,
    query: z.object({ language: z.enum(RECEIPT_LANGUAGES).default('sw') }),
    response: rowsDocumentSchema,
    handler: ({ params, query, auth, db, services }) =>
      services.guests.card(db, auth, params.id, query.language),
  }),
  step('confirm', 'Confirm a reservation', 'Accepts a pending (on request) reservation.', 'confirm'),
  step(
    'cancel',
    'Cancel a reservation',
    'Cancels a booking, or declines a request; its room is free at once.',
    'cancel',
  ),
  step(
    'no_show',
    'Mark a no-show',
    'A confirmed guest who never came, once the stay should have begun.',
    'markNoShow',
  ),
];
