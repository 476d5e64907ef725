import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  afterAttempt,
  newId,
  signStandardWebhook,
  signWebhookBody,
  subscribes,
  type WebhookFailureReason,
} from '@tz/core';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { SecretBox } from '../infra/secrets-at-rest.ts';
import { API_VERSION, type EventSignal } from '../infra/events.ts';
import { Poller } from '../infra/poller.ts';
import { unixSeconds } from '../infra/time.ts';
import { WebhookSender, type AttemptResult } from './sender.ts';

const FAN_OUT_BATCH = 500;
const CLAIM_BATCH = 200;
const RECORD_BATCH = 200;
// A claim outlives the longest attempt by this much; after it, another process may take the delivery over.
const LEASE_MARGIN_MS = 30_000;
// Under a stream of writes, passes start at most this often, each taking all events written since the
// last: a few milliseconds of delay instead of a pass (and its statements) per write.
const MIN_PASS_GAP_MS = 10;

interface ClaimedDelivery {
  id: string;
  claim_token: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt_count: number;
  replayed_from: string | null;
  url: string;
  secret: string;
  previous_secret: string | null;
  endpoint_status: 'enabled' | 'disabled';
  endpoint_deleted: boolean;
  livemode: boolean;
  event_created_at: Date;
  api_version: string;
  data: unknown;
}

interface Recorded {
  delivery: ClaimedDelivery;
  result: AttemptResult;
}

/** The JSON body of a delivery: the same bytes on every attempt. */
export function eventEnvelope(row: {
  event_id: string;
  event_type: string;
  event_created_at: Date;
  livemode: boolean;
  api_version: string;
  data: unknown;
  replayed_from: string | null;
}): string {
  return JSON.stringify({
    id: row.event_id,
    object: 'event',
    type: row.event_type,
    created: unixSeconds(row.event_created_at),
    livemode: row.livemode,
    api_version: row.api_version,
    data: row.data,
    ...(row.replayed_from ? { replayed_from: row.replayed_from } : {}),
  });
}

/** Headers of one attempt: a fresh timestamp and signatures each time. */
export async function deliveryHeaders(
  delivery: {
    id: string;
    event_id: string;
    event_type: string;
    secret: string;
    previous_secret: string | null;
  },
  attempt: number,
  body: string,
): Promise<Record<string, string>> {
  const timestamp = unixSeconds(new Date());
  const secrets = delivery.previous_secret ? [delivery.secret, delivery.previous_secret] : [delivery.secret];
  const standard = await Promise.all(
    secrets.map((secret) => signStandardWebhook(secret, delivery.event_id, timestamp, body)),
  );
  return {
    'content-type': 'application/json',
    'user-agent': `tz-webhooks/${API_VERSION}`,
    'x-webhook-id': delivery.event_id,
    'x-webhook-event': delivery.event_type,
    'x-webhook-signature': await signWebhookBody(delivery.secret, body),
    'x-webhook-delivery': delivery.id,
    'x-webhook-attempt': String(attempt),
    'webhook-id': delivery.event_id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standard.join(' '),
  };
}

/**
 * Reads the event outbox and delivers webhooks. Works the same on PostgreSQL
 * and on the embedded database: every step is one short statement or
 * transaction that waits on nothing else, claims use FOR UPDATE SKIP LOCKED
 * with a lease, and HTTP happens outside any transaction. Any number of
 * processes may run one; each attempt is made by exactly one of them.
 */
export class WebhookDispatcher {
  private readonly sender: WebhookSender;
  private readonly poller: Poller;
  /** Events may be waiting in the outbox (set by the in-process signal; every poll looks too). */
  private fanOutRequested = false;
  /** The last claim was cut short by the in-flight limits, so a finished attempt should trigger another. */
  private claimLimited = false;
  private unsubscribe: (() => void) | undefined;
  private readonly inFlight = new Map<string, AbortController>();
  private readonly perEndpoint = new Map<string, number>();
  private readonly attempts = new Set<Promise<void>>();
  private recordQueue: Recorded[] = [];
  private recording: Promise<void> | undefined;

