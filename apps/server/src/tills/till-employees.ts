/**
 * What each till holds of the employees (`till_employees`, the feed's
 * `employees` collection): a row per till and active employee of the till's
 * store, with a PIN verifier made for that till alone (core's
 * `tillPinVerifier`). An employee deactivated or moved to another store has
 * the row soft-deleted, which reaches the till as a deletion. docs/TILL.md,
 * "What a stolen till holds".
 */
import { tillPinVerifier, type PinHash, type TillPin } from '@tz/core';
import type { Database, Queryable } from '../db/database.ts';
import type { Tenant, TillActor } from '../actor.ts';

/** An employee as the projection needs it. */
interface Employee {
  id: string;
  name: string;
  role: 'cashier' | 'manager';
  store_ids: string[];
  pin_hash: PinHash;
  active: boolean;
}

interface TillEmployeeRow {
  id: string;
  name: string;
  role: 'cashier' | 'manager';
  pin: TillPin | null;
}

/** The employee as a till pulls it: the PIN only as this till's verifier. */
export const tillEmployeeDocument = (row: TillEmployeeRow) => ({
  id: row.id,
  _deleted: false,
  name: row.name,
  role: row.role,
  pin: row.pin,
});

/**
 * Takes the merchant's PIN lock and answers its PIN salt. Employee writes and
 * a till's first pull of employees take turns under it, so neither makes a
 * till's rows from a state the other is changing.
 */
export async function lockPins(db: Queryable, tenant: Tenant): Promise<string> {
  const found = await db.query<{ pin_salt: string }>(
    `SELECT pin_salt FROM merchants WHERE id = $1 FOR NO KEY UPDATE`,
    [tenant.merchantId],
  );
  return found.rows[0]!.pin_salt;
}

async function hold(
  db: Queryable,
  tenant: Tenant,
  tillId: string,
  employee: Employee,
  pin: TillPin | null,
): Promise<void> {
  // A null pin keeps the verifier the till already has (a name or role change).
  await db.query(
    `INSERT INTO till_employees (id, till_id, merchant_id, livemode, name, role, pin)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (till_id, id) DO UPDATE SET name = EXCLUDED.name, role = EXCLUDED.role,
       pin = COALESCE(EXCLUDED.pin, till_employees.pin), deleted_at = NULL, updated_at = now()`,
    [
      employee.id,
      tillId,
      tenant.merchantId,
      tenant.livemode,
      employee.name,
      employee.role,
      pin && JSON.stringify(pin),
    ],
  );
}

/**
 * After an employee's write, under `lockPins`: each till of its stores holds
 * it as it is now (a new verifier where the PIN changed or the till had none),
 * and every other till holds it no more. Tills whose rows are not made yet
 * (`employees_ready`) get them at their first pull.
 */
export async function projectEmployee(
  db: Queryable,
  tenant: Tenant,
  employee: Employee,
  pinChanged: boolean,
): Promise<void> {
  const tills = employee.active
    ? (
        await db.query<{ id: string; pin_salt: string }>(
          `SELECT id, pin_salt FROM tills WHERE merchant_id = $1 AND livemode = $2 AND employees_ready
             AND revoked_at IS NULL AND store_id = ANY($3::text[])`,
          [tenant.merchantId, tenant.livemode, employee.store_ids],
        )
      ).rows
    : [];
  await db.query(
    `UPDATE till_employees SET pin = NULL, deleted_at = now(), updated_at = now()
     WHERE id = $1 AND deleted_at IS NULL AND NOT (till_id = ANY($2::text[]))`,
    [employee.id, tills.map((till) => till.id)],
  );
  const held = await db.query<{ till_id: string }>(
    `SELECT till_id FROM till_employees WHERE id = $1 AND deleted_at IS NULL`,
    [employee.id],
  );
  const holding = new Set(held.rows.map((row) => row.till_id));
  const verifiers = await Promise.all(
    tills.map(async (till) =>
      pinChanged || !holding.has(till.id) ? tillPinVerifier(employee.pin_hash, till.pin_salt) : null,
    ),
  );
  for (const [index, till] of tills.entries()) await hold(db, tenant, till.id, employee, verifiers[index]!);
}

/**
 * Makes a till's rows on its first pull of employees: one per active employee
 * of its store. Later changes come from `projectEmployee`.
 */
export async function prepareTillEmployees(database: Database, till: TillActor): Promise<void> {
  const ready = await database.pool.query<{ employees_ready: boolean }>(
    `SELECT employees_ready FROM tills WHERE id = $1`,
    [till.tillId],
  );
  if (ready.rows[0]?.employees_ready !== false) return;
  await database.transaction(async (tx) => {
    await lockPins(tx, till);
    const found = await tx.query<{ pin_salt: string; employees_ready: boolean }>(
      `SELECT pin_salt, employees_ready FROM tills WHERE id = $1 FOR UPDATE`,
      [till.tillId],
    );
    const row = found.rows[0];
    if (!row || row.employees_ready) return;
    const employees = await tx.query<Employee>(
      `SELECT id, name, role, store_ids, pin_hash, active FROM employees
       WHERE merchant_id = $1 AND livemode = $2 AND active AND $3 = ANY(store_ids)`,
      [till.merchantId, till.livemode, till.storeId],
    );
    const verifiers = await Promise.all(
      employees.rows.map((employee) => tillPinVerifier(employee.pin_hash, row.pin_salt)),
    );
    for (const [index, employee] of employees.rows.entries()) {
      await hold(tx, till, till.tillId, employee, verifiers[index]!);
    }
    await tx.query(`UPDATE tills SET employees_ready = true, updated_at = now() WHERE id = $1`, [
      till.tillId,
    ]);
  });
}
