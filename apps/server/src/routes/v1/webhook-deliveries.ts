import { z } from 'zod';
import { defineRoute } from '../../http/route.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { idParams, livemode, unix } from './schemas.ts';

const deliverySchema = z.object({
  id: z.string().describe('Begins with whd_'),
  object: z.literal('webhook_delivery'),
  endpoint: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  failure_reason: z.enum(['attempts_exhausted', 'endpoint_deleted', 'endpoint_disabled']).nullable(),
  attempts: z.array(
    z.object({
      at: unix,
      status_code: z.number().int().nullable(),
      duration_ms: z.number().int(),
      error: z.string().nullable(),
      succeeded: z.boolean(),
      response_body: z.string().nullable().describe('The first 1024 bytes of the response body'),
    }),
  ),
  next_attempt_at: unix.nullable(),
  livemode,
  created: unix,
  replayed_from: z.string().nullable().describe('The delivery this one replays'),
});

export const webhookDeliveryRoutes = [
  defineRoute({
    method: 'GET',
    path: '/webhook-deliveries',
    tag: 'Webhooks',
    summary: 'List webhook deliveries, newest first',
    description:
      'Every attempt of each delivery, with its time, status code, duration, error and the start of the response body.',
    auth: 'secret',
    query: listQuery.extend({
      endpoint: z.string().max(255).optional(),
      event: z.string().max(255).optional().describe('An event id (evt_...)'),
      event_type: z.string().max(100).optional(),
      object: z
        .string()
        .max(255)
        .optional()
        .describe('Only the deliveries of events about this object (pay_…)'),
      status: z.enum(['pending', 'succeeded', 'failed']).optional(),
    }),
    response: listEnvelope(deliverySchema),
    handler: ({ query, auth, db, services }) => services.webhooks.listDeliveries(db, auth, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhook-deliveries/{id}',
    tag: 'Webhooks',
    summary: 'Retrieve a webhook delivery',
    auth: 'secret',
    params: idParams,
    response: deliverySchema,
    handler: ({ params, auth, db, services }) => services.webhooks.retrieveDelivery(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhook-deliveries/{id}/replay',
    tag: 'Webhooks',
    summary: 'Replay a delivery',
    description:
      'Sends the delivery’s event again to its endpoint as a new delivery with a fresh event id; both the delivery and the event carry `replayed_from`. Send an Idempotency-Key so a retried request replays once.',
    auth: 'secret',
    status: 201,
    params: idParams,
    response: deliverySchema,
    handler: ({ params, auth, db, services }) => services.webhooks.replayDelivery(db, auth, params.id),
  }),
];
