import { invalidField, newId, notFound, type CreateCustomerCommand } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Actor, Tenant, TillActor } from '../actor.ts';
import { recordEvent } from '../infra/events.ts';
import { findOwned } from '../infra/owned.ts';
import { unixSeconds } from '../infra/time.ts';

interface CustomerRow {
  id: string;
  livemode: boolean;
  name: string | null;
  email: string | null;
  phone: string | null;
  description: string | null;
  metadata: Record<string, string>;
  created_at: Date;
}

export const customerObject = (row: CustomerRow) => ({
  id: row.id,
  object: 'customer' as const,
  name: row.name,
  email: row.email,
  phone: row.phone,
  description: row.description,
  metadata: row.metadata,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
});

export interface CreateCustomerInput {
  name?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  description?: string | undefined;
  metadata?: Record<string, string> | undefined;
}

export class CustomerService {
  /**
   * A new customer and its `customer.created` event, in the caller's transaction. `id`: the till's
   * own id for a customer it made; null when another merchant's customer holds it (nothing written).
   */
  async create(db: Queryable, actor: Actor, input: CreateCustomerInput, id: string = newId('customer')) {
    const inserted = await db.query<CustomerRow>(
      `INSERT INTO customers (id, merchant_id, livemode, name, email, phone, description, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING RETURNING *`,
      [
        id,
        actor.merchantId,
        actor.livemode,
        input.name ?? null,
        input.email ?? null,
        input.phone ?? null,
        input.description ?? null,
        JSON.stringify(input.metadata ?? {}),
      ],
    );
    if (inserted.rows.length === 0) throw invalidField('parameter_invalid', 'customer', 'is taken');
    const object = customerObject(inserted.rows[0]!);
    await recordEvent(db, {
      merchantId: actor.merchantId,
      livemode: actor.livemode,
      type: 'customer.created',
      object,
    });
    return object;
  }

  /**
   * A customer made at a till (the `customer.create` command). The phone is the
   * customer's identity at a counter: when one of the merchant's customers (in
   * this mode) has it already, the till's id becomes another name for the oldest
   * of them (`customer_aliases`), nothing else changes and no event is sent;
   * otherwise the customer is created under the till's id, like `POST
   * /v1/customers`, with `metadata.till` naming the till. The merchant's row is
   * locked first, so two tills making one phone's customer at once make one.
   */
  async createForTill(
    db: Queryable,
    till: TillActor,
    input: CreateCustomerCommand,
  ): Promise<TillCustomerOutcome> {
    await db.query(`SELECT 1 FROM merchants WHERE id = $1 FOR NO KEY UPDATE`, [till.merchantId]);
    // The till's id made before (the command sent again under another id), linked before, or the phone's customer.
    const known = await db.query<{ id: string; kind: 'made' | 'linked' | 'phone' }>(
      `SELECT id, kind FROM (
         (SELECT id, 'made' AS kind, 1 AS rank FROM customers WHERE merchant_id = $1 AND livemode = $2 AND id = $3)
         UNION ALL
         (SELECT customer_id, 'linked', 2 FROM customer_aliases WHERE merchant_id = $1 AND livemode = $2 AND alias = $3)
         UNION ALL
         (SELECT id, 'phone', 3 FROM customers WHERE merchant_id = $1 AND livemode = $2 AND phone = $4
           ORDER BY seq LIMIT 1)
       ) known ORDER BY rank LIMIT 1`,
      [till.merchantId, till.livemode, input.customer, input.phone],
    );
    const found = known.rows[0];
    if (found?.kind === 'phone') {
      await db.query(
        `INSERT INTO customer_aliases (merchant_id, livemode, alias, customer_id, till_id) VALUES ($1, $2, $3, $4, $5)`,
        [till.merchantId, till.livemode, input.customer, found.id, till.tillId],
      );
    }
    if (found) return { customer: found.id, linked: found.kind !== 'made' };
    const created = await this.create(
      db,
      till,
      { name: input.name, phone: input.phone, metadata: { till: till.tillId } },
      input.customer,
    );
    return { customer: created.id, linked: false };
  }

  async retrieve(db: Queryable, actor: Actor, id: string) {
    return customerObject(await findOwned<CustomerRow>(db, 'customers', 'customer', actor, id));
  }

  listSource(actor: Actor, filters: { email?: string | undefined; phone?: string | undefined }) {
    const params: unknown[] = [actor.merchantId, actor.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.email) where += ` AND lower(email) = lower($${params.push(filters.email)})`;
    if (filters.phone) where += ` AND phone = $${params.push(filters.phone)}`;
    return { table: 'customers', where, params };
  }
}

/** What a till is told of its `customer.create`: the customer its id names, and whether that one was already known. */
export interface TillCustomerOutcome {
  customer: string;
  /** The phone belonged to this customer already: the till's id now names it, and no customer was made. */
  linked: boolean;
}

/** A customer id given with a payment or checkout must be the caller's own, in the caller's mode. */
export function assertCustomerExists(db: Queryable, tenant: Tenant, id: string): Promise<void> {
  return assertCustomersExist(db, [{ ...tenant, customerId: id }]);
}

/** `assertCustomerExists` for many at once, in one query: the first missing one's 404. */
export async function assertCustomersExist(
  db: Queryable,
  wanted: ReadonlyArray<Tenant & { customerId: string }>,
): Promise<void> {
  const key = (id: string, merchantId: string, livemode: boolean) =>
    `${id}/${merchantId}/${String(livemode)}`;
  const unique = new Map(wanted.map((w) => [key(w.customerId, w.merchantId, w.livemode), w]));
  const list = [...unique.values()];
  const found = await db.query<{ id: string; merchant_id: string; livemode: boolean }>(
    `SELECT c.id, c.merchant_id, c.livemode FROM customers c
     JOIN unnest($1::text[], $2::text[], $3::boolean[]) AS w(id, merchant_id, livemode)
       ON c.id = w.id AND c.merchant_id = w.merchant_id AND c.livemode = w.livemode`,
    [list.map((w) => w.customerId), list.map((w) => w.merchantId), list.map((w) => w.livemode)],
  );
  const present = new Set(found.rows.map((r) => key(r.id, r.merchant_id, r.livemode)));
  const missing = list.find((w) => !present.has(key(w.customerId, w.merchantId, w.livemode)));
  if (missing) throw notFound('customer', missing.customerId);
}