  constructor(
    private readonly database: Database,
    private readonly config: Config,
    private readonly secretBox: SecretBox,
    private readonly events: EventSignal,
    private readonly logger: Logger,
  ) {
    this.sender = new WebhookSender({
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS,
    });
    this.poller = new Poller((polled) => this.pass(polled), {
      intervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
      minGapMs: MIN_PASS_GAP_MS,
      logger,
      failure: 'webhook dispatch pass failed',
    });
  }

  private get stopped(): boolean {
    return this.poller.isStopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.unsubscribe = this.events.subscribe(() => this.wake(true));
    this.poller.start();
  }

  /** Runs a pass now (or right after the current one); `fanOut` when new events were written. */
  wake(fanOut = false): void {
    if (fanOut) this.fanOutRequested = true;
    this.poller.wake();
  }

  /** Stops claiming, abandons attempts in flight (their deliveries are released for the next process) and records the rest. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.unsubscribe?.();
    const stopping = this.poller.stop();
    for (const abort of this.inFlight.values()) abort.abort();
    await stopping;
    await Promise.allSettled([...this.attempts]);
    await this.recording;
    await this.flushRecords();
    this.sender.close();
  }

  /** Fans out new events (on a poll, or when this process wrote some), then claims and sends; true when more are due. */
  private async pass(polled: boolean): Promise<boolean> {
    if (polled || this.fanOutRequested) {
      this.fanOutRequested = false;
      while (!this.stopped && (await this.fanOut()) === FAN_OUT_BATCH);
    }
    return !this.stopped && (await this.claimAndSend());
  }

  /** Turns undispatched events into deliveries, one per subscribed endpoint of the event's merchant and mode. */
  async fanOut(): Promise<number> {
    const delays = this.config.WEBHOOK_RETRY_DELAYS_MS;
    // Committed lazily: a crash that lost it leaves the events undispatched, to fan out
    // again, and the claim that sends a delivery commits durably, flushing this first.
    return this.database.lazyTransaction(async (tx) => {
      const events = await tx.query<{ id: string; merchant_id: string; livemode: boolean; type: string }>(
        `SELECT id, merchant_id, livemode, type FROM events WHERE dispatched_at IS NULL
         ORDER BY seq LIMIT ${FAN_OUT_BATCH} FOR UPDATE SKIP LOCKED`,
      );
      if (events.rows.length === 0) return 0;
      const merchants = [...new Set(events.rows.map((e) => e.merchant_id))];
      const endpoints = await tx.query<{
        id: string;
        merchant_id: string;
        livemode: boolean;
        events: string[];
        status: string;
      }>(
        `SELECT id, merchant_id, livemode, events, status FROM webhook_endpoints
         WHERE merchant_id = ANY($1::text[]) AND deleted_at IS NULL ORDER BY seq`,
        [merchants],
      );
      const columns: string[][] = [[], [], [], [], [], []];
      const livemodes: boolean[] = [];
      for (const event of events.rows) {
        for (const endpoint of endpoints.rows) {
          if (endpoint.merchant_id !== event.merchant_id || endpoint.livemode !== event.livemode) continue;
          if (!subscribes(endpoint.events, event.type)) continue;
          // A disabled endpoint's deliveries are logged as failed, so they can be replayed once it is enabled again.
          const disabled = endpoint.status !== 'enabled';
          const row = [
            newId('webhookDelivery'),
            event.merchant_id,
            endpoint.id,
            event.id,
            event.type,
            disabled ? 'failed' : 'pending',
          ];
          row.forEach((value, i) => columns[i]!.push(value));
          livemodes.push(event.livemode);
        }
      }
      if (livemodes.length > 0) {
        tx.defer(
          `INSERT INTO webhook_deliveries (id, merchant_id, livemode, endpoint_id, event_id, event_type, status,
             failure_reason, next_attempt_at, completed_at)
           SELECT t.id, t.merchant_id, t.livemode, t.endpoint_id, t.event_id, t.event_type, t.status,
             CASE WHEN t.status = 'failed' THEN 'endpoint_disabled' END,
             CASE WHEN t.status = 'pending' THEN now() + make_interval(secs => $8::double precision / 1000) END,
             CASE WHEN t.status = 'failed' THEN now() END
           FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::text[])
             AS t(id, merchant_id, livemode, endpoint_id, event_id, event_type, status)
           ON CONFLICT (event_id, endpoint_id) DO NOTHING`,
          [columns[0], columns[1], livemodes, columns[2], columns[3], columns[4], columns[5], delays[0] ?? 0],
        );
      }
      tx.defer(`UPDATE events SET dispatched_at = now() WHERE id = ANY($1::text[])`, [
        events.rows.map((e) => e.id),
      ]);
      return events.rows.length;
    });
  }

