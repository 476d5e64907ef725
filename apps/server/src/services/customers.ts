import { newId } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Actor } from '../actor.ts';
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
