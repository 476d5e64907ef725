import type { Queryable } from '../db/database.ts';
import type { Tenant } from '../actor.ts';

const tenantKey = (tenant: Tenant) => `${tenant.merchantId}/${String(tenant.livemode)}`;

/**
 * Takes the next `count` invoice numbers of each tenant (merchant and mode) in
 * one statement, and returns each tenant's first: its numbers are that and the
 * `count − 1` after it. The counter rows stay locked until the transaction ends,
 * so a rollback gives every number back (no gaps) and concurrent finalisations
 * queue; take them as late in the transaction as possible. Rows are locked in
 * one order (merchant, then mode), so two callers taking several never deadlock.
 */
export async function takeInvoiceNumbers(
  db: Queryable,
  wants: ReadonlyArray<Tenant & { count: number }>,
): Promise<(tenant: Tenant) => number> {
  const totals = new Map<string, Tenant & { count: number }>();
  for (const want of wants) {
    const key = tenantKey(want);
    const seen = totals.get(key);
    if (seen) seen.count += want.count;
    else totals.set(key, { merchantId: want.merchantId, livemode: want.livemode, count: want.count });
  }
  const rows = [...totals.values()];
  const taken = await db.query<{ merchant_id: string; livemode: boolean; last_number: number }>(
    `INSERT INTO invoice_number_counters (merchant_id, livemode, last_number)
     SELECT * FROM unnest($1::text[], $2::boolean[], $3::bigint[]) ORDER BY 1, 2
     ON CONFLICT (merchant_id, livemode)
       DO UPDATE SET last_number = invoice_number_counters.last_number + excluded.last_number
     RETURNING merchant_id, livemode, last_number`,
    [rows.map((r) => r.merchantId), rows.map((r) => r.livemode), rows.map((r) => r.count)],
  );
  const first = new Map<string, number>();
  for (const row of taken.rows) {
    const key = tenantKey({ merchantId: row.merchant_id, livemode: row.livemode });
    first.set(key, row.last_number - totals.get(key)!.count + 1);
  }
  return (tenant) => {
    const number = first.get(tenantKey(tenant));
    if (number === undefined) throw new Error(`no invoice numbers were taken for ${tenantKey(tenant)}`);
    return number;
  };
}
