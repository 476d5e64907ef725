import {
  AppError,
  EMPLOYEE_RECORD_DEFAULTS,
  hashPin,
  MANAGER_PIN_DIGITS,
  newId,
  verifyPin,
  type EmployeeRecord,
  type EmployeeRecordInput,
  type EmployeeStatus,
  type PinHash,
} from '@tz/core';
import type { Queryable } from '../db/database.ts';
import { recordEvent } from '../infra/events.ts';
import { findOwned } from '../infra/owned.ts';
import { unixSeconds } from '../infra/time.ts';
import { invalid } from '../retail/shared.ts';
import type { Tenant } from '../actor.ts';
import { mergeRecord, nextEmployment, RECORD_COLUMNS, recordOf, recordValues } from '../people/records.ts';
import { lockPins, projectEmployee } from './till-employees.ts';

export type EmployeeRole = 'cashier' | 'manager';

export interface EmployeeRow extends EmployeeRecord {
  id: string;
  merchant_id: string;
  livemode: boolean;
  name: string;
  role: EmployeeRole;
  store_ids: string[];
  pin_hash: PinHash;
  /** Null for a PIN set before its length was kept. */
  pin_digits: number | null;
  active: boolean;
  status: EmployeeStatus;
  deactivated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * The API's employee, for secret keys only: the PIN is write-only and never leaves the server
 * this way, and the record's personal and pay fields are in no till's copy (`till-employees.ts`).
 */
export const employeeObject = (row: EmployeeRow) => ({
  id: row.id,
  object: 'employee' as const,
  name: row.name,
  role: row.role,
  stores: row.store_ids,
  active: row.active,
  status: row.status,
  ...recordOf(row),
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  updated: unixSeconds(row.updated_at),
});
export type EmployeeObject = ReturnType<typeof employeeObject>;

export interface EmployeeInput extends EmployeeRecordInput {
  name: string;
  role: EmployeeRole;
  stores: string[];
  pin: string;
  active?: boolean | undefined;
}
export type EmployeePatch = { [K in keyof EmployeeInput]?: EmployeeInput[K] | undefined } & {
  status?: EmployeeStatus | undefined;
};

const recordParams = (first: number) => RECORD_COLUMNS.map((_, index) => `$${first + index}`).join(', ');

/** Every store named must be the caller's own, in its mode; the error names the entry (`stores.1`). */
async function assertOwnStores(db: Queryable, tenant: Tenant, stores: readonly string[]): Promise<void> {
  const found = await db.query<{ id: string }>(
    `SELECT id FROM retail_stores WHERE merchant_id = $1 AND livemode = $2 AND id = ANY($3::text[])`,
    [tenant.merchantId, tenant.livemode, stores],
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
  tenant: Tenant,
  pin: string,
  stores: readonly string[],
  self: string | null,
): Promise<void> {
  const colleagues = await db.query<{ pin_hash: PinHash }>(
    `SELECT pin_hash FROM employees WHERE merchant_id = $1 AND livemode = $2 AND active
       AND store_ids && $3::text[] AND id IS DISTINCT FROM $4`,
    [tenant.merchantId, tenant.livemode, stores, self],
  );
  const matches = await Promise.all(colleagues.rows.map((row) => verifyPin(pin, row.pin_hash)));
  if (matches.some(Boolean)) {
    throw new AppError('pin_taken', 'Another active employee at these stores has this PIN', {
      details: { pin: 'is used by another employee at the same store' },
    });
  }
}

/** What a manager approved at a till names them: an active manager of the account, or it is refused. */
export async function assertManager(db: Queryable, tenant: Tenant, id: string, field: string): Promise<void> {
  const found = await db.query<{ role: EmployeeRole }>(
    `SELECT role FROM employees WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND active`,
    [id, tenant.merchantId, tenant.livemode],
  );
  if (found.rows[0]?.role !== 'manager')
    throw invalid('parameter_invalid', field, 'is not an active manager of this account');
}

/**
 * A manager's PIN approves refunds, voids and large discounts on any till of
 * the store, so it has the most digits a PIN may have: a guess at a stolen
 * till's data costs 100 times a 4-digit cashier's.
 */
function assertManagerPin(role: EmployeeRole, digits: number | null): void {
  if (role === 'manager' && (digits ?? 0) < MANAGER_PIN_DIGITS) {
    throw invalid(
      'parameter_invalid',
      'pin',
      digits === null
        ? `a manager needs a PIN of ${MANAGER_PIN_DIGITS} digits: give a new pin with the role`
        : `must be ${MANAGER_PIN_DIGITS} digits for a manager`,
    );
  }
}

export class EmployeeService {
  async create(db: Queryable, tenant: Tenant, input: EmployeeInput) {
    const active = input.active ?? true;
    const record = mergeRecord(EMPLOYEE_RECORD_DEFAULTS, input);
    assertManagerPin(input.role, input.pin.length);
    await assertOwnStores(db, tenant, input.stores);
    if (active) await assertPinFree(db, tenant, input.pin, input.stores, null);
    const salt = await lockPins(db, tenant);
    const inserted = await db.query<EmployeeRow>(
      `INSERT INTO employees (id, merchant_id, livemode, name, role, store_ids, pin_hash, pin_digits, active,
         deactivated_at, ${RECORD_COLUMNS.join(', ')})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CASE WHEN $9 THEN NULL ELSE now() END, ${recordParams(10)})
       RETURNING *`,
      [
        newId('employee'),
        tenant.merchantId,
        tenant.livemode,
        input.name,
        input.role,
        input.stores,
        JSON.stringify(await hashPin(input.pin, salt)),
        input.pin.length,
        active,
        ...recordValues(record),
      ],
    );
    const row = inserted.rows[0]!;
    await projectEmployee(db, tenant, row, true);
    const object = employeeObject(row);
    await recordEvent(db, { ...tenant, type: 'employee.created', object });
    return object;
  }

  async retrieve(db: Queryable, tenant: Tenant, id: string) {
    return employeeObject(await findOwned<EmployeeRow>(db, 'employees', 'employee', tenant, id));
  }

  listSource(tenant: Tenant, filters: { store?: string | undefined; active?: boolean | undefined }) {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.store) where += ` AND $${params.push(filters.store)} = ANY(store_ids)`;
    if (filters.active !== undefined) where += ` AND active = $${params.push(filters.active)}`;
    return { table: 'employees', where, params };
  }

  /**
   * Fields left out keep their value; a new `pin` replaces the old one (checked
   * like a new employee's). Every till of the employee's stores gets the change
   * at its next sync; a till of a store left, or any till once the employee is
   * deactivated, deletes the employee.
   */
  async update(db: Queryable, tenant: Tenant, id: string, patch: EmployeePatch) {
    const row = await findOwned<EmployeeRow>(db, 'employees', 'employee', tenant, id, { lock: true });
    const role = patch.role ?? row.role;
    // A manager made now, or given a new PIN, needs a manager's PIN; one whose PIN predates the rule keeps it until then.
    if (patch.pin !== undefined || (role === 'manager' && row.role !== 'manager')) {
      assertManagerPin(role, patch.pin?.length ?? row.pin_digits);
    }
    const stores = patch.stores ?? row.store_ids;
    if (patch.stores) await assertOwnStores(db, tenant, patch.stores);
    const next = nextEmployment(row, patch, mergeRecord(recordOf(row), patch), new Date());
    const active = next.active;
    if (patch.pin !== undefined && active) await assertPinFree(db, tenant, patch.pin, stores, id);
    const salt = await lockPins(db, tenant);
    const pinHash = patch.pin === undefined ? row.pin_hash : await hashPin(patch.pin, salt);
    const updated = await db.query<EmployeeRow>(
      `UPDATE employees SET name = $2, role = $3, store_ids = $4, pin_hash = $5, active = $6,
         pin_digits = $7, deactivated_at = CASE WHEN $6 THEN NULL ELSE COALESCE(deactivated_at, now()) END,
         status = $8, ${RECORD_COLUMNS.map((column, index) => `${column} = $${9 + index}`).join(', ')},
         updated_at = now()
       WHERE id = $1 RETURNING *`,
      [
        id,
        patch.name ?? row.name,
        role,
        stores,
        JSON.stringify(pinHash),
        active,
        patch.pin?.length ?? row.pin_digits,
        next.status,
        ...recordValues(next.record),
      ],
    );
    const after = updated.rows[0]!;
    await projectEmployee(db, tenant, after, patch.pin !== undefined);
    const object = employeeObject(after);
    await recordEvent(db, { ...tenant, type: 'employee.updated', object });
    return object;
  }
}
