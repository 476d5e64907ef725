import { z } from 'zod';
import {
  blackoutCreateBody,
  bookingModeBody,
  HOUSEKEEPING_STATUSES,
  propertyPatchBody,
  rateCreateBody,
  roomCreateBody,
  roomPatchBody,
  roomTypeCreateBody,
  roomTypePatchBody,
} from '@tz/core';
import { defineRoute } from '../../../http/route.ts';
import { listPage } from '../../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../../http/list.ts';
import { roomTypeObjects } from '../../../hospitality/property.ts';
import {
  blackoutObject,
  roomObject,
  type BlackoutRow,
  type RoomRow,
  type RoomTypeRow,
} from '../../../hospitality/objects.ts';
import { booleanQuery } from '../retail/schemas.ts';
import { idParams } from '../schemas.ts';
import { blackoutSchema, propertySchema, rateSchema, roomSchema, roomTypeSchema, tag } from './schemas.ts';

/** The property's setup: the property, booking mode, room types, rates, rooms and blackouts. */

const bookingModeSchema = z.object({
  object: z.literal('booking_mode'),
  property: propertySchema,
  room_type: roomTypeSchema.nullable().describe('The room type changed, when one was named'),
});

export const hospitalitySetupRoutes = [
  defineRoute({
    method: 'PATCH',
    path: '/hospitality/property',
    tag,
    summary: 'Update the property',
    description:
      'Name, times, region and levies. Fields left out keep their value; `null` puts a levy or rate back to its default. The property exists from the start, named after the business.',
    auth: 'secret',
    body: propertyPatchBody,
    response: propertySchema,
    handler: ({ body, auth, db, services }) => services.property.updateProperty(db, auth, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/hospitality/availability',
    tag,
    summary: 'Set booking mode',
    description:
      'How the property, or one room type, is booked: `nightly` or `day_use` (blocks of hours), confirmed `instant`ly or `on_request`.',
    auth: 'secret',
    body: bookingModeBody,
    response: bookingModeSchema,
    handler: ({ body, auth, db, services }) => services.property.setBookingMode(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/hospitality/room-types',
    tag,
    summary: 'List room types',
    auth: 'secret',
    query: listQuery.extend({ include_archived: booleanQuery }),
    response: listEnvelope(roomTypeSchema),
    handler: async ({ query, auth, db, services }) => {
      const page = await listPage(
        db,
        services.property.roomTypesSource(auth, query),
        query,
        (row: RoomTypeRow) => row,
      );
      return { ...page, data: await roomTypeObjects(db, page.data) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/hospitality/room-types',
    tag,
    summary: 'Create a room type',
    auth: 'secret',
    status: 201,
    body: roomTypeCreateBody,
    response: roomTypeSchema,
    handler: ({ body, auth, db, services }) => services.property.createRoomType(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/hospitality/room-types/{id}',
    tag,
    summary: 'Retrieve a room type',
    auth: 'secret',
    params: idParams,
    response: roomTypeSchema,
    handler: ({ params, auth, db, services }) => services.property.retrieveRoomType(db, auth, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/hospitality/room-types/{id}',
    tag,
    summary: 'Update a room type',
    description:
      'A new price applies to stays booked from now; booked stays keep the quote they were sold at.',
    auth: 'secret',
    params: idParams,
    body: roomTypePatchBody,
    response: roomTypeSchema,
    handler: ({ params, body, auth, db, services }) =>
      services.property.updateRoomType(db, auth, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/hospitality/room-types/{id}',
    tag,
    summary: 'Archive a room type',
    description:
      'Refused with 409 `reservations_in_the_way`, naming them, while reservations of the type hold rooms from now on. Its rooms are archived with it.',
    auth: 'secret',
    params: idParams,
    response: roomTypeSchema,
    handler: ({ params, auth, db, services }) => services.property.archiveRoomType(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/hospitality/rates',
    tag,
    summary: 'Create a rate',
    description:
      'A room type’s nightly price for a date range, on some weekdays or all. A weekday rate beats an every-day one; of two alike, the later one wins.',
    auth: 'secret',
    status: 201,
    body: rateCreateBody,
    response: rateSchema,
    handler: ({ body, auth, db, services }) => services.property.createRate(db, auth, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/hospitality/rates/{id}',
    tag,
    summary: 'Delete a rate',
    auth: 'secret',
    params: idParams,
    response: rateSchema.extend({ deleted: z.literal(true) }),
    handler: ({ params, auth, db, services }) => services.property.deleteRate(db, auth, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/hospitality/rooms',
    tag,
    summary: 'List rooms',
    auth: 'secret',
    query: listQuery.extend({
      room_type: z.string().max(255).optional(),
      housekeeping: z.enum(HOUSEKEEPING_STATUSES).optional(),
      include_archived: booleanQuery,
    }),
    response: listEnvelope(roomSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.rooms.roomsSource(auth, query), query, (row: RoomRow) => roomObject(row)),
  }),
  defineRoute({
    method: 'POST',
    path: '/hospitality/rooms',
    tag,
    summary: 'Create a room',
    auth: 'secret',
    status: 201,
    body: roomCreateBody,
    response: roomSchema,
    handler: ({ body, auth, db, services }) => services.rooms.createRoom(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/hospitality/rooms/{id}',
    tag,
    summary: 'Retrieve a room',
    auth: 'secret',
    params: idParams,
    response: roomSchema,
    handler: ({ params, auth, db, services }) => services.rooms.retrieveRoom(db, auth, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/hospitality/rooms/{id}',
    tag,
    summary: 'Update a room',
    description:
      'Number, floor, housekeeping (`clean`, `dirty`, `inspected`, `out_of_order`; a room out of order comes back as `dirty`) and type (only while no stay ahead holds it).',
    auth: 'secret',
    params: idParams,
    body: roomPatchBody,
    response: roomSchema,
    handler: ({ params, body, auth, db, services }) => services.rooms.updateRoom(db, auth, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/hospitality/rooms/{id}',
    tag,
    summary: 'Archive a room',
    description: 'Refused with 409 `reservations_in_the_way` while stays ahead hold the room.',
    auth: 'secret',
    params: idParams,
    response: roomSchema,
    handler: ({ params, auth, db, services }) => services.rooms.archiveRoom(db, auth, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/hospitality/blackouts',
    tag,
    summary: 'List blackouts',
    auth: 'secret',
    query: listQuery.extend({ include_deleted: booleanQuery }),
    response: listEnvelope(blackoutSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.rooms.blackoutsSource(auth, query), query, (row: BlackoutRow) =>
        blackoutObject(row),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: '/hospitality/blackouts',
    tag,
    summary: 'Create a blackout',
    description:
      'Closes a room, a room type or (neither given) the whole property for the nights from `starts_on` to `ends_on`. Refused with 409 `reservations_in_the_way`, naming them, when reservations hold rooms it would close.',
    auth: 'secret',
    status: 201,
    body: blackoutCreateBody,
    response: blackoutSchema,
    handler: ({ body, auth, db, services }) => services.rooms.createBlackout(db, auth, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/hospitality/blackouts/{id}',
    tag,
    summary: 'Delete a blackout',
    auth: 'secret',
    params: idParams,
    response: blackoutSchema,
    handler: ({ params, auth, db, services }) => services.rooms.deleteBlackout(db, auth, params.id),
  }),
];