  /**
   * Claims due deliveries (a lease per claim) and starts their attempts, within
   * the in-flight limits; true when the claim was full, so more may be due now.
   */
  private async claimAndSend(): Promise<boolean> {
    const slots = Math.min(CLAIM_BATCH, this.config.WEBHOOK_MAX_IN_FLIGHT - this.inFlight.size);
    if (slots <= 0) return false;
    const perEndpoint = this.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT;
    const busy = [...this.perEndpoint.entries()];
    const saturated = busy.filter(([, n]) => n >= perEndpoint).map(([id]) => id);
    const claimToken = randomUUID();
    const leaseMs = this.config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS;
    const claimed = await this.database.pool.query<ClaimedDelivery>(
      `WITH candidates AS (
         SELECT id, endpoint_id, next_attempt_at FROM webhook_deliveries
         WHERE status = 'pending' AND next_attempt_at <= now()
           AND (locked_until IS NULL OR locked_until < now())
           AND NOT (endpoint_id = ANY($3::text[]))
         ORDER BY next_attempt_at LIMIT $1 * 2
         FOR UPDATE SKIP LOCKED
       ), chosen AS (
         SELECT c.id FROM (
           SELECT id, endpoint_id, next_attempt_at,
                  row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at) AS n
           FROM candidates
         ) c
         LEFT JOIN unnest($4::text[], $5::int[]) AS b(endpoint_id, busy) ON b.endpoint_id = c.endpoint_id
         WHERE c.n + coalesce(b.busy, 0) <= $6
         ORDER BY c.next_attempt_at LIMIT $1
       )
       UPDATE webhook_deliveries d
       SET locked_until = now() + make_interval(secs => $2::double precision / 1000), claim_token = $7
       FROM chosen, webhook_endpoints e, events ev
       WHERE d.id = chosen.id AND e.id = d.endpoint_id AND ev.id = d.event_id
       RETURNING d.id, d.claim_token, d.endpoint_id, d.event_id, d.event_type, d.attempt_count, d.replayed_from,
         e.url, e.secret, CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret,
         e.status AS endpoint_status, e.deleted_at IS NOT NULL AS endpoint_deleted,
         ev.livemode, ev.created_at AS event_created_at, ev.api_version, ev.data`,
      [slots, leaseMs, saturated, busy.map(([id]) => id), busy.map(([, n]) => n), perEndpoint, claimToken],
    );
    for (const delivery of claimed.rows) {
      if (delivery.endpoint_deleted || delivery.endpoint_status !== 'enabled') {
        await this.failWithoutAttempt(
          delivery,
          delivery.endpoint_deleted ? 'endpoint_deleted' : 'endpoint_disabled',
        );
        continue;
      }
      this.startAttempt(delivery);
    }
    // A full claim means more may be due now; a limited one, that finishing attempts make room.
    this.claimLimited =
      claimed.rows.length === slots || [...this.perEndpoint.values()].some((n) => n >= perEndpoint);
    return claimed.rows.length === slots;
  }

  private async failWithoutAttempt(delivery: ClaimedDelivery, reason: WebhookFailureReason): Promise<void> {
    await this.database.pool.query(
      `UPDATE webhook_deliveries SET status = 'failed', failure_reason = $3, next_attempt_at = NULL,
         completed_at = now(), locked_until = NULL, claim_token = NULL
       WHERE id = $1 AND claim_token = $2 AND status = 'pending'`,
      [delivery.id, delivery.claim_token, reason],
    );
  }

