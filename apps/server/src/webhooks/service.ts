import { AppError, generateWebhookSecret, newId, notFound, type WebhookDeliveryStatus } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Actor } from '../actor.ts';
import { listPage, type ListEnvelope, type ListQuery } from '../db/list-page.ts';
import { EVENT_TYPES, type EventType } from '../infra/event-types.ts';
import { recordEvent } from '../infra/events.ts';
import type { SecretBox } from '../infra/secrets-at-rest.ts';
import { findOwned } from '../infra/owned.ts';
import { unixOrNull, unixSeconds } from '../infra/time.ts';
import { assertWebhookUrlAllowed } from './ssrf.ts';

/** Health looks at this many most recent attempts of an endpoint. */
export const HEALTH_WINDOW_ATTEMPTS = 100;

interface EndpointRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  url: string;
  description: string | null;
  events: string[];
  status: 'enabled' | 'disabled';
  disabled_reason: 'manual' | 'consecutive_failures' | null;
  secret: string;
  previous_secret_expires_at: Date | null;
  consecutive_failures: number;
  created_at: Date;
  deleted_at: Date | null;
}

interface HealthRow {
  id: string;
  recent_attempts: number;
  recent_successes: number;
  last_at: Date | null;
  last_status_code: number | null;
  last_succeeded: boolean | null;
  last_error: string | null;
  last_duration_ms: number | null;
}

interface DeliveryRow {
  id: string;
  livemode: boolean;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  failure_reason: string | null;
  attempt_count: number;
  next_attempt_at: Date | null;
  replayed_from: string | null;
  created_at: Date;
}

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  succeeded: boolean;
  error: string | null;
  response_body: string | null;
}

const tenantParams = (actor: Actor) => [actor.merchantId, actor.livemode] as const;

/** Refuses unknown event types with 400 event_type_unknown; `*` is allowed only where `allowAll`. */
export function assertEventTypes(types: readonly string[], field: string, allowAll: boolean): void {
  const known = new Set<string>(EVENT_TYPES);
  const details: Record<string, string> = {};
  types.forEach((type, i) => {
    if (!(known.has(type) || (allowAll && type === '*')))
      details[types.length > 1 || allowAll ? `${field}.${i}` : field] = `unknown event type '${type}'`;
  });
  if (Object.keys(details).length > 0) {
    throw new AppError('event_type_unknown', `Unknown event type: ${Object.values(details).join(', ')}`, {
      details,
    });
  }
}

const normaliseEvents = (events: readonly string[]): string[] =>
  events.includes('*') ? ['*'] : [...new Set(events)];

function endpointObject(row: EndpointRow, health: HealthRow | undefined, secret?: string) {
  return {
    id: row.id,
    object: 'webhook_endpoint' as const,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    disabled_reason: row.disabled_reason,
    livemode: row.livemode,
    created: unixSeconds(row.created_at),
    ...(secret ? { secret } : {}),
    previous_secret_expires_at:
      row.previous_secret_expires_at && row.previous_secret_expires_at.getTime() > Date.now()
        ? unixSeconds(row.previous_secret_expires_at)
        : null,
    health: {
      consecutive_failures: row.consecutive_failures,
      recent_attempts: health?.recent_attempts ?? 0,
      recent_success_rate:
        health && health.recent_attempts > 0
          ? Math.round((health.recent_successes / health.recent_attempts) * 1000) / 1000
          : null,
      last_attempt:
        health?.last_at != null
          ? {
              at: unixSeconds(health.last_at),
              succeeded: health.last_succeeded ?? false,
              status_code: health.last_status_code,
              duration_ms: health.last_duration_ms ?? 0,
              error: health.last_error,
            }
          : null,
    },
  };
}
export type WebhookEndpointObject = ReturnType<typeof endpointObject>;

