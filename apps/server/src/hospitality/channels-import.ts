/**
 * Imports channels' iCal feeds on a schedule. Each feed due is claimed (a
 * token and a lease) so two processes never fetch it at once, fetched outside
 * any transaction, and its events applied one transaction each: a new event
 * becomes a reservation through `ReservationService.create` (so the room
 * type's lock and capacity count apply), or a conflict when it cannot be
 * booked. An event that disappears, a feed that fails or comes back empty,
 * never cancels anything: a person decides (docs/HOSPITALITY.md, "Channels").
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError, eastAfricaDate, newId, reservationCreateBody } from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Database, Queryable } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { Clock } from '../infra/clock.ts';
import type { EventSignal } from '../infra/events.ts';
import { Poller } from '../infra/poller.ts';
import type { ConflictRow, FeedRow } from './channels.ts';
import { fetchFeed } from './channels-fetch.ts';
import { CalendarUnreadable, readCalendar, type CalendarEvent } from './channels-ical.ts';
import type { ReservationService } from './reservations.ts';
import { HOLDING } from './stays.ts';

/** Feeds claimed per pass; a crashed process's claim lapses after the lease. */
const BATCH = 5;
const LEASE_MS = 5 * 60_000;
const POLL_INTERVAL_MS = 30_000;

interface EventRow {
  feed_id: string;
  uid: string;
  arrival: string;
  departure: string;
  reservation_id: string | null;
  status: 'booked' | 'unbooked' | 'missing' | 'gone' | 'settled';
}

export interface ChannelImportOptions {
  intervalSeconds: number;
  allowPrivateUrls: boolean;
}

const tenantOf = (feed: FeedRow): Tenant => ({ merchantId: feed.merchant_id, livemode: feed.livemode });

export class ChannelImports {
  private readonly poller: Poller;

  constructor(
    private readonly database: Database,
    private readonly reservations: ReservationService,
    private readonly clock: Clock,
    private readonly events: EventSignal,
    logger: Logger,
    private readonly options: ChannelImportOptions,
  ) {
    this.poller = new Poller(async () => (await this.importDue()) === BATCH, {
      intervalMs: Math.min(POLL_INTERVAL_MS, options.intervalSeconds * 1000),
      logger,
      failure: 'channel import failed',
    });
  }

