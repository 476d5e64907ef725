import { newId, notFound } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Actor, Tenant } from '../actor.ts';
import { recordEvent } from './events.ts';
import { findOwned } from './owned.ts';
import { unixSeconds } from './time.ts';

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

export async function createCustomer(db: Queryable, actor: Actor, input: CreateCustomerInput) {
  const inserted = await db.query<CustomerRow>(
    `INSERT INTO customers (id, merchant_id, livemode, name, email, phone, description, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [
      newId('customer'),
      actor.merchantId,
      actor.livemode,
      input.name ?? null,
      input.email ?? null,
      input.phone ?? null,
      input.description ?? null,
      JSON.stringify(input.metadata ?? {}),
    ],
  );
  const object = customerObject(inserted.rows[0]!);
  await recordEvent(db, {
    merchantId: actor.merchantId,
    livemode: actor.livemode,
    type: 'customer.created',
    object,
  });
  return object;
}

export async function retrieveCustomer(db: Queryable, actor: Actor, id: string) {
  return customerObject(await findOwned<CustomerRow>(db, 'customers', 'customer', actor, id));
}

/** A customer id given with a payment or checkout must be the caller's own, in the caller's mode. */
export async function assertCustomerExists(db: Queryable, actor: Actor, id: string): Promise<void> {
  await findOwned(db, 'customers', 'customer', actor, id);
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

export function customersSource(
  actor: Actor,
  filters: { email?: string | undefined; phone?: string | undefined },
) {
  const params: unknown[] = [actor.merchantId, actor.livemode];
  let where = 'merchant_id = $1 AND livemode = $2';
  if (filters.email) where += ` AND lower(email) = lower($${params.push(filters.email)})`;
  if (filters.phone) where += ` AND phone = $${params.push(filters.phone)}`;
  return { table: 'customers', where, params };
}