async function healthOf(db: Queryable, ids: string[]): Promise<Map<string, HealthRow>> {
  if (ids.length === 0) return new Map();
  const found = await db.query<HealthRow>(
    `SELECT e.id, coalesce(recent.n, 0)::int AS recent_attempts, coalesce(recent.ok, 0)::int AS recent_successes,
       last.started_at AS last_at, last.status_code AS last_status_code, last.succeeded AS last_succeeded,
       last.error AS last_error, last.duration_ms AS last_duration_ms
     FROM unnest($1::text[]) AS e(id)
     LEFT JOIN LATERAL (
       SELECT count(*) AS n, count(*) FILTER (WHERE succeeded) AS ok FROM (
         SELECT succeeded FROM webhook_attempts a WHERE a.endpoint_id = e.id ORDER BY a.id DESC LIMIT ${HEALTH_WINDOW_ATTEMPTS}
       ) r
     ) recent ON true
     LEFT JOIN LATERAL (
       SELECT started_at, status_code, succeeded, error, duration_ms FROM webhook_attempts a
       WHERE a.endpoint_id = e.id ORDER BY a.id DESC LIMIT 1
     ) last ON true`,
    [ids],
  );
  return new Map(found.rows.map((row) => [row.id, row]));
}

async function endpointRow(db: Queryable, actor: Actor, id: string, lock = false): Promise<EndpointRow> {
  const row = await findOwned<EndpointRow>(db, 'webhook_endpoints', 'webhook endpoint', actor, id, { lock });
  if (row.deleted_at) throw notFound('webhook endpoint', id);
  return row;
}

/** Fails every pending delivery of an endpoint at once: it was deleted or disabled. */
async function failPending(
  db: Queryable,
  endpointId: string,
  reason: 'endpoint_deleted' | 'endpoint_disabled',
) {
  await db.query(
    `UPDATE webhook_deliveries SET status = 'failed', failure_reason = $2, next_attempt_at = NULL, completed_at = now()
     WHERE endpoint_id = $1 AND status = 'pending'`,
    [endpointId, reason],
  );
}

export interface EndpointInput {
  url: string;
  events: string[];
  description?: string | undefined;
}

/** An endpoint as stored for an idempotent replay: without its secret, which is shown once. */
export const withoutSecret = <T extends { secret?: string | undefined }>(endpoint: T): Omit<T, 'secret'> => {
  const { secret: _secret, ...rest } = endpoint;
  return rest;
};

export class WebhookService {
  constructor(
    private readonly secretBox: SecretBox,
    private readonly options: { allowPrivateUrls: boolean; rotationGraceSeconds: number },
  ) {}

  async createEndpoint(db: Queryable, actor: Actor, input: EndpointInput) {
    assertEventTypes(input.events, 'events', true);
    const url = await assertWebhookUrlAllowed(input.url, {
      livemode: actor.livemode,
      allowPrivate: this.options.allowPrivateUrls,
    });
    const secret = generateWebhookSecret();
    const id = newId('webhookEndpoint');
    const inserted = await db.query<EndpointRow>(
      `INSERT INTO webhook_endpoints (id, merchant_id, livemode, url, description, events, secret)
       VALUES ($3, $1, $2, $4, $5, $6, $7) RETURNING *`,
      [
        ...tenantParams(actor),
        id,
        url,
        input.description ?? null,
        normaliseEvents(input.events),
        this.secretBox.seal(secret, id),
      ],
    );
    return endpointObject(inserted.rows[0]!, undefined, secret);
  }

  async retrieveEndpoint(db: Queryable, actor: Actor, id: string) {
    const row = await endpointRow(db, actor, id);
    return endpointObject(row, (await healthOf(db, [row.id])).get(row.id));
  }

  async listEndpoints(
    db: Queryable,
    actor: Actor,
    query: ListQuery,
  ): Promise<ListEnvelope<WebhookEndpointObject>> {
    const page = await listPage(
      db,
      {
        table: 'webhook_endpoints',
        where: 'merchant_id = $1 AND livemode = $2 AND deleted_at IS NULL',
        params: [...tenantParams(actor)],
      },
      query,
      (row: EndpointRow) => row,
    );
    const health = await healthOf(
      db,
      page.data.map((row) => row.id),
    );
    return { ...page, data: page.data.map((row) => endpointObject(row, health.get(row.id))) };
  }

