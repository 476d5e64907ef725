import { notFound } from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';

/** Tables whose rows belong to one merchant and mode (named here, never taken from input). */
export type OwnedTable =
  | 'payments'
  | 'payouts'
  | 'checkouts'
  | 'customers'
  | 'retail_categories'
  | 'retail_products'
  | 'retail_variants'
  | 'retail_stores'
  | 'webhook_endpoints'
  | 'webhook_deliveries'
  | 'tills'
  | 'employees'
  | 'printers'
  | 'print_jobs'
  | 'shifts'
  | 'escrows'
  | 'subscriptions'
  | 'invoices'
  | 'hospitality_room_types'
  | 'hospitality_rooms'
  | 'hospitality_reservations'
  | 'ticketed_events'
  | 'event_tiers'
  | 'event_orders'
  | 'event_promos'
  | 'event_tickets';

/**
 * The caller's own row, or a 404 naming `what`: another merchant's or the other
 * mode's row is not found, never forbidden. `lock` takes the row for update.
 */
export async function findOwned<Row>(
  db: Queryable,
  table: OwnedTable,
  what: string,
  tenant: Tenant,
  id: string,
  options: { lock?: boolean } = {},
): Promise<Row> {
  const found = await db.query<Row & object>(
    `SELECT * FROM ${table} WHERE id = $1 AND merchant_id = $2 AND livemode = $3${options.lock ? ' FOR UPDATE' : ''}`,
    [id, tenant.merchantId, tenant.livemode],
  );
  const row = found.rows[0];
  if (!row) throw notFound(what, id);
  return row;
}
