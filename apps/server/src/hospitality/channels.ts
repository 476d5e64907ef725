/**
 * Channels: each room type's secret iCal export, the feeds imported into it,
 * and the conflicts an import leaves for a person (docs/HOSPITALITY.md,
 * "Channels"). Nothing here cancels a booking unless a person says so.
 */
import { randomBytes } from 'node:crypto';
import { AppError, eastAfricaDate, invalidField, newId, notFound } from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { Clock } from '../infra/clock.ts';
import { sha256 } from '../infra/secrets.ts';
import { unixOrNull, unixSeconds } from '../infra/time.ts';
import { assertWebhookUrlAllowed } from '../webhooks/ssrf.ts';
import { writeCalendar, type CalendarEvent } from './channels-ical.ts';
import type { RoomTypeRow } from './objects.ts';
import { lockRoomType } from './property.ts';
import type { ReservationService } from './reservations.ts';
import { HOLDING } from './stays.ts';

/** The export's token: 32 random bytes, base64url (43 characters). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const tokenHash = (token: string) => sha256(`ical:${token}`);

export const FEED_STATUSES = ['ok', 'empty', 'failed'] as const;
export const CONFLICT_KINDS = ['collision', 'refused', 'missing', 'changed'] as const;
export const CONFLICT_ACTIONS = ['keep', 'cancel_reservation', 'dismiss'] as const;
export type ConflictAction = (typeof CONFLICT_ACTIONS)[number];

export interface FeedRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  room_type_id: string;
  name: string;
  url: string;
  next_fetch_at: Date;
  claim_token: string | null;
  last_fetched_at: Date | null;
  last_status: (typeof FEED_STATUSES)[number] | null;
  last_error: string | null;
  last_event_count: number | null;
  deleted_at: Date | null;
  created_at: Date;
}

export interface ConflictRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  room_type_id: string;
  feed_id: string;
  uid: string;
  kind: (typeof CONFLICT_KINDS)[number];
  arrival: string;
  departure: string;
  reservation_id: string | null;
  detail: string;
  resolution: ConflictAction | 'feed' | null;
  resolved_at: Date | null;
  created_at: Date;
}

export const feedObject = (row: FeedRow) => ({
  id: row.id,
  object: 'channel_feed' as const,
  room_type: row.room_type_id,
  name: row.name,
  url: row.url,
  last_fetched: unixOrNull(row.last_fetched_at),
  last_status: row.last_status,
  last_error: row.last_error,
  last_event_count: row.last_event_count,
  next_fetch: unixSeconds(row.next_fetch_at),
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
});

export const conflictObject = (row: ConflictRow) => ({
  id: row.id,
  object: 'channel_conflict' as const,
  room_type: row.room_type_id,
  feed: row.feed_id,
  uid: row.uid,
  kind: row.kind,
  arrival: row.arrival,
  departure: row.departure,
  reservation: row.reservation_id,
  detail: row.detail,
  resolution: row.resolution,
  resolved: unixOrNull(row.resolved_at),
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
});

export interface ChannelOptions {
  publicUrl: string;
  allowPrivateUrls: boolean;
}

export class ChannelService {
  constructor(
    private readonly reservations: ReservationService,
    private readonly clock: Clock,
    private readonly options: ChannelOptions,
  ) {}

  private exportUrl(token: string) {
    return `${this.options.publicUrl}/ical/${token}.ics`;
  }

  /** `GET /hospitality/channels`: per room type, its export's state, its feeds and its open conflicts. */
  async overview(db: Queryable, tenant: Tenant) {
    const params = [tenant.merchantId, tenant.livemode];
    const [types, exports, feeds, conflicts] = await Promise.all([
      db.query<RoomTypeRow>(
        `SELECT * FROM hospitality_room_types WHERE merchant_id = $1 AND livemode = $2 AND archived_at IS NULL
         ORDER BY seq`,
        params,
      ),
      db.query<{ room_type_id: string; token_hint: string; created_at: Date }>(
        `SELECT room_type_id, token_hint, created_at FROM hospitality_channel_exports
         WHERE merchant_id = $1 AND livemode = $2`,
        params,
      ),
      db.query<FeedRow>(
        `SELECT * FROM hospitality_channel_feeds WHERE merchant_id = $1 AND livemode = $2 AND deleted_at IS NULL
         ORDER BY seq`,
        params,
      ),
      db.query<ConflictRow>(
        `SELECT * FROM hospitality_channel_conflicts WHERE merchant_id = $1 AND livemode = $2 AND resolved_at IS NULL
         ORDER BY seq`,
        params,
      ),
    ]);
    const exportOf = new Map(exports.rows.map((row) => [row.room_type_id, row]));
    return {
      object: 'hospitality_channels' as const,
      data: types.rows.map((type) => {
        const found = exportOf.get(type.id);
        return {
          room_type: { id: type.id, name: type.name },
          export: found
            ? {
                status: 'active' as const,
                url_hint: `…${found.token_hint}.ics`,
                created: unixSeconds(found.created_at),
              }
            : { status: 'none' as const, url_hint: null, created: null },
          feeds: feeds.rows.filter((feed) => feed.room_type_id === type.id).map(feedObject),
          conflicts: conflicts.rows.filter((row) => row.room_type_id === type.id).map(conflictObject),
        };
      }),
    };
  }

  /**
   * A new secret export URL for the room type, shown once: a second call
   * rotates it (the old URL answers 404 from the commit on).
   */
  async rotateExport(db: Queryable, tenant: Tenant, roomTypeId: string) {
    const roomType = await lockRoomType(db, tenant, roomTypeId);
    const token = randomBytes(32).toString('base64url');
    const saved = await db.query<{ created_at: Date }>(
      `INSERT INTO hospitality_channel_exports (room_type_id, merchant_id, livemode, token_hash, token_hint, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (room_type_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, token_hint = EXCLUDED.token_hint,
         created_at = EXCLUDED.created_at
       RETURNING created_at`,
      [roomType.id, tenant.merchantId, tenant.livemode, tokenHash(token), token.slice(-4), this.clock.now()],
    );
    return {
      object: 'channel_export' as const,
      room_type: roomType.id,
      status: 'active' as const,
      url: this.exportUrl(token) as string | null,
      url_hint: `…${token.slice(-4)}.ics`,
      created: unixSeconds(saved.rows[0]!.created_at),
    };
  }

  /** Revokes the room type's export: its URL answers 404. */
  async revokeExport(db: Queryable, tenant: Tenant, roomTypeId: string) {
    const removed = await db.query(
      `DELETE FROM hospitality_channel_exports WHERE room_type_id = $1 AND merchant_id = $2 AND livemode = $3`,
      [roomTypeId, tenant.merchantId, tenant.livemode],
    );
    if (removed.rowCount === 0) throw notFound('channel export', roomTypeId);
    return { object: 'channel_export' as const, room_type: roomTypeId, deleted: true as const };
  }

  /**
   * The calendar a token opens, read from the database now, so a booking is
   * in it from its commit: a VEVENT per reservation holding a room of the type
   * (nightly stays) and per blackout closing it, from today on. No guest's
   * name or number: "Booked" or "Closed".
   */
  async calendar(db: Queryable, token: string): Promise<string | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const found = await db.query<RoomTypeRow>(
      `SELECT t.* FROM hospitality_channel_exports e JOIN hospitality_room_types t ON t.id = e.room_type_id
       WHERE e.token_hash = $1`,
      [tokenHash(token)],
    );
    const roomType = found.rows[0];
    if (!roomType) return null;
    const today = eastAfricaDate(this.clock.now());
    const rows = await db.query<{
      id: string;
      arrival: string;
      departure: string;
      kind: 'booked' | 'closed';
    }>(
      `SELECT id, arrival::text, departure::text, 'booked' AS kind FROM hospitality_reservations
        WHERE room_type_id = $1 AND ${HOLDING} AND mode = 'nightly' AND departure > $4::date
       UNION ALL
       SELECT b.id, b.starts_on::text, (b.ends_on + 1)::text, 'closed' FROM hospitality_blackouts b
        WHERE b.merchant_id = $2 AND b.livemode = $3 AND b.deleted_at IS NULL AND b.ends_on >= $4::date
          AND (b.room_type_id = $1 OR (b.room_type_id IS NULL AND b.room_id IS NULL)
               OR b.room_id IN (SELECT id FROM hospitality_rooms WHERE room_type_id = $1))
       ORDER BY 2, 1`,
      [roomType.id, roomType.merchant_id, roomType.livemode, today],
    );
    const host = new URL(this.options.publicUrl).hostname;
    const events: CalendarEvent[] = rows.rows.map((row) => ({
      uid: `${row.id}@${host}`,
      arrival: row.arrival,
      departure: row.departure,
      summary: row.kind === 'booked' ? 'Booked' : 'Closed',
    }));
    return writeCalendar(roomType.name, this.clock.now(), events);
  }

  /** Adds a feed: fetched at once, then every `CHANNEL_IMPORT_INTERVAL_SECONDS`. */
  async addFeed(db: Queryable, tenant: Tenant, input: { room_type: string; url: string; name: string }) {
    const url = await assertWebhookUrlAllowed(
      input.url,
      { livemode: tenant.livemode, allowPrivate: this.options.allowPrivateUrls },
      'url',
      'Feed URLs',
    );
    const roomType = await lockRoomType(db, tenant, input.room_type);
    const inserted = await db.query<FeedRow>(
      `INSERT INTO hospitality_channel_feeds (id, merchant_id, livemode, room_type_id, name, url, next_fetch_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [
        newId('channelFeed'),
        tenant.merchantId,
        tenant.livemode,
        roomType.id,
        input.name,
        url,
        this.clock.now(),
      ],
    );
    return feedObject(inserted.rows[0]!);
  }

  feedsSource(tenant: Tenant, roomType?: string) {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2 AND deleted_at IS NULL';
    if (roomType) where += ` AND room_type_id = $${params.push(roomType)}`;
    return { table: 'hospitality_channel_feeds', where, params };
  }

  /** Stops importing the feed. Its reservations stay; its open conflicts stay open for a person. */
  async deleteFeed(db: Queryable, tenant: Tenant, id: string) {
    const deleted = await db.query<FeedRow>(
      `UPDATE hospitality_channel_feeds SET deleted_at = $4
       WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND deleted_at IS NULL RETURNING *`,
      [id, tenant.merchantId, tenant.livemode, this.clock.now()],
    );
    if (!deleted.rows[0]) throw notFound('channel feed', id);
    return { ...feedObject(deleted.rows[0]), deleted: true as const };
  }

  /**
   * A person's decision on a conflict: `keep` the reservation as it is (an
   * event missing or changed), `cancel_reservation` (the same, cancelling it
   * through the reservation's own step), or `dismiss` an event that could not
   * be booked (it stays unbooked here).
   */
  async resolveConflict(db: Queryable, tenant: Tenant, id: string, action: ConflictAction) {
    const found = await db.query<ConflictRow>(
      `SELECT * FROM hospitality_channel_conflicts WHERE id = $1 AND merchant_id = $2 AND livemode = $3 FOR UPDATE`,
      [id, tenant.merchantId, tenant.livemode],
    );
    const conflict = found.rows[0];
    if (!conflict) throw notFound('channel conflict', id);
    if (conflict.resolved_at)
      throw new AppError('state_transition_invalid', 'The conflict is already resolved', {
        details: { status: `resolved: ${conflict.resolution}` },
      });
    const booked = conflict.kind === 'missing' || conflict.kind === 'changed';
    if (booked === (action === 'dismiss'))
      throw invalidField(
        'parameter_invalid',
        'action',
        booked
          ? `a ${conflict.kind} event has a reservation: keep it or cancel_reservation`
          : `a ${conflict.kind} event has no reservation: dismiss it`,
      );
    if (action === 'cancel_reservation' && conflict.reservation_id)
      await this.reservations.cancel(db, tenant, conflict.reservation_id);
    const resolved = await db.query<ConflictRow>(
      `UPDATE hospitality_channel_conflicts SET resolution = $2, resolved_at = $3 WHERE id = $1 RETURNING *`,
      [id, action, this.clock.now()],
    );
    await db.query(
      `UPDATE hospitality_channel_events SET status = 'settled' WHERE feed_id = $1 AND uid = $2`,
      [conflict.feed_id, conflict.uid],
    );
    return conflictObject(resolved.rows[0]!);
  }
}