  async updateEndpoint(db: Queryable, actor: Actor, id: string, input: EndpointUpdate) {
    const row = await endpointRow(db, actor, id, true);
    if (input.events) assertEventTypes(input.events, 'events', true);
    const url =
      input.url === undefined
        ? row.url
        : await assertWebhookUrlAllowed(input.url, {
            livemode: actor.livemode,
            allowPrivate: this.options.allowPrivateUrls,
          });
    const status = input.status ?? row.status;
    const reenabled = row.status === 'disabled' && status === 'enabled';
    const updated = await db.query<EndpointRow>(
      `UPDATE webhook_endpoints SET url = $2, events = $3, description = $4, status = $5,
         disabled_reason = CASE WHEN $5 = 'enabled' THEN NULL WHEN status = 'disabled' THEN disabled_reason ELSE 'manual' END,
         consecutive_failures = CASE WHEN $6 THEN 0 ELSE consecutive_failures END,
         updated_at = now()
       WHERE id = $1 RETURNING *`,
      [
        row.id,
        url,
        input.events ? normaliseEvents(input.events) : row.events,
        input.description === undefined ? row.description : input.description,
        status,
        reenabled,
      ],
    );
    if (status === 'disabled' && row.status === 'enabled') await failPending(db, row.id, 'endpoint_disabled');
    const next = updated.rows[0]!;
    return endpointObject(next, (await healthOf(db, [next.id])).get(next.id));
  }

  async deleteEndpoint(db: Queryable, actor: Actor, id: string) {
    const row = await endpointRow(db, actor, id, true);
    await db.query(`UPDATE webhook_endpoints SET deleted_at = now(), updated_at = now() WHERE id = $1`, [
      row.id,
    ]);
    await failPending(db, row.id, 'endpoint_deleted');
    return { id: row.id, object: 'webhook_endpoint' as const, deleted: true as const };
  }

  /**
   * A new secret signs at once. The previous one keeps signing beside it (in
   * webhook-signature only) for WEBHOOK_ROTATION_GRACE_SECONDS; a second rotation
   * within that time replaces it.
   */
  async rotateSecret(db: Queryable, actor: Actor, id: string) {
    const row = await endpointRow(db, actor, id, true);
    const secret = generateWebhookSecret();
    const grace = this.options.rotationGraceSeconds;
    const updated = await db.query<EndpointRow>(
      `UPDATE webhook_endpoints SET secret = $2,
         previous_secret = CASE WHEN $3 > 0 THEN secret END,
         previous_secret_expires_at = CASE WHEN $3 > 0 THEN now() + make_interval(secs => $3) END,
         updated_at = now()
       WHERE id = $1 RETURNING *`,
      [row.id, this.secretBox.seal(secret, row.id), grace],
    );
    const next = updated.rows[0]!;
    return endpointObject(next, (await healthOf(db, [next.id])).get(next.id), secret);
  }

  async listDeliveries(
    db: Queryable,
    actor: Actor,
    query: ListQuery & DeliveryFilters,
  ): Promise<ListEnvelope<WebhookDeliveryObject>> {
    const params: unknown[] = [...tenantParams(actor)];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (query.endpoint) where += ` AND endpoint_id = $${params.push(query.endpoint)}`;
    if (query.event) where += ` AND event_id = $${params.push(query.event)}`;
    if (query.event_type) where += ` AND event_type = $${params.push(query.event_type)}`;
    if (query.object)
      where += ` AND event_id IN (SELECT id FROM events WHERE merchant_id = $1 AND livemode = $2
        AND data -> 'object' ->> 'id' = $${params.push(query.object)})`;
    if (query.status) where += ` AND status = $${params.push(query.status)}`;
    const page = await listPage(
      db,
      { table: 'webhook_deliveries', where, params },
      query,
      (row: DeliveryRow) => row,
    );
    const attempts = await attemptsOf(
      db,
      page.data.map((row) => row.id),
    );
    return { ...page, data: page.data.map((row) => deliveryObject(row, attempts.get(row.id) ?? [])) };
  }

  async retrieveDelivery(db: Queryable, actor: Actor, id: string) {
    const row = await findOwned<DeliveryRow>(db, 'webhook_deliveries', 'webhook delivery', actor, id);
    return deliveryObject(row, (await attemptsOf(db, [row.id])).get(row.id) ?? []);
  }

