/**
 * Tickets taken and given back: the counters on tiers and events. Every writer
 * locks tiers in id order, then events in id order, so two never wait on each
 * other in a circle. A taking increments only where the result stays within
 * the quantity and the capacity (and the CHECKs say so again), so concurrent
 * buyers of the last tickets queue on the rows and the late ones find none.
 */
import { AppError } from '@tz/core';
import type { Queryable } from '../db/database.ts';

export interface Taking {
  tierId: string;
  quantity: number;
}

/** Takes each tier's quantity and their sum from the event, or throws `sold_out` (the transaction then rolls back). */
export async function takeTickets(db: Queryable, eventId: string, takings: readonly Taking[]): Promise<void> {
  const sorted = [...takings].sort((a, b) => (a.tierId < b.tierId ? -1 : 1));
  for (const taking of sorted) {
    const taken = await db.query(
      `UPDATE event_tiers SET taken = taken + $2, updated_at = now()
        WHERE id = $1 AND taken + $2 <= quantity RETURNING id`,
      [taking.tierId, taking.quantity],
    );
    if (taken.rowCount === 0)
      throw new AppError('sold_out', `Not enough tickets of the tier ${taking.tierId} are left`, {
        details: { [`lines.${takings.indexOf(taking)}.quantity`]: 'is more than are left' },
      });
  }
  const total = takings.reduce((sum, taking) => sum + taking.quantity, 0);
  const fits = await db.query(
    `UPDATE ticketed_events SET taken = taken + $2, updated_at = now()
      WHERE id = $1 AND taken + $2 <= capacity RETURNING id`,
    [eventId, total],
  );
  if (fits.rowCount === 0)
    throw new AppError('sold_out', `Not enough tickets for the event ${eventId} are left`, {
      details: { lines: 'are more than the event has left' },
    });
}

/** Whether the takings fit now, with the rows locked (for a payment that arrived after its hold ran out). */
export async function ticketsFit(
  db: Queryable,
  eventId: string,
  takings: readonly Taking[],
): Promise<boolean> {
  const tiers = await db.query<{ id: string; free: number }>(
    `SELECT id, quantity - taken AS free FROM event_tiers WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
    [takings.map((taking) => taking.tierId)],
  );
  const event = await db.query<{ free: number }>(
    `SELECT capacity - taken AS free FROM ticketed_events WHERE id = $1 FOR UPDATE`,
    [eventId],
  );
  const free = new Map(tiers.rows.map((row) => [row.id, row.free]));
  const total = takings.reduce((sum, taking) => sum + taking.quantity, 0);
  return (
    takings.every((taking) => (free.get(taking.tierId) ?? 0) >= taking.quantity) &&
    (event.rows[0]?.free ?? 0) >= total
  );
}

/** Gives back the tickets of the orders' lines: the rows locked in order, then a statement for the tiers and one for the events. */
export async function releaseTickets(db: Queryable, orderIds: readonly string[]): Promise<void> {
  if (orderIds.length === 0) return;
  await db.query(
    `SELECT id FROM event_tiers WHERE id IN (SELECT tier_id FROM event_order_lines WHERE order_id = ANY($1::text[]))
      ORDER BY id FOR UPDATE`,
    [orderIds],
  );
  await db.query(
    `SELECT id FROM ticketed_events WHERE id IN (SELECT event_id FROM event_orders WHERE id = ANY($1::text[]))
      ORDER BY id FOR UPDATE`,
    [orderIds],
  );
  await db.query(
    `UPDATE event_tiers t SET taken = t.taken - lines.quantity, updated_at = now()
       FROM (SELECT tier_id, sum(quantity)::int AS quantity FROM event_order_lines
              WHERE order_id = ANY($1::text[]) GROUP BY tier_id) AS lines
      WHERE lines.tier_id = t.id`,
    [orderIds],
  );
  await db.query(
    `UPDATE ticketed_events e SET taken = e.taken - counts.quantity, updated_at = now()
       FROM (SELECT o.event_id, sum(l.quantity)::int AS quantity FROM event_orders o
               JOIN event_order_lines l ON l.order_id = o.id WHERE o.id = ANY($1::text[]) GROUP BY o.event_id) AS counts
      WHERE counts.event_id = e.id`,
    [orderIds],
  );
}