  start(): void {
    this.poller.start();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** A feed was added: fetch it now rather than at the next poll. */
  wake(): void {
    this.poller.wake();
  }

  /** Claims the feeds due and imports each; answers how many were claimed. */
  async importDue(): Promise<number> {
    const now = this.clock.now();
    const token = randomUUID();
    const claimed = await this.database.pool.query<FeedRow>(
      `UPDATE hospitality_channel_feeds SET claim_token = $2, claimed_until = $3
       WHERE id IN (SELECT id FROM hospitality_channel_feeds
                    WHERE deleted_at IS NULL AND next_fetch_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
                    ORDER BY next_fetch_at LIMIT $4 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [now, token, new Date(now.getTime() + LEASE_MS), BATCH],
    );
    for (const feed of claimed.rows) await this.importFeed(feed, token);
    return claimed.rows.length;
  }

  private async importFeed(feed: FeedRow, token: string): Promise<void> {
    const fetched = await fetchFeed(feed.url, { allowPrivate: this.options.allowPrivateUrls });
    if (!fetched.ok) return this.finish(feed, token, 'failed', fetched.error, null);
    let listed: CalendarEvent[];
    let skipped: number;
    try {
      ({ events: listed, skipped } = readCalendar(fetched.text));
    } catch (error) {
      if (error instanceof CalendarUnreadable) return this.finish(feed, token, 'failed', error.message, null);
      throw error;
    }
    // An empty feed is as likely a channel's outage as a calendar with nothing in it: nothing changes.
    if (listed.length === 0)
      return this.finish(feed, token, 'empty', 'the feed listed no events: nothing was changed', 0);
    const byUid = new Map<string, CalendarEvent>();
    for (const event of listed) if (!byUid.has(event.uid)) byUid.set(event.uid, event);
    const known = await this.database.pool.query<EventRow>(
      `SELECT feed_id, uid, arrival::text, departure::text, reservation_id, status
       FROM hospitality_channel_events WHERE feed_id = $1`,
      [feed.id],
    );
    const knownByUid = new Map(known.rows.map((row) => [row.uid, row]));
    const today = eastAfricaDate(this.clock.now());
    for (const event of byUid.values()) {
      const row = knownByUid.get(event.uid);
      if (!row || (row.status === 'gone' && row.reservation_id === null)) {
        if (event.departure > today) await this.book(feed, event, row !== undefined);
      } else await this.seen(feed, row, event);
    }
    for (const row of known.rows) if (!byUid.has(row.uid)) await this.vanished(feed, row, today);
    await this.finish(
      feed,
      token,
      'ok',
      skipped > 0 ? `${skipped} event${skipped === 1 ? '' : 's'} without a UID or dates left out` : null,
      byUid.size,
    );
  }

  /** A new event (or one listed again after it went): a reservation, or a conflict saying why not. */
  private async book(feed: FeedRow, event: CalendarEvent, again: boolean): Promise<void> {
    const tenant = tenantOf(feed);
    const now = this.clock.now();
    const input = reservationCreateBody.safeParse({
      room_type: feed.room_type_id,
      arrival: event.arrival,
      departure: event.departure,
      adults: 1,
      guest: { name: feed.name },
      notes: `${feed.name}: ${event.summary || 'booked'} (${event.uid})`.slice(0, 1000),
      metadata: { channel_feed: feed.id },
    });
    let refusal: AppError;
    try {
      if (!input.success)
        throw new AppError('parameter_invalid', input.error.issues[0]?.message ?? 'invalid');
      await this.database.transaction(async (tx) => {
        const reservation = await this.reservations.create(tx, tenant, input.data, 'channel');
        await this.recordEvent(tx, feed, event, reservation.id, 'booked', now, again);
      });
      this.events.notify();
      return;
    } catch (error) {
      if (isUniqueViolation(error) || error instanceof EventTaken) return; // another process recorded it
      if (!(error instanceof AppError)) throw error;
      refusal = error;
    }
    const kind = refusal.code === 'room_unavailable' ? 'collision' : 'refused';
    await this.database.transaction(async (tx) => {
      await this.recordEvent(tx, feed, event, null, 'unbooked', now, again);
      await this.openConflict(tx, feed, event, kind, null, refusal.message);
    });
  }

  private async recordEvent(
    db: Queryable,
    feed: FeedRow,
    event: CalendarEvent,
    reservationId: string | null,
    status: EventRow['status'],
    now: Date,
    again: boolean,
  ): Promise<void> {
    const written = await db.query(
      again
        ? `UPDATE hospitality_channel_events SET arrival = $3, departure = $4, summary = $5, reservation_id = $6,
             status = $7, last_seen_at = $8
           WHERE feed_id = $1 AND uid = $2 AND status = 'gone' AND reservation_id IS NULL`
        : `INSERT INTO hospitality_channel_events (feed_id, uid, arrival, departure, summary, reservation_id, status,
             first_seen_at, last_seen_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
      [feed.id, event.uid, event.arrival, event.departure, event.summary, reservationId, status, now],
    );
    if (written.rowCount !== 1) throw new EventTaken();
  }

  private async openConflict(
    db: Queryable,
    feed: FeedRow,
    event: Pick<CalendarEvent, 'uid' | 'arrival' | 'departure'>,
    kind: ConflictRow['kind'],
    reservationId: string | null,
    detail: string,
  ): Promise<void> {
    await db.query(
      `INSERT INTO hospitality_channel_conflicts (id, merchant_id, livemode, room_type_id, feed_id, uid, kind, arrival,
         departure, reservation_id, detail, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (feed_id, uid) WHERE resolved_at IS NULL DO NOTHING`,
      [
        newId('channelConflict'),
        feed.merchant_id,
        feed.livemode,
        feed.room_type_id,
        feed.id,
        event.uid,
        kind,
        event.arrival,
        event.departure,
        reservationId,
        detail,
        this.clock.now(),
      ],
    );
  }

  /** The feed settled a conflict itself: the event is back, or what could not be booked is withdrawn. */
  private async settleByFeed(db: Queryable, feed: FeedRow, uid: string): Promise<void> {
    await db.query(
      `UPDATE hospitality_channel_conflicts SET resolution = 'feed', resolved_at = $3
       WHERE feed_id = $1 AND uid = $2 AND resolved_at IS NULL`,
      [feed.id, uid, this.clock.now()],
    );
  }

  /** An event listed again: back from missing, or moved to other dates (reported, never moved here). */
  private async seen(feed: FeedRow, row: EventRow, event: CalendarEvent): Promise<void> {
    await this.database.transaction(async (tx) => {
      const back = row.status === 'missing';
      await tx.query(
        `UPDATE hospitality_channel_events SET last_seen_at = $3, status = CASE WHEN $4 THEN 'booked' ELSE status END
         WHERE feed_id = $1 AND uid = $2`,
        [feed.id, row.uid, this.clock.now(), back],
      );
      if (back) await this.settleByFeed(tx, feed, row.uid);
      const moved = row.arrival !== event.arrival || row.departure !== event.departure;
      if (moved && (row.status === 'booked' || back))
        await this.openConflict(
          tx,
          feed,
          event,
          'changed',
          row.reservation_id,
          `the feed now lists ${event.arrival} to ${event.departure}; the reservation keeps ${row.arrival} to ${row.departure}`,
        );
    });
  }

  /** An event a non-empty feed no longer lists: reported when its booking still holds a stay ahead. */
  private async vanished(feed: FeedRow, row: EventRow, today: string): Promise<void> {
    if (row.status !== 'booked' && row.status !== 'unbooked') return;
    await this.database.transaction(async (tx) => {
      const holding =
        row.reservation_id !== null &&
        (
          await tx.query(
            `SELECT 1 FROM hospitality_reservations WHERE id = $1 AND ${HOLDING} AND departure > $2::date`,
            [row.reservation_id, today],
          )
        ).rowCount === 1;
      await tx.query(`UPDATE hospitality_channel_events SET status = $3 WHERE feed_id = $1 AND uid = $2`, [
        feed.id,
        row.uid,
        holding ? 'missing' : 'gone',
      ]);
      if (holding)
        await this.openConflict(
          tx,
          feed,
          row,
          'missing',
          row.reservation_id,
          'the feed no longer lists this booking; the reservation is kept until a person decides',
        );
      else if (row.status === 'unbooked') await this.settleByFeed(tx, feed, row.uid);
    });
  }

  /** Records the fetch and when the next is due, while this pass still holds the claim. */
  private async finish(
    feed: FeedRow,
    token: string,
    status: 'ok' | 'empty' | 'failed',
    error: string | null,
    count: number | null,
  ): Promise<void> {
    const now = this.clock.now();
    await this.database.pool.query(
      `UPDATE hospitality_channel_feeds SET last_fetched_at = $3, last_status = $4, last_error = $5,
         last_event_count = coalesce($6, last_event_count), next_fetch_at = $7, claim_token = NULL, claimed_until = NULL
       WHERE id = $1 AND claim_token = $2`,
      [
        feed.id,
        token,
        now,
        status,
        error,
        count,
        new Date(now.getTime() + this.options.intervalSeconds * 1000),
      ],
    );
  }
}

/** The event was recorded by another process meanwhile: this transaction's booking is rolled back. */
class EventTaken extends Error {}