  private startAttempt(delivery: ClaimedDelivery): void {
    const abort = new AbortController();
    this.inFlight.set(delivery.id, abort);
    this.perEndpoint.set(delivery.endpoint_id, (this.perEndpoint.get(delivery.endpoint_id) ?? 0) + 1);
    const attempt = (async () => {
      let result: AttemptResult;
      try {
        const body = eventEnvelope(delivery);
        const open = (sealed: string) => this.secretBox.open(sealed, delivery.endpoint_id);
        const signing = {
          ...delivery,
          secret: open(delivery.secret),
          previous_secret: delivery.previous_secret && open(delivery.previous_secret),
        };
        const headers = await deliveryHeaders(signing, delivery.attempt_count + 1, body);
        result = await this.sender.send(delivery.url, body, headers, abort.signal);
      } finally {
        // The slot frees even when the attempt could not be made (its lease then lapses and a later pass retries).
        this.inFlight.delete(delivery.id);
        const left = (this.perEndpoint.get(delivery.endpoint_id) ?? 1) - 1;
        if (left > 0) this.perEndpoint.set(delivery.endpoint_id, left);
        else this.perEndpoint.delete(delivery.endpoint_id);
      }
      this.recordQueue.push({ delivery, result });
      this.recording ??= this.flushRecords().finally(() => {
        this.recording = undefined;
      });
      if (this.claimLimited) this.wake();
    })().catch((error: unknown) =>
      this.logger.error({ err: error, delivery: delivery.id }, 'webhook attempt failed to run'),
    );
    this.attempts.add(attempt);
    void attempt.finally(() => this.attempts.delete(attempt));
  }

  /** Writes finished attempts in batches: one statement records the attempt and moves the delivery on. */
  private async flushRecords(): Promise<void> {
    while (this.recordQueue.length > 0) {
      const batch = this.recordQueue.splice(0, RECORD_BATCH);
      try {
        await this.record(batch);
      } catch (error) {
        // The claims' leases expire and the deliveries are attempted again: at least once, never lost.
        this.logger.warn({ err: error, count: batch.length }, 'recording webhook attempts failed');
      }
    }
  }

