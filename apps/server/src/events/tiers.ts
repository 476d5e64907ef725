/**
 * An event's tiers: a name, a price, a quantity, a sale window and a limit per
 * order. What a tier has held or sold (`taken`) is counted on its row, kept
 * within its quantity by a CHECK (see `orders.ts`).
 */
import { AppError, newId, notFound, type TierCreateInput, type TierPatch } from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { recordEvent } from '../infra/events.ts';
import { findOwned } from '../infra/owned.ts';
import { findEvent } from './events.ts';
import { tierObject, type TierRow } from './objects.ts';

const toDate = (seconds: number | null | undefined) =>
  seconds === null || seconds === undefined ? null : new Date(seconds * 1000);

/** The caller's tier (not deleted), or a 404. */
export async function findTier(db: Queryable, tenant: Tenant, id: string, lock = false): Promise<TierRow> {
  const row = await findOwned<TierRow>(db, 'event_tiers', 'tier', tenant, id, { lock });
  if (row.deleted_at !== null) throw notFound('tier', id);
  return row;
}

export class TierService {
  async create(db: Queryable, tenant: Tenant, eventId: string, input: TierCreateInput) {
    const event = await findEvent(db, tenant, eventId, true);
    if (event.status === 'canceled' || event.status === 'ended')
      throw new AppError('sales_closed', `The event ${event.id} is ${event.status}`, {
        details: { id: `is '${event.status}'` },
      });
    const inserted = await db.query<TierRow>(
      `INSERT INTO event_tiers (id, merchant_id, livemode, event_id, name, price, quantity, sales_start,
         sales_end, per_order_limit)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
      [
        newId('eventTier'),
        tenant.merchantId,
        tenant.livemode,
        event.id,
        input.name,
        input.price,
        input.quantity,
        toDate(input.sales_start),
        toDate(input.sales_end),
        input.per_order_limit ?? 10,
      ],
    );
    const object = tierObject(inserted.rows[0]!);
    await recordEvent(db, { ...tenant, type: 'event_tier.created', object });
    return object;
  }

  async retrieve(db: Queryable, tenant: Tenant, id: string) {
    return tierObject(await findTier(db, tenant, id));
  }

  /**
   * Fields left out keep their value; `null` opens a sale window's end. A new
   * price prices orders from now: tickets sold keep the price they were sold
   * at (on their order's lines). A quantity below what is held or sold is refused.
   */
  async update(db: Queryable, tenant: Tenant, id: string, patch: TierPatch) {
    const row = await findTier(db, tenant, id, true);
    if (patch.quantity !== undefined && patch.quantity < row.taken)
      throw new AppError('parameter_invalid', `The tier has ${row.taken} tickets held or sold`, {
        details: { quantity: `must be at least ${row.taken}` },
      });
    const salesStart = patch.sales_start === undefined ? row.sales_start : toDate(patch.sales_start);
    const salesEnd = patch.sales_end === undefined ? row.sales_end : toDate(patch.sales_end);
    if (salesStart && salesEnd && salesEnd <= salesStart)
      throw new AppError('parameter_invalid', 'The sale window must end after it starts', {
        details: { sales_end: 'must be after sales_start' },
      });
    const updated = await db.query<TierRow>(
      `UPDATE event_tiers SET name = $2, price = $3, quantity = $4, sales_start = $5, sales_end = $6,
         per_order_limit = $7, updated_at = now() WHERE id = $1 RETURNING *`,
      [
        id,
        patch.name ?? row.name,
        patch.price ?? row.price,
        patch.quantity ?? row.quantity,
        salesStart,
        salesEnd,
        patch.per_order_limit ?? row.per_order_limit,
      ],
    );
    const object = tierObject(updated.rows[0]!);
    await recordEvent(db, { ...tenant, type: 'event_tier.updated', object });
    return object;
  }

  /** Refused while any of its tickets is held or sold. */
  async delete(db: Queryable, tenant: Tenant, id: string) {
    await findTier(db, tenant, id, true);
    const sold = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event_tickets WHERE tier_id = $1 AND status IN ('held', 'valid', 'void')`,
      [id],
    );
    if (sold.rows[0]!.n > 0)
      throw new AppError('tickets_sold', `The tier ${id} has tickets held or sold`, {
        details: { id: `has ${sold.rows[0]!.n} tickets` },
      });
    const deleted = await db.query<TierRow>(
      `UPDATE event_tiers SET deleted_at = now(), updated_at = now() WHERE id = $1 RETURNING *`,
      [id],
    );
    const object = { ...tierObject(deleted.rows[0]!), deleted: true as const };
    await recordEvent(db, { ...tenant, type: 'event_tier.deleted', object });
    return object;
  }
}
