import { toSchema, type JsonSchema } from './openapi.ts';
import type { AnyRoute } from './route.ts';
import { EVENT_TYPES } from '../infra/event-types.ts';
import { API_VERSION } from '../infra/events.ts';

const DESCRIPTIONS: Record<string, string> = {
  'payment.created': 'A payment was created and the payer was asked to approve it.',
  'payment.succeeded': 'A payment was paid; `fee` and `net` are set and the ledger was posted.',
  'payment.failed': 'A payment failed; `failure_code` says why.',
  'payment.refunded': 'A paid payment was refunded in full.',
  'checkout.completed': 'A checkout was paid; `payment` names the payment.',
  'customer.created':
    'A customer was created, by the API or at a till (`metadata.till`; a phone known already makes none).',
  'escrow.held': 'A paid payment’s net was moved into escrow, split among its recipients.',
  'escrow.released':
    'Money left escrow: a split reached its merchant or phone (with the platform fee on the first release).',
  'escrow.refunded': 'What the escrow still held went back to the payer.',
  'subscription.created': 'A subscription was created; its first period opens at `next_renewal`.',
  'subscription.renewed':
    'A period of a subscription was paid for (the first one included); `current_period_end` is when the next opens.',
  'subscription.past_due':
    'A subscription’s charge failed; it is retried on the dunning schedule and no new period opens meanwhile.',
  'subscription.canceled':
    'A subscription was canceled; `cancellation_reason` is `requested` or `payment_failed` (every retry failed).',
  'print_job.created': 'A print job was created; it waits (`pending`) for its printer’s till to print it.',
  'print_job.printed': 'A till printed a job.',
  'print_job.failed':
    'A print job failed; `failure_reason` says why (`offline`, `paper_out`, `cover_open`, `timeout`, `till_revoked`).',
  'shift.opened': 'A cashier opened a shift at a till with an opening cash float.',
  'shift.closed': 'A shift was closed; `report` is its Z report (expected against counted, by tender).',
  'employee.created':
    'An employee was created: the whole record, personal and pay fields included, as a secret key reads it.',
  'employee.updated':
    'An employee changed (name, stores, PIN, record or `status`): the whole record as it is now; the PIN is never sent.',
  'reservation.created':
    'A reservation was made (`pending` when the property confirms on request, `confirmed` otherwise); its room is held.',
  'reservation.confirmed': 'A pending reservation was accepted by the property.',
  'reservation.checked_in': 'The guest arrived and was given the reservation’s room.',
  'reservation.checked_out': 'The guest left; the room is free from now and marked dirty.',
  'reservation.canceled': 'A reservation was canceled (or a request declined); its room is free again.',
  'reservation.no_show': 'The guest of a confirmed reservation never came; its room is free again.',
  'folio.closed': 'A stay’s folio was settled and closed at check-out.',
  'event_organizer.updated': 'The organizer’s name, contact, payout phone or refund policy changed.',
  'ticketed_event.created': 'An event was created, as a `draft`, with its door key.',
  'ticketed_event.updated': 'An event was changed or moved on (`published`, `ended`).',
  'ticketed_event.canceled': 'An event was canceled: its tickets no longer admit anyone.',
  'ticketed_event.deleted': 'An event without paid orders was deleted.',
  'event_tier.created': 'A tier of tickets was added to an event.',
  'event_tier.updated':
    'A tier’s name, price, quantity, sale window or limit changed; tickets sold keep their price.',
  'event_tier.deleted': 'A tier without tickets held or sold was deleted.',
  'event_promo.created': 'A promo code was added to an event.',
  'event_promo.deleted': 'A promo code was deleted; orders that used it keep their discount.',
  'event_order.created':
    'A ticket order took its tickets and holds them until `held_until` while the buyer pays.',
  'event_order.paid':
    'A ticket order was paid; its tickets are `valid`, each with its signed code, and `tickets_url` opens them as QR codes for the buyer.',
  'event_order.expired': 'A ticket order’s hold ran out unpaid; its tickets were given back.',
  'event_order.refunded':
    'A paid ticket order was refunded; its tickets are void and their seats back on sale.',
  'ticket.checked_in': 'A ticket was admitted at a door (`checked_in`: when and which door), once.',
  'ticket.double_admitted':
    'A door that could not know of a ticket’s admission (offline) admitted it again: the ticket, the admission that stands (`first`: its door and time) and the later door and time.',
};

