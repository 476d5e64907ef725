import { z } from 'zod';
import { defineRoute } from '../../http/route.ts';
import { EVENT_TYPES } from '../../infra/event-types.ts';
import { livemode, unix } from './schemas.ts';

const eventSchema = z.object({
  id: z.string().describe('Begins with evt_'),
  object: z.literal('event'),
  type: z.string(),
  created: unix,
  livemode,
  api_version: z.string(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

export const webhookEventRoutes = [
  defineRoute({
    method: 'POST',
    path: '/webhook-events/test',
    tag: 'Webhooks',
    summary: 'Send a test event',
    description:
      'Test keys only. Delivers a synthetic event with `livemode: false` and the given `data` as `data.object` to the test-mode endpoints subscribed to `type` (or `*`). No money or ledger moves.',
    auth: 'secret',
    status: 201,
    body: z.strictObject({
      type: z
        .string()
        .min(1)
        .max(100)
        .describe(`One of ${EVENT_TYPES.join(', ')}`),
      data: z.record(z.string(), z.unknown()).default({}),
    }),
    response: eventSchema,
    handler: ({ body, auth, db, services }) => services.webhooks.sendTestEvent(db, auth, body),
  }),
];
