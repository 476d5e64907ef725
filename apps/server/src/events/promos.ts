/**
 * Promo codes of an event, and their redemption by orders: once per order,
 * never more often than the usage limit allows, whatever the concurrency (the
 * use is an increment that stays within the limit, and a CHECK says so again).
 * Promos are locked after tiers and events, as every writer does.
 */
import { AppError, newId, notFound, promoDiscount, type PromoCreateInput } from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { ListSource } from '../db/list-page.ts';
import { recordEvent } from '../infra/events.ts';
import { findOwned } from '../infra/owned.ts';
import { unixOrNull, unixSeconds } from '../infra/time.ts';
import { findEvent } from './events.ts';
import { findTier } from './tiers.ts';

export interface PromoRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  event_id: string;
  tier_id: string | null;
  code: string;
  percent_off: number | null;
  amount_off: number | null;
  usage_limit: number | null;
  used: number;
  valid_from: Date | null;
  valid_until: Date | null;
  deleted_at: Date | null;
  created_at: Date;
}

export const promoObject = (row: PromoRow) => ({
  id: row.id,
  object: 'event_promo' as const,
  event: row.event_id,
  tier: row.tier_id,
  code: row.code,
  percent_off: row.percent_off,
  amount_off: row.amount_off,
  usage_limit: row.usage_limit,
  used: row.used,
  valid_from: unixOrNull(row.valid_from),
  valid_until: unixOrNull(row.valid_until),
  deleted: row.deleted_at !== null,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
});

const toDate = (seconds: number | undefined) => (seconds === undefined ? null : new Date(seconds * 1000));

const refused = (message: string, reason: string) =>
  new AppError('discount_invalid', message, { details: { promo_code: reason } });

/**
 * Redeems the event's promo `code` for an order of `lines` at `now`: one use
 * taken, or refused with `discount_invalid` (unknown, outside its window, not
 * for these tiers, or used up). Answers the promo's id and the discount.
 */
export async function redeemPromo(
  db: Queryable,
  eventId: string,
  code: string,
  lines: ReadonlyArray<{ tier: string; unit_price: number; quantity: number }>,
  now: Date,
): Promise<{ promoId: string; discount: number }> {
  const found = await db.query<PromoRow>(
    `SELECT * FROM event_promos WHERE event_id = $1 AND upper(code) = upper($2) AND deleted_at IS NULL`,
    [eventId, code],
  );
  const promo = found.rows[0];
  if (!promo) throw refused(`No promo code ${code} for this event`, 'is not a promo code of the event');
  if ((promo.valid_from && now < promo.valid_from) || (promo.valid_until && now >= promo.valid_until))
    throw refused(`The promo code ${code} is not valid now`, 'is outside its validity window');
  const discount = promoDiscount(promo, lines);
  if (discount === 0)
    throw refused(`The promo code ${code} is for other tickets`, 'applies to none of the lines');
  const used = await db.query(
    `UPDATE event_promos SET used = used + 1, updated_at = now()
      WHERE id = $1 AND (usage_limit IS NULL OR used < usage_limit) RETURNING id`,
    [promo.id],
  );
  if (used.rowCount === 0) throw refused(`The promo code ${code} has been used up`, 'has been used up');
  return { promoId: promo.id, discount };
}

/** Takes one use of the promo again, if one is left (a payment that arrived after its hold ran out). */
export async function retakePromo(db: Queryable, promoId: string): Promise<boolean> {
  const used = await db.query(
    `UPDATE event_promos SET used = used + 1, updated_at = now()
      WHERE id = $1 AND (usage_limit IS NULL OR used < usage_limit) RETURNING id`,
    [promoId],
  );
  return used.rowCount === 1;
}

/** Gives back the uses of the orders' promos (their holds ran out). */
export async function releasePromos(db: Queryable, orderIds: readonly string[]): Promise<void> {
  await db.query(
    `SELECT id FROM event_promos WHERE id IN (SELECT promo_id FROM event_orders WHERE id = ANY($1::text[]))
      ORDER BY id FOR UPDATE`,
    [orderIds],
  );
  await db.query(
    `UPDATE event_promos p SET used = p.used - uses.n, updated_at = now()
       FROM (SELECT promo_id, count(*)::int AS n FROM event_orders
              WHERE id = ANY($1::text[]) AND promo_id IS NOT NULL GROUP BY promo_id) AS uses
      WHERE uses.promo_id = p.id`,
    [orderIds],
  );
}

export class PromoService {
  async create(db: Queryable, tenant: Tenant, eventId: string, input: PromoCreateInput) {
    const event = await findEvent(db, tenant, eventId, true);
    if (input.tier !== undefined) {
      const tier = await findTier(db, tenant, input.tier);
      if (tier.event_id !== event.id)
        throw new AppError('parameter_invalid', `The tier ${tier.id} is not of the event ${event.id}`, {
          details: { tier: 'is not a tier of the event' },
        });
    }
    const taken = await db.query(
      `SELECT 1 FROM event_promos WHERE event_id = $1 AND upper(code) = upper($2) AND deleted_at IS NULL`,
      [event.id, input.code],
    );
    if (taken.rows.length > 0)
      throw new AppError('parameter_invalid', `The event already has the promo code ${input.code}`, {
        details: { code: 'is taken' },
      });
    const inserted = await db.query<PromoRow>(
      `INSERT INTO event_promos (id, merchant_id, livemode, event_id, tier_id, code, percent_off, amount_off,
         usage_limit, valid_from, valid_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
      [
        newId('eventPromo'),
        tenant.merchantId,
        tenant.livemode,
        event.id,
        input.tier ?? null,
        input.code,
        input.percent_off ?? null,
        input.amount_off ?? null,
        input.usage_limit ?? null,
        toDate(input.valid_from),
        toDate(input.valid_until),
      ],
    );
    const object = promoObject(inserted.rows[0]!);
    await recordEvent(db, { ...tenant, type: 'event_promo.created', object });
    return object;
  }

  promosSource(tenant: Tenant, eventId: string): ListSource {
    return {
      table: 'event_promos',
      where: 'merchant_id = $1 AND livemode = $2 AND event_id = $3 AND deleted_at IS NULL',
      params: [tenant.merchantId, tenant.livemode, eventId],
    };
  }

  /** Orders that used it keep their discount. */
  async delete(db: Queryable, tenant: Tenant, id: string) {
    const row = await findOwned<PromoRow>(db, 'event_promos', 'promo', tenant, id, { lock: true });
    if (row.deleted_at !== null) throw notFound('promo', id);
    const deleted = await db.query<PromoRow>(
      `UPDATE event_promos SET deleted_at = now(), updated_at = now() WHERE id = $1 RETURNING *`,
      [id],
    );
    const object = promoObject(deleted.rows[0]!);
    await recordEvent(db, { ...tenant, type: 'event_promo.deleted', object });
    return object;
  }
}
