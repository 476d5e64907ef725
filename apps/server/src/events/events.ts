/**
 * The organizer and the events: their setup, their states (on core's gate) and
 * their door keys. Tiers are in `tiers.ts`, orders in `orders.ts`.
 */
import {
  AppError,
  EAST_AFRICA_TIME_ZONE,
  EVENT_STATES,
  newId,
  notFound,
  type EventCreateInput,
  type EventPatch,
  type EventStatus,
  type OrganizerPatch,
} from '@tz/core';
import type { Actor, Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { ListSource } from '../db/list-page.ts';
import { recordEvent } from '../infra/events.ts';
import { findOwned } from '../infra/owned.ts';
import type { SecretBox } from '../infra/secrets-at-rest.ts';
import { storedStates, transition } from '../infra/transitions.ts';
import { newDoorKey } from './door-keys.ts';
import type { EventOrderService } from './orders.ts';
import { eventObject, organizerObject, type EventRow, type OrganizerRow, type TierRow } from './objects.ts';

export const EVENTS = storedStates(EVENT_STATES, 'ticketed_events');

const toDate = (seconds: number | null | undefined) =>
  seconds === null || seconds === undefined ? null : new Date(seconds * 1000);

/** The caller's event (not deleted), or a 404; `lock` takes it for update. */
export async function findEvent(db: Queryable, tenant: Tenant, id: string, lock = false): Promise<EventRow> {
  const row = await findOwned<EventRow>(db, 'ticketed_events', 'event', tenant, id, { lock });
  if (row.deleted_at !== null) throw notFound('event', id);
  return row;
}

/** Events as the API shows them, each with its tiers. */
export async function eventObjects(db: Queryable, rows: readonly EventRow[]) {
  const tiers = await db.query<TierRow>(
    `SELECT * FROM event_tiers WHERE event_id = ANY($1::text[]) AND deleted_at IS NULL ORDER BY seq`,
    [rows.map((row) => row.id)],
  );
  return rows.map((row) =>
    eventObject(
      row,
      tiers.rows.filter((tier) => tier.event_id === row.id),
    ),
  );
}

const eventObjectOf = async (db: Queryable, row: EventRow) => (await eventObjects(db, [row]))[0]!;

export class EventService {
  constructor(
    private readonly secretBox: SecretBox,
    private readonly orders: EventOrderService,
  ) {}

  /** The organizer as kept, or as it starts: named after the business. */
  async organizer(db: Queryable, tenant: Tenant) {
    const found = await db.query<OrganizerRow>(
      `SELECT * FROM event_organizers WHERE merchant_id = $1 AND livemode = $2`,
      [tenant.merchantId, tenant.livemode],
    );
    if (found.rows[0]) return organizerObject(found.rows[0]);
    const merchant = await db.query<{ business_name: string; created_at: Date }>(
      `SELECT business_name, created_at FROM merchants WHERE id = $1`,
      [tenant.merchantId],
    );
    const { business_name, created_at } = merchant.rows[0]!;
    return organizerObject({
      merchant_id: tenant.merchantId,
      livemode: tenant.livemode,
      display_name: business_name,
      contact_email: null,
      contact_phone: null,
      payout_phone: null,
      refund_policy: null,
      created_at,
      updated_at: created_at,
    });
  }

  /** Fields left out keep their value; `null` clears one. */
  async updateOrganizer(db: Queryable, tenant: Tenant, patch: OrganizerPatch) {
    const current = await this.organizer(db, tenant);
    const pick = <K extends keyof OrganizerPatch & keyof typeof current>(key: K) =>
      patch[key] === undefined ? current[key] : patch[key];
    const saved = await db.query<OrganizerRow>(
      `INSERT INTO event_organizers (merchant_id, livemode, display_name, contact_email, contact_phone,
         payout_phone, refund_policy)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (merchant_id, livemode) DO UPDATE SET display_name = EXCLUDED.display_name,
         contact_email = EXCLUDED.contact_email, contact_phone = EXCLUDED.contact_phone,
         payout_phone = EXCLUDED.payout_phone, refund_policy = EXCLUDED.refund_policy, updated_at = now()
       RETURNING *`,
      [
        tenant.merchantId,
        tenant.livemode,
        pick('display_name'),
        pick('contact_email'),
        pick('contact_phone'),
        pick('payout_phone'),
        pick('refund_policy'),
      ],
    );
    const object = organizerObject(saved.rows[0]!);
    await recordEvent(db, { ...tenant, type: 'event_organizer.updated', object });
    return object;
  }

  async create(db: Queryable, tenant: Tenant, input: EventCreateInput) {
    const id = newId('ticketedEvent');
    const key = newDoorKey(this.secretBox, id);
    const inserted = await db.query<EventRow>(
      `INSERT INTO ticketed_events (id, merchant_id, livemode, name, venue, description, starts_at, ends_at,
         doors_open_at, time_zone, capacity, door_public_key, door_private_key, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING *`,
      [
        id,
        tenant.merchantId,
        tenant.livemode,
        input.name,
        input.venue,
        input.description ?? null,
        toDate(input.starts_at),
        toDate(input.ends_at),
        toDate(input.doors_open_at),
        input.time_zone ?? EAST_AFRICA_TIME_ZONE,
        input.capacity,
        key.publicKey,
        key.sealedPrivateKey,
        JSON.stringify(input.metadata ?? {}),
      ],
    );
    const object = await eventObjectOf(db, inserted.rows[0]!);
    await recordEvent(db, { ...tenant, type: 'ticketed_event.created', object });
    return object;
  }

  async retrieve(db: Queryable, tenant: Tenant, id: string) {
    return eventObjectOf(db, await findEvent(db, tenant, id));
  }

  eventsSource(tenant: Tenant, filters: { status?: EventStatus | undefined }): ListSource {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2 AND deleted_at IS NULL';
    if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
    return { table: 'ticketed_events', where, params };
  }

  /**
   * Fields left out keep their value. A capacity below the tickets held or
   * sold is refused; `status` moves the event on core's gate (a canceled
   * event sells nothing and admits no one, and its paid orders are refunded
   * in the same transaction).
   */
  async update(db: Queryable, tenant: Actor, id: string, patch: EventPatch) {
    // A cancel waits for payments landing on its pending orders, which then count as paid (orders.ts).
    if (patch.status === 'canceled') await this.orders.lockPending(db, tenant, id);
    let row = await findEvent(db, tenant, id, true);
    if (patch.capacity !== undefined && patch.capacity < row.taken)
      throw new AppError('parameter_invalid', `The event has ${row.taken} tickets held or sold`, {
        details: { capacity: `must be at least ${row.taken}` },
      });
    const startsAt = patch.starts_at === undefined ? row.starts_at : toDate(patch.starts_at)!;
    const endsAt = patch.ends_at === undefined ? row.ends_at : toDate(patch.ends_at)!;
    if (endsAt <= startsAt)
      throw new AppError('parameter_invalid', 'The event must end after it starts', {
        details: { ends_at: 'must be after starts_at' },
      });
    const updated = await db.query<EventRow>(
      `UPDATE ticketed_events SET name = $2, venue = $3, description = $4, starts_at = $5, ends_at = $6,
         doors_open_at = $7, time_zone = $8, capacity = $9, metadata = $10, updated_at = now()
       WHERE id = $1 RETURNING *`,
      [
        id,
        patch.name ?? row.name,
        patch.venue ?? row.venue,
        patch.description === undefined ? row.description : patch.description,
        startsAt,
        endsAt,
        patch.doors_open_at === undefined ? row.doors_open_at : toDate(patch.doors_open_at),
        patch.time_zone ?? row.time_zone,
        patch.capacity ?? row.capacity,
        JSON.stringify(patch.metadata ?? row.metadata),
      ],
    );
    row = updated.rows[0]!;
    if (patch.status !== undefined && patch.status !== row.status) {
      const stamp =
        patch.status === 'published'
          ? 'published_at = now()'
          : patch.status === 'canceled'
            ? 'canceled_at = now()'
            : 'updated_at = now()';
      row = await transition(db, EVENTS, row, patch.status, { set: stamp });
      // Published, the event enters the doors' feed: its tiers, written while it was a draft, go with it.
      if (row.status === 'published')
        await db.query(`UPDATE event_tiers SET updated_at = updated_at WHERE event_id = $1`, [row.id]);
      if (row.status === 'canceled') await this.orders.refundEvent(db, tenant, row.id);
    }
    const object = await eventObjectOf(db, row);
    await recordEvent(db, {
      ...tenant,
      type:
        patch.status === 'canceled' && object.status === 'canceled'
          ? 'ticketed_event.canceled'
          : 'ticketed_event.updated',
      object,
    });
    return object;
  }

  /** Refused once tickets are paid for (cancel the event instead); holds still open simply lapse. */
  async delete(db: Queryable, tenant: Tenant, id: string) {
    const row = await findEvent(db, tenant, id, true);
    const paid = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event_orders WHERE event_id = $1 AND status IN ('paid', 'refunded')`,
      [id],
    );
    if (paid.rows[0]!.n > 0)
      throw new AppError('tickets_sold', `The event ${id} has paid orders: cancel it instead`, {
        details: { id: `has ${paid.rows[0]!.n} paid orders` },
      });
    const deleted = await db.query<EventRow>(
      `UPDATE ticketed_events SET deleted_at = now(), updated_at = now() WHERE id = $1 RETURNING *`,
      [row.id],
    );
    const object = { ...(await eventObjectOf(db, deleted.rows[0]!)), deleted: true as const };
    await recordEvent(db, { ...tenant, type: 'ticketed_event.deleted', object });
    return object;
  }

  /** What a door needs to check codes offline: the event's public key and the code format's version. */
  async doorKey(db: Queryable, tenant: Tenant, id: string) {
    const row = await findEvent(db, tenant, id);
    return {
      object: 'door_key' as const,
      event: row.id,
      algorithm: 'Ed25519' as const,
      public_key: row.door_public_key,
      code_version: 1 as const,
      livemode: row.livemode,
    };
  }
}
