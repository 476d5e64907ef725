import { z } from 'zod';
import { listPage } from '../../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../../http/list.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  CONFLICT_ACTIONS,
  CONFLICT_KINDS,
  FEED_STATUSES,
  feedObject,
  type FeedRow,
} from '../../../hospitality/channels.ts';
import { idParams, livemode, unix } from '../schemas.ts';
import { tag } from './schemas.ts';

/** Channels: each room type's secret iCal export, the feeds imported into it, and the conflicts to decide. */

const date = z.string().describe('YYYY-MM-DD');

const feedSchema = z.object({
  id: z.string().describe('Begins with chfeed_'),
  object: z.literal('channel_feed'),
  room_type: z.string(),
  name: z.string(),
  url: z.string(),
  last_fetched: unix.nullable(),
  last_status: z.enum(FEED_STATUSES).nullable().describe('null until the first fetch'),
  last_error: z.string().nullable().describe('Why the last fetch failed or changed nothing'),
  last_event_count: z.number().int().nullable(),
  next_fetch: unix,
  livemode,
  created: unix,
});

const conflictSchema = z.object({
  id: z.string().describe('Begins with chcon_'),
  object: z.literal('channel_conflict'),
  room_type: z.string(),
  feed: z.string(),
  uid: z.string().describe('The event’s UID in the feed'),
  kind: z
    .enum(CONFLICT_KINDS)
    .describe(
      '`collision`: no room was free; `refused`: the booking was refused for another reason; `missing`: the feed no longer lists a booked event; `changed`: it lists it on other dates',
    ),
  arrival: date,
  departure: date,
  reservation: z.string().nullable().describe('The reservation the event became (missing, changed)'),
  detail: z.string(),
  resolution: z.enum([...CONFLICT_ACTIONS, 'feed']).nullable(),
  resolved: unix.nullable(),
  livemode,
  created: unix,
});

const exportSchema = z.object({
  object: z.literal('channel_export'),
  room_type: z.string(),
  status: z.literal('active'),
  url: z
    .string()
    .nullable()
    .describe(
      'The secret calendar URL, shown once (null in an Idempotency-Key replay): rotate for a new one',
    ),
  url_hint: z.string(),
  created: unix,
});

const channelsSchema = z.object({
  object: z.literal('hospitality_channels'),
  data: z.array(
    z.object({
      room_type: z.object({ id: z.string(), name: z.string() }),
      export: z.object({
        status: z.enum(['active', 'none']),
        url_hint: z
          .string()
          .nullable()
          .describe('The end of the export URL, to tell which one a channel holds'),
        created: unix.nullable(),
      }),
      feeds: z.array(feedSchema),
      conflicts: z.array(conflictSchema).describe('Open conflicts, oldest first'),
    }),
  ),
});

const roomTypeParams = z.object({ room_type: z.string().min(1).max(255) });

export const channelRoutes = [
  defineRoute({
    method: 'GET',
    path: '/hospitality/channels',
    tag,
    summary: 'Get channels',
    description:
      'Per room type: whether it has an iCal export, the feeds imported into it with their last fetch, and the open conflicts for a person to decide.',
    auth: 'secret',
    response: channelsSchema,
    handler: ({ auth, db, services }) => services.channels.overview(db, auth),
  }),
  defineRoute({
    method: 'POST',
    path: '/hospitality/channels/exports',
    tag,
    summary: 'Create or rotate an iCal export',
    description:
      'A secret calendar URL for the room type (no key needed to read it: the URL is the secret), shown once. Calling again rotates it: the old URL answers 404.',
    auth: 'secret',
    status: 201,
    body: z.strictObject({ room_type: z.string().min(1).max(255).describe('The room type (rt_...)') }),
    response: exportSchema,
    storedResponse: (output) => ({ ...output, url: null }),
    handler: ({ body, auth, db, services }) => services.channels.rotateExport(db, auth, body.room_type),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/hospitality/channels/exports/{room_type}',
    tag,
    summary: 'Revoke an iCal export',
    description: 'The room type’s calendar URL answers 404 from now on.',
    auth: 'secret',
    params: roomTypeParams,
    response: z.object({
      object: z.literal('channel_export'),
      room_type: z.string(),
      deleted: z.literal(true),
    }),
    handler: ({ params, auth, db, services }) => services.channels.revokeExport(db, auth, params.room_type),
  }),
  defineRoute({
    method: 'POST',
    path: '/hospitality/channels/feeds',
    tag,
    summary: 'Add an iCal feed',
    description:
      'A channel’s calendar (Booking.com, Airbnb, …) imported into the room type: fetched now and then every `CHANNEL_IMPORT_INTERVAL_SECONDS`. The URL follows the webhook rules: https in live mode, no private, loopback or metadata address.',
    auth: 'secret',
    status: 201,
    body: z.strictObject({
      room_type: z.string().min(1).max(255).describe('The room type (rt_...)'),
      url: z.string().min(1).max(2000),
      name: z.string().trim().min(1).max(100).describe('The channel, as the front desk sees it'),
    }),
    response: feedSchema,
    handler: async ({ body, auth, db, services, afterCommit }) => {
      const feed = await services.channels.addFeed(db, auth, body);
      afterCommit(() => Promise.resolve(services.channelImports.wake()));
      return feed;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/hospitality/channels/feeds',
    tag,
    summary: 'List iCal feeds',
    auth: 'secret',
    query: listQuery.extend({ room_type: z.string().max(255).optional() }),
    response: listEnvelope(feedSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.channels.feedsSource(auth, query.room_type), query, (row: FeedRow) =>
        feedObject(row),
      ),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/hospitality/channels/feeds/{id}',
    tag,
    summary: 'Delete an iCal feed',
    description: 'Stops importing it. Its reservations stay, and so do its open conflicts.',
    auth: 'secret',
    params: idParams,
    response: feedSchema.extend({ deleted: z.literal(true) }),
    handler: ({ params, auth, db, services }) => services.channels.deleteFeed(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/hospitality/channels/conflicts/{id}/resolve',
    tag,
    summary: 'Resolve a channel conflict',
    description:
      '`keep` the reservation of a missing or changed event as it is, or `cancel_reservation`; `dismiss` an event that could not be booked (a collision or a refusal).',
    auth: 'secret',
    params: idParams,
    body: z.strictObject({ action: z.enum(CONFLICT_ACTIONS) }),
    response: conflictSchema,
    handler: ({ params, body, auth, db, services }) =>
      services.channels.resolveConflict(db, auth, params.id, body.action),
  }),
];