  /**
   * Sends a logged delivery's event again to the same endpoint, as a new event
   * (fresh id, same type and data) and a new delivery naming the original in
   * `replayed_from`. The copy is written as already fanned out, so it reaches
   * only that endpoint.
   */
  async replayDelivery(db: Queryable, actor: Actor, id: string) {
    const found = await db.query<{
      id: string;
      endpoint_id: string;
      event_type: string;
      api_version: string;
      data: unknown;
      endpoint_status: string;
      endpoint_deleted: boolean;
    }>(
      `SELECT d.id, d.endpoint_id, d.event_type, ev.api_version, ev.data, e.status AS endpoint_status,
         e.deleted_at IS NOT NULL AS endpoint_deleted
       FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.id = $3 AND d.merchant_id = $1 AND d.livemode = $2`,
      [...tenantParams(actor), id],
    );
    const original = found.rows[0];
    if (!original) throw notFound('webhook delivery', id);
    if (original.endpoint_deleted || original.endpoint_status !== 'enabled') {
      const state = original.endpoint_deleted ? 'was deleted' : 'is disabled; enable it first';
      throw new AppError('webhook_endpoint_inactive', `The endpoint of this delivery ${state}`, {
        details: {
          id: `endpoint ${original.endpoint_id} ${original.endpoint_deleted ? 'was deleted' : 'is disabled'}`,
        },
      });
    }
    const eventId = newId('event');
    await db.query(
      `INSERT INTO events (id, merchant_id, livemode, type, api_version, data, dispatched_at) VALUES ($3, $1, $2, $4, $5, $6, now())`,
      [
        ...tenantParams(actor),
        eventId,
        original.event_type,
        original.api_version,
        JSON.stringify(original.data),
      ],
    );
    const inserted = await db.query<DeliveryRow>(
      `INSERT INTO webhook_deliveries (id, merchant_id, livemode, endpoint_id, event_id, event_type, status, next_attempt_at, replayed_from)
       VALUES ($3, $1, $2, $4, $5, $6, 'pending', now(), $7) RETURNING *`,
      [
        ...tenantParams(actor),
        newId('webhookDelivery'),
        original.endpoint_id,
        eventId,
        original.event_type,
        original.id,
      ],
    );
    return deliveryObject(inserted.rows[0]!, []);
  }

  /** A synthetic test-mode event through the real outbox; it moves no money. */
  async sendTestEvent(db: Queryable, actor: Actor, input: { type: string; data: Record<string, unknown> }) {
    if (actor.livemode) {
      throw new AppError('test_mode_only', 'Test events can only be sent with a test-mode key', {
        details: { authorization: 'use a sk_test_ key' },
      });
    }
    assertEventTypes([input.type], 'type', false);
    const eventId = await recordEvent(db, {
      merchantId: actor.merchantId,
      livemode: false,
      type: input.type as EventType,
      object: input.data,
    });
    const found = await db.query<{
      id: string;
      type: string;
      created_at: Date;
      livemode: boolean;
      api_version: string;
      data: { object: Record<string, unknown> };
    }>('SELECT id, type, created_at, livemode, api_version, data FROM events WHERE id = $1', [eventId]);
    const event = found.rows[0]!;
    return {
      id: event.id,
      object: 'event' as const,
      type: event.type,
      created: unixSeconds(event.created_at),
      livemode: event.livemode,
      api_version: event.api_version,
      data: event.data,
    };
  }
}

export interface EndpointUpdate {
  url?: string | undefined;
  events?: string[] | undefined;
  description?: string | null | undefined;
  status?: 'enabled' | 'disabled' | undefined;
}

function deliveryObject(row: DeliveryRow, attempts: AttemptRow[]) {
  return {
    id: row.id,
    object: 'webhook_delivery' as const,
    endpoint: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    failure_reason: row.failure_reason,
    attempts: attempts.map((a) => ({
      at: unixSeconds(a.started_at),
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
      succeeded: a.succeeded,
      response_body: a.response_body,
    })),
    next_attempt_at: unixOrNull(row.next_attempt_at),
    livemode: row.livemode,
    created: unixSeconds(row.created_at),
    replayed_from: row.replayed_from,
  };
}
export type WebhookDeliveryObject = ReturnType<typeof deliveryObject>;

async function attemptsOf(db: Queryable, ids: string[]): Promise<Map<string, AttemptRow[]>> {
  const byDelivery = new Map<string, AttemptRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byDelivery;
  const found = await db.query<AttemptRow>(
    `SELECT delivery_id, attempt, started_at, duration_ms, status_code, succeeded, error, response_body
     FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id, attempt`,
    [ids],
  );
  for (const row of found.rows) byDelivery.get(row.delivery_id)?.push(row);
  return byDelivery;
}

export interface DeliveryFilters {
  endpoint?: string | undefined;
  event?: string | undefined;
  event_type?: string | undefined;
  /** The id of the object the delivered events are about. */
  object?: string | undefined;
  status?: WebhookDeliveryStatus | undefined;
}