  private async record(batch: Recorded[]): Promise<void> {
    const released = batch.filter((r) => r.result.aborted);
    if (released.length > 0) {
      await this.database.pool.query(
        `UPDATE webhook_deliveries d SET locked_until = NULL, claim_token = NULL
         FROM unnest($1::text[], $2::text[]) AS r(id, token) WHERE d.id = r.id AND d.claim_token = r.token`,
        [released.map((r) => r.delivery.id), released.map((r) => r.delivery.claim_token)],
      );
    }
    const done = batch.filter((r) => !r.result.aborted);
    if (done.length === 0) return;
    const delays = this.config.WEBHOOK_RETRY_DELAYS_MS;
    const outcomes = done.map((r) => afterAttempt(r.delivery.attempt_count + 1, r.result.succeeded, delays));
    const recorded = await this.database.pool.query<{
      id: string;
      endpoint_id: string;
      completed: 'succeeded' | 'failed' | null;
    }>(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::int[], $6::int[], $7::boolean[],
           $8::text[], $9::text[], $10::text[], $11::double precision[])
           AS t(id, token, attempt, started_at, duration_ms, status_code, succeeded, error, response_body, next_status, retry_ms)
       ), updated AS (
         UPDATE webhook_deliveries d SET
           attempt_count = i.attempt,
           status = CASE WHEN i.succeeded THEN 'succeeded' WHEN d.status <> 'pending' THEN d.status ELSE i.next_status END,
           failure_reason = CASE WHEN i.succeeded THEN NULL WHEN d.status <> 'pending' THEN d.failure_reason
                                 WHEN i.next_status = 'failed' THEN 'attempts_exhausted' END,
           next_attempt_at = CASE WHEN d.status = 'pending' AND NOT i.succeeded AND i.next_status = 'pending'
                                  THEN clock_timestamp() + make_interval(secs => i.retry_ms / 1000) END,
           completed_at = CASE WHEN i.succeeded OR d.status <> 'pending' OR i.next_status <> 'pending'
                               THEN coalesce(d.completed_at, clock_timestamp()) END,
           locked_until = NULL,
           claim_token = NULL
         FROM input i
         WHERE d.id = i.id AND d.claim_token = i.token
         RETURNING d.id, d.endpoint_id, d.status
       ), attempts AS (
         INSERT INTO webhook_attempts (delivery_id, endpoint_id, attempt, started_at, duration_ms, status_code, succeeded, error, response_body)
         SELECT i.id, u.endpoint_id, i.attempt, i.started_at, i.duration_ms, i.status_code, i.succeeded, i.error, i.response_body
         FROM input i JOIN updated u ON u.id = i.id
         ON CONFLICT (delivery_id, attempt) DO NOTHING
       )
       SELECT u.id, u.endpoint_id,
         CASE WHEN i.succeeded THEN 'succeeded' WHEN i.next_status = 'failed' AND u.status = 'failed' THEN 'failed' END AS completed
       FROM updated u JOIN input i ON i.id = u.id`,
      [
        done.map((r) => r.delivery.id),
        done.map((r) => r.delivery.claim_token),
        done.map((r) => r.delivery.attempt_count + 1),
        done.map((r) => r.result.startedAt),
        done.map((r) => r.result.durationMs),
        done.map((r) => r.result.statusCode),
        done.map((r) => r.result.succeeded),
        done.map((r) => r.result.error?.slice(0, 500) ?? null),
        done.map((r) => r.result.responseBody),
        outcomes.map((o) => o.status),
        outcomes.map((o) => (o.status === 'pending' ? o.retryInMs : 0)),
      ],
    );
    if (recorded.rows.length < done.length) {
      this.logger.warn(
        { lost: done.length - recorded.rows.length },
        'webhook claims expired before their attempts were recorded',
      );
    }
    // Retries due sooner than the next poll get a wake of their own.
    for (const outcome of outcomes) {
      if (outcome.status === 'pending' && outcome.retryInMs < this.config.WEBHOOK_POLL_INTERVAL_MS) {
        this.poller.wakeAfter(outcome.retryInMs + 5);
      }
    }
    await this.updateHealth(recorded.rows);
  }

  /**
   * Counts consecutive failed deliveries per endpoint (a success resets the
   * count) and disables an endpoint that reaches WEBHOOK_DISABLE_AFTER_FAILURES;
   * its pending deliveries then fail at once.
   */
  private async updateHealth(
    rows: Array<{ endpoint_id: string; completed: 'succeeded' | 'failed' | null }>,
  ): Promise<void> {
    const byEndpoint = new Map<string, Array<'succeeded' | 'failed'>>();
    for (const row of rows)
      if (row.completed)
        byEndpoint.set(row.endpoint_id, [...(byEndpoint.get(row.endpoint_id) ?? []), row.completed]);
    for (const [endpointId, completions] of byEndpoint) {
      const lastSuccess = completions.lastIndexOf('succeeded');
      const failuresAfter = completions.length - lastSuccess - 1;
      if (lastSuccess >= 0 && failuresAfter === 0) {
        await this.database.pool.query(
          `UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = $1 AND consecutive_failures <> 0`,
          [endpointId],
        );
        continue;
      }
      await this.database.pool.query(
        `WITH endpoint AS (
           UPDATE webhook_endpoints SET
             consecutive_failures = CASE WHEN $2 THEN 0 ELSE consecutive_failures END + $3,
             status = CASE WHEN status = 'enabled' AND CASE WHEN $2 THEN 0 ELSE consecutive_failures END + $3 >= $4
                           THEN 'disabled' ELSE status END,
             disabled_reason = CASE WHEN status = 'enabled' AND CASE WHEN $2 THEN 0 ELSE consecutive_failures END + $3 >= $4
                                    THEN 'consecutive_failures' ELSE disabled_reason END,
             updated_at = now()
           WHERE id = $1 AND deleted_at IS NULL
           RETURNING id, status
         )
         UPDATE webhook_deliveries SET status = 'failed', failure_reason = 'endpoint_disabled', next_attempt_at = NULL,
           completed_at = now()
         WHERE endpoint_id = (SELECT id FROM endpoint WHERE status = 'disabled') AND status = 'pending'`,
        [endpointId, lastSuccess >= 0, failuresAfter, this.config.WEBHOOK_DISABLE_AFTER_FAILURES],
      );
    }
  }
}
