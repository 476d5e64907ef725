import { z } from 'zod';
import { defineRoute } from '../../http/route.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { EVENT_TYPES } from '../../infra/event-types.ts';
import { withoutSecret } from '../../webhooks/service.ts';
import { idParams, livemode, unix } from './schemas.ts';

const eventList = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(100)
  .describe(`Event types to receive, or ["*"] for all: ${EVENT_TYPES.join(', ')}`);
const url = z
  .string()
  .min(1)
  .max(2048)
  .describe('https URL (http is accepted in test mode); must resolve to a public address');

const endpointSchema = z.object({
  id: z.string().describe('Begins with we_'),
  object: z.literal('webhook_endpoint'),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  status: z.enum(['enabled', 'disabled']),
  disabled_reason: z.enum(['manual', 'consecutive_failures']).nullable(),
  livemode,
  created: unix,
  secret: z
    .string()
    .optional()
    .describe('whsec_...; only in the responses that create the endpoint or rotate its secret'),
  previous_secret_expires_at: unix
    .nullable()
    .describe('Until then the previous secret also signs webhook-signature'),
  health: z.object({
    consecutive_failures: z
      .number()
      .int()
      .describe('Failed deliveries in a row; reaching the limit disables the endpoint'),
    recent_attempts: z
      .number()
      .int()
      .describe('Attempts counted in recent_success_rate (the last 100 at most)'),
    recent_success_rate: z.number().min(0).max(1).nullable(),
    last_attempt: z
      .object({
        at: unix,
        succeeded: z.boolean(),
        status_code: z.number().int().nullable(),
        duration_ms: z.number().int(),
        error: z.string().nullable(),
      })
      .nullable(),
  }),
});

export const webhookRoutes = [
  defineRoute({
    method: 'POST',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'Create a webhook endpoint',
    description:
      'The endpoint receives the events of the key’s mode only. The signing `secret` is in this response only. URLs resolving to private, loopback, link-local or metadata addresses are refused; live mode requires https.',
    auth: 'secret',
    status: 201,
    body: z.strictObject({ url, events: eventList, description: z.string().max(500).optional() }),
    response: endpointSchema,
    storedResponse: withoutSecret,
    handler: ({ body, auth, db, services }) => services.webhooks.createEndpoint(db, auth, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'List webhook endpoints with their health',
    auth: 'secret',
    query: listQuery,
    response: listEnvelope(endpointSchema),
    handler: ({ query, auth, db, services }) => services.webhooks.listEndpoints(db, auth, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/{id}',
    tag: 'Webhooks',
    summary: 'Retrieve a webhook endpoint',
    auth: 'secret',
    params: idParams,
    response: endpointSchema,
    handler: ({ params, auth, db, services }) => services.webhooks.retrieveEndpoint(db, auth, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/webhooks/{id}',
    tag: 'Webhooks',
    summary: 'Update a webhook endpoint',
    description:
      'Change `url`, `events` or `description`, or set `status` to `disabled` or `enabled`. Disabling fails the endpoint’s pending deliveries at once; enabling resets its failure count.',
    auth: 'secret',
    params: idParams,
    body: z
      .strictObject({
        url: url.optional(),
        events: eventList.optional(),
        description: z.string().max(500).nullable().optional(),
        status: z.enum(['enabled', 'disabled']).optional(),
      })
      .refine((b) => Object.values(b).some((v) => v !== undefined), {
        error: 'give at least one field',
        path: ['body'],
      }),
    response: endpointSchema,
    handler: ({ params, body, auth, db, services }) =>
      services.webhooks.updateEndpoint(db, auth, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/webhooks/{id}',
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint',
    description: 'Its pending deliveries fail at once. Its delivery log stays readable.',
    auth: 'secret',
    params: idParams,
    response: z.object({ id: z.string(), object: z.literal('webhook_endpoint'), deleted: z.literal(true) }),
    handler: ({ params, auth, db, services }) => services.webhooks.deleteEndpoint(db, auth, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/{id}/rotate-secret',
    tag: 'Webhooks',
    summary: 'Rotate the signing secret',
    description:
      'Returns the endpoint with its new `secret`, which signs at once. The previous secret also signs `webhook-signature` until `previous_secret_expires_at` (24 hours by default).',
    auth: 'secret',
    params: idParams,
    response: endpointSchema,
    storedResponse: withoutSecret,
    handler: ({ params, auth, db, services }) => services.webhooks.rotateSecret(db, auth, params.id),
  }),
];
