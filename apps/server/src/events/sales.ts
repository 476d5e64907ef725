/**
 * An event's sales by tier and day: the tickets of its paid orders, counted on
 * the day each order was paid in the event's own time zone. Refunded orders
 * are not sales; expired ones never were.
 */
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { findEvent } from './events.ts';

interface SalesRow {
  orders: number;
  amount: number;
  discount: number;
  /** Null on the one row of an event without sales. */
  date: string | null;
  tier_id: string | null;
  tickets: number | null;
  gross: number | null;
}

export async function eventSales(db: Queryable, tenant: Tenant, id: string) {
  const event = await findEvent(db, tenant, id);
  // One statement, so the days and the totals count the same orders.
  const sales = await db.query<SalesRow>(
    `WITH paid AS (
       SELECT id, paid_at, amount, discount FROM event_orders WHERE event_id = $1 AND status = 'paid'
     ), totals AS (
       SELECT count(*)::int AS orders, coalesce(sum(amount), 0)::bigint AS amount,
              coalesce(sum(discount), 0)::bigint AS discount
       FROM paid
     ), days AS (
       SELECT to_char(o.paid_at AT TIME ZONE $2, 'YYYY-MM-DD') AS date, l.tier_id,
              sum(l.quantity)::int AS tickets, sum(l.quantity * l.unit_price)::bigint AS gross
       FROM paid o JOIN event_order_lines l ON l.order_id = o.id
       GROUP BY 1, 2
     )
     SELECT totals.*, days.* FROM totals LEFT JOIN days ON true ORDER BY days.date, days.tier_id`,
    [event.id, event.time_zone],
  );
  const tiers = await db.query<{ id: string; name: string }>(
    `SELECT id, name FROM event_tiers WHERE event_id = $1 AND deleted_at IS NULL ORDER BY seq`,
    [event.id],
  );
  const { orders, amount, discount } = sales.rows[0]!;
  const byDay = sales.rows.flatMap((row) =>
    row.date === null
      ? []
      : [{ date: row.date, tier_id: row.tier_id!, tickets: row.tickets!, gross: row.gross! }],
  );
  const days = new Map<string, Array<{ tier: string; tickets: number; gross: number }>>();
  for (const row of byDay) {
    const day = days.get(row.date) ?? [];
    day.push({ tier: row.tier_id, tickets: row.tickets, gross: row.gross });
    days.set(row.date, day);
  }
  const counted = (rows: ReadonlyArray<{ tickets: number; gross: number }>) => ({
    tickets: rows.reduce((sum, row) => sum + row.tickets, 0),
    gross: rows.reduce((sum, row) => sum + row.gross, 0),
  });
  return {
    object: 'event_sales' as const,
    event: event.id,
    time_zone: event.time_zone,
    currency: 'TZS' as const,
    tiers: tiers.rows.map((tier) => ({
      tier: tier.id,
      name: tier.name,
      ...counted(byDay.filter((row) => row.tier_id === tier.id)),
    })),
    days: [...days].map(([date, dayTiers]) => ({
      date,
      tickets: counted(dayTiers).tickets,
      tiers: dayTiers,
    })),
    total: {
      orders,
      ...counted(byDay),
      discount,
      amount,
    },
    livemode: event.livemode,
  };
}