/** The API's object schema for a resource name (`payment`), found among the routes that return it. */
function objectSchemas(routes: AnyRoute[]): Map<string, JsonSchema> {
  const found = new Map<string, JsonSchema>();
  for (const route of routes) {
    if (route.method !== 'GET' || !route.path.endsWith('}')) continue;
    const schema = toSchema(route.response, 'output');
    const name = (schema.properties as Record<string, { const?: unknown }> | undefined)?.object?.const;
    if (typeof name === 'string' && !found.has(name)) found.set(name, schema);
  }
  return found;
}

const header = (description: string, example?: string) => ({
  required: true,
  schema: { type: 'string' },
  description,
  ...(example ? { example } : {}),
});

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per type in EVENT_TYPES, so a
 * type added there is published here with no other change. `data.object` is
 * the API's own schema of the resource the type names, when a route returns it.
 */
export function webhookCatalog(routes: AnyRoute[]): Record<string, unknown> {
  const schemas = objectSchemas(routes);
  const catalog: Record<string, unknown> = {};
  for (const type of EVENT_TYPES) {
    const resource = type.split('.')[0] ?? type;
    const object = schemas.get(resource) ?? {
      type: 'object',
      description: `The ${resource} object as the API returns it`,
    };
    catalog[type] = {
      post: {
        operationId: `webhook_${type.replace(/\W/g, '_')}`,
        summary: type,
        description: `${DESCRIPTIONS[type] ?? `A ${type.replace('.', ' ')} event.`} Signed; see X-Webhook-Signature and webhook-signature. Respond with any 2xx within the timeout; anything else is retried.`,
        tags: ['Webhooks'],
        parameters: [
          header(
            'Lowercase hex HMAC-SHA256 of the raw body, keyed with the whole endpoint secret (whsec_...) as UTF-8',
          ),
          header('The event id (evt_...), the same on every attempt and equal to webhook-id'),
          header('The event type', type),
          header('Standard Webhooks: the event id'),
          header('Standard Webhooks: unix seconds of this attempt'),
          header(
            'Standard Webhooks: space-separated v1,<base64> signatures of `${webhook-id}.${webhook-timestamp}.${body}`',
          ),
        ].map((value, i) => ({
          in: 'header',
          name: [
            'X-Webhook-Signature',
            'X-Webhook-Id',
            'X-Webhook-Event',
            'webhook-id',
            'webhook-timestamp',
            'webhook-signature',
          ][i],
          ...value,
        })),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['id', 'object', 'type', 'created', 'livemode', 'api_version', 'data'],
                properties: {
                  id: { type: 'string', description: 'Begins with evt_; a replay has a fresh id' },
                  object: { const: 'event' },
                  type: { const: type },
                  created: { type: 'integer', description: 'Unix seconds' },
                  livemode: { type: 'boolean', description: 'False for test-mode and synthetic test events' },
                  api_version: { type: 'string', example: API_VERSION },
                  data: { type: 'object', required: ['object'], properties: { object } },
                  replayed_from: {
                    type: 'string',
                    description: 'On a replay only: the delivery (whd_...) it replays',
                  },
                },
              },
            },
          },
        },
        responses: {
          '2XX': { description: 'Received. Return quickly and do the work asynchronously.' },
          default: {
            description:
              'Any other status, a timeout or a connection error is a failed attempt and is retried.',
          },
        },
      },
    };
  }
  return catalog;
}
