import { AppError, hashPin, newId, verifyPin, type PinHash } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import { findOwned } from '../services/owned.ts';
import { unixSeconds } from '../services/time.ts';
import { invalid } from '../retail/shared.ts';
import type { Tenant } from '../actor.ts';

export type EmployeeRole = 'cashier' | 'manager';

export interface EmployeeRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  name: string;
  role: EmployeeRole;
  store_ids: string[];
  pin_hash: PinHash;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

/** The API's employee: the PIN is write-only and never leaves the server this way. */
export const employeeObject = (row: EmployeeRow) => ({
  id: row.id,
  object: 'employee' as const,
  name: row.name,
  role: row.role,
  stores: row.store_ids,
  active: row.active,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  updated: unixSeconds(row.updated_at),
});
export type EmployeeObject = ReturnType<typeof employeeObject>;

/** The employee as a till pulls it (`employeeDoc`): with the PIN's hash, so the till checks a PIN offline. */
export const employeeDocument = (row: EmployeeRow) => ({
  id: row.id,
  _deleted: false,
  name: row.name,
  role: row.role,
  stores: row.store_ids,
  pin: row.pin_hash,
  active: row.active,
});

export interface EmployeeInput {
  name: string;
  role: EmployeeRole;
  stores: string[];
  pin: string;
  active?: boolean | undefined;
}
export type EmployeePatch = { [K in keyof EmployeeInput]?: EmployeeInput[K] | undefined };

/** Every store named must be the caller's own, in its mode; the error names the entry (`stores.1`). */
async function assertOwnStores(db: Queryable, owner: Tenant, stores: readonly string[]): Promise<void> {
  const found = await db.query<{ id: string }>(
    `SELECT id FROM retail_stores WHERE merchant_id = $1 AND livemode = $2 AND id = ANY($3::text[])`,
    [owner.merchantId, owner.livemode, stores],
  );
  const own = new Set(found.rows.map((row) => row.id));
  const index = stores.findIndex((store) => !own.has(store));
  if (index >= 0) throw invalid('parameter_invalid', `stores.${index}`, 'is not a store of this account');
}

/**
 * A till signs a cashier in by PIN alone, so two active employees sharing a
 * store may not share a PIN. Hashes are salted: the new PIN is checked against
 * each colleague's hash (a few milliseconds each, in parallel).
 */
async function assertPinFree(
  db: Queryable,
  owner: Tenant,
  pin: string,
  stores: readonly string[],
  self: string | null,
): Promise<void> {
  const colleagues = await db.query<{ pin_hash: PinHash }>(
    `SELECT pin_hash FROM employees WHERE merchant_id = $1 AND livemode = $2 AND active
       AND store_ids && $3::text[] AND id IS DISTINCT FROM $4`,
    [owner.merchantId, owner.livemode, stores, self],
  );
  const matches = await Promise.all(colleagues.rows.map((row) => verifyPin(pin, row.pin_hash)));
  if (matches.some(Boolean)) {
    throw new AppError('pin_taken', 'Another active employee at these stores has this PIN', {
      details: { pin: 'is used by another employee at the same store' },
    });
  }
}

export async function createEmployee(db: Queryable, owner: Tenant, input: EmployeeInput) {
  const active = input.active ?? true;
  await assertOwnStores(db, owner, input.stores);
  if (active) await assertPinFree(db, owner, input.pin, input.stores, null);
  const inserted = await db.query<EmployeeRow>(
    `INSERT INTO employees (id, merchant_id, livemode, name, role, store_ids, pin_hash, active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [
      newId('employee'),
      owner.merchantId,
      owner.livemode,
      input.name,
      input.role,
      input.stores,
      JSON.stringify(await hashPin(input.pin)),
      active,
    ],
  );
  return employeeObject(inserted.rows[0]!);
}

export async function retrieveEmployee(db: Queryable, owner: Tenant, id: string) {
  return employeeObject(await findOwned<EmployeeRow>(db, 'employees', 'employee', owner, id));
}

export function employeesSource(
  owner: Tenant,
  filters: { store?: string | undefined; active?: boolean | undefined },
) {
  const params: unknown[] = [owner.merchantId, owner.livemode];
  let where = 'merchant_id = $1 AND livemode = $2';
  if (filters.store) where += ` AND $${params.push(filters.store)} = ANY(store_ids)`;
  if (filters.active !== undefined) where += ` AND active = $${params.push(filters.active)}`;
  return { table: 'employees', where, params };
}

/** Fields left out keep their value; a new `pin` replaces the old one (checked like a new employee's). */
export async function updateEmployee(db: Queryable, owner: Tenant, id: string, patch: EmployeePatch) {
  const row = await findOwned<EmployeeRow>(db, 'employees', 'employee', owner, id, { lock: true });
  const stores = patch.stores ?? row.store_ids;
  if (patch.stores) await assertOwnStores(db, owner, patch.stores);
  const active = patch.active ?? row.active;
  if (patch.pin !== undefined && active) await assertPinFree(db, owner, patch.pin, stores, id);
  const pinHash = patch.pin === undefined ? row.pin_hash : await hashPin(patch.pin);
  const updated = await db.query<EmployeeRow>(
    `UPDATE employees SET name = $2, role = $3, store_ids = $4, pin_hash = $5, active = $6, updated_at = now()
     WHERE id = $1 RETURNING *`,
    [id, patch.name ?? row.name, patch.role ?? row.role, stores, JSON.stringify(pinHash), active],
  );
  return employeeObject(updated.rows[0]!);
}
