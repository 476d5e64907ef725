import {
  type commandPayloads,
  notFound,
  SHIFT_STATES,
  zReport,
  type Currency,
  type ShiftStatus,
  type TenderMethod,
  type ZReport,
  type ZReportOrder,
} from '@tz/core';
import type { z } from 'zod';
import type { Queryable } from '../db/database.ts';
import { recordEvent } from '../infra/events.ts';
import { unixOrNull, unixSeconds } from '../infra/time.ts';
import { storedStates, transition } from '../infra/transitions.ts';
import { invalid } from '../retail/shared.ts';
import type { Tenant, TillActor } from '../actor.ts';

const SHIFTS = storedStates(SHIFT_STATES, 'shifts');

export type ShiftOpen = z.output<(typeof commandPayloads)['shift.open']>;
export type ShiftCashMovement = z.output<(typeof commandPayloads)['shift.cash_movement']>;
export type ShiftClose = z.output<(typeof commandPayloads)['shift.close']>;
export type ShiftNoSale = z.output<(typeof commandPayloads)['shift.no_sale']>;

interface CountedAmount {
  method: TenderMethod;
  amount: number;
}

export interface ShiftRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  till_id: string;
  store_id: string;
  cashier_id: string;
  status: ShiftStatus;
  currency: Currency;
  opening_float: number;
  opened_at: Date;
  closed_at: Date | null;
  counted: CountedAmount[] | null;
  expected_cash: number | null;
  counted_cash: number | null;
  z_report: ZReportObject | null;
  created_at: Date;
  updated_at: Date;
}

interface MovementRow {
  kind: 'pay_in' | 'pay_out';
  amount: number;
  reason: string;
  at: Date;
}

interface NoSaleRow {
  cashier_id: string;
  approved_by: string | null;
  reason: string;
  at: Date;
}

/** The Z report in the API's words (snake_case). */
export const zReportObject = (report: ZReport) => ({
  order_count: report.orderCount,
  voided_count: report.voidedCount,
  sales_total: report.salesTotal,
  refunds_total: report.refundsTotal,
  expected_total: report.expectedTotal,
  counted_total: report.countedTotal,
  difference_total: report.differenceTotal,
  no_sale_count: report.noSaleCount,
  lines: report.lines.map((line) => ({
    method: line.method,
    taken: line.taken,
    change: line.change,
    sales: line.sales,
    refunds: line.refunds,
    float: line.float,
    pay_ins: line.payIns,
    pay_outs: line.payOuts,
    desk: line.desk,
    expected: line.expected,
    counted: line.counted,
    difference: line.difference,
  })),
  cashiers: report.cashiers.map((part) => ({
    cashier: part.cashier,
    order_count: part.orderCount,
    sales: part.sales,
    refunds: part.refunds,
    no_sales: part.noSales,
    desk_cash: part.deskCash,
  })),
});
export type ZReportObject = ReturnType<typeof zReportObject>;

/**
 * A report kept at close before reports split sales by cashier has no parts: an empty list says so.
 * One kept before no-sales were recorded had none to count: 0.
 */
const keptReport = (report: ZReportObject | null): ZReportObject | null =>
  report && {
    ...report,
    no_sale_count: report.no_sale_count ?? 0,
    lines: report.lines.map((line) => ({ ...line, desk: line.desk ?? 0 })),
    cashiers: (report.cashiers ?? []).map((part) => ({
      ...part,
      no_sales: part.no_sales ?? 0,
      desk_cash: part.desk_cash ?? 0,
    })),
  };

export const shiftObject = (
  row: ShiftRow,
  movements: MovementRow[],
  report: ZReportObject | null,
  noSales: NoSaleRow[],
) => ({
  id: row.id,
  object: 'shift' as const,
  till: row.till_id,
  store: row.store_id,
  cashier: row.cashier_id,
  status: row.status,
  currency: row.currency,
  opening_float: row.opening_float,
  opened_at: unixSeconds(row.opened_at),
  closed_at: unixOrNull(row.closed_at),
  cash_movements: movements.map((movement) => ({
    kind: movement.kind,
    amount: movement.amount,
    reason: movement.reason,
    at: unixSeconds(movement.at),
  })),
  no_sales: noSales.map((noSale) => ({
    cashier: noSale.cashier_id,
    approved_by: noSale.approved_by,
    reason: noSale.reason,
    at: unixSeconds(noSale.at),
  })),
  counted: row.counted,
  expected_cash: row.expected_cash,
  counted_cash: row.counted_cash,
  report,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
});
export type ShiftObject = ReturnType<typeof shiftObject>;

/** The shift as its till pulls it (`shiftDoc`). */
export const shiftDocument = (row: ShiftRow) => ({
  id: row.id,
  _deleted: false,
  till: row.till_id,
  cashier: row.cashier_id,
  status: row.status,
  opening_float: row.opening_float,
  expected_cash: row.expected_cash,
  counted_cash: row.counted_cash,
  opened_at: unixSeconds(row.opened_at),
  closed_at: unixOrNull(row.closed_at),
});

const MOVEMENTS_SQL = `SELECT kind, amount, reason, at FROM shift_cash_movements WHERE shift_id = $1 ORDER BY id`;

async function movementsOf(db: Queryable, shiftId: string): Promise<MovementRow[]> {
  return (await db.query<MovementRow>(MOVEMENTS_SQL, [shiftId])).rows;
}

const NO_SALES_SQL = `SELECT shift_id, cashier_id, approved_by, reason, at FROM shift_no_sales
  WHERE shift_id = ANY($1::text[]) ORDER BY id`;

/** The no-sales of the given shifts, by shift. */
async function noSalesOf(db: Queryable, shiftIds: string[]): Promise<Map<string, NoSaleRow[]>> {
  const rows = (await db.query<NoSaleRow & { shift_id: string }>(NO_SALES_SQL, [shiftIds])).rows;
  const byShift = new Map<string, NoSaleRow[]>();
  for (const { shift_id, ...noSale } of rows)
    byShift.set(shift_id, [...(byShift.get(shift_id) ?? []), noSale]);
  return byShift;
}

/** The report from the shift's orders and cash movements as recorded now. */
async function computeReport(
  db: Queryable,
  row: ShiftRow,
  movements: MovementRow[],
  noSales: NoSaleRow[],
  counted: CountedAmount[] | undefined,
): Promise<ZReport> {
  // A sale charged to a room brings no money to the drawer: the guest's folio has it.
  const orders = await db.query<{
    status: ZReportOrder['status'];
    change_due: number;
    refunded_amount: number;
    cashier: string | null;
    tenders: Array<{ method: TenderMethod; amount: number }>;
  }>(
    `SELECT o.status, o.change_due, o.refunded_amount, o.cashier,
       (SELECT coalesce(json_agg(json_build_object('method', t.method, 'amount', t.amount) ORDER BY t.position), '[]')
          FROM retail_order_tenders t WHERE t.order_id = o.id AND t.method <> 'room') AS tenders
     FROM retail_orders o WHERE o.shift_id = $1 AND o.merchant_id = $2 AND o.livemode = $3 ORDER BY o.seq`,
    [row.id, row.merchant_id, row.livemode],
  );
  // Tickets the box office sold in this shift: sales like the shop's (a refund through the API gives no cash back here).
  const boxOffice = await db.query<{
    change_due: number;
    cashier: string | null;
    tenders: Array<{ method: TenderMethod; amount: number }>;
  }>(
    `SELECT o.change_due, o.cashier_id AS cashier,
       (SELECT coalesce(json_agg(json_build_object('method', t.method, 'amount', t.amount) ORDER BY t.position), '[]')
          FROM event_order_tenders t WHERE t.order_id = o.id) AS tenders
     FROM event_orders o WHERE o.shift_id = $1 AND o.merchant_id = $2 AND o.livemode = $3 ORDER BY o.seq`,
    [row.id, row.merchant_id, row.livemode],
  );
  // Cash in shillings a front desk took into this drawer (a payment is a negative folio line).
  const desk = await db.query<{ amount: string; cashier_id: string | null }>(
    `SELECT -amount AS amount, cashier_id FROM hospitality_folio_lines
      WHERE shift_id = $1 AND kind IN ('cash', 'deposit') AND foreign_currency IS NULL ORDER BY seq`,
    [row.id],
  );
  return zReport({
    openingFloat: row.opening_float,
    orders: [
      ...orders.rows.map((order) => ({
        status: order.status,
        tenders: order.tenders,
        changeDue: order.change_due,
        refundedAmount: order.refunded_amount,
        cashier: order.cashier,
      })),
      ...boxOffice.rows.map((order) => ({
        status: 'paid' as const,
        tenders: order.tenders,
        changeDue: Number(order.change_due),
        refundedAmount: 0,
        cashier: order.cashier,
      })),
    ],
    cashMovements: movements,
    counted,
    noSales: noSales.map((noSale) => ({ cashier: noSale.cashier_id })),
    deskCash: desk.rows.map((line) => ({ amount: Number(line.amount), cashier: line.cashier_id })),
  });
}

/** The till's own shift, locked; another till's or another account's is not found. */
export async function lockTillShift(db: Queryable, till: TillActor, id: string): Promise<ShiftRow> {
  const found = await db.query<ShiftRow>(
    `SELECT * FROM shifts WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND till_id = $4 FOR UPDATE`,
    [id, till.merchantId, till.livemode, till.tillId],
  );
  if (!found.rows[0]) throw notFound('shift', id);
  return found.rows[0];
}

export interface ShiftChange {
  shift: ShiftObject;
  /** False when the command had already been applied: nothing changed. */
  changed: boolean;
}

export class ShiftService {
  /** `shift.open`: a shift at the till's store with its cash float. Opening the same shift again changes nothing. */
  async open(db: Queryable, till: TillActor, input: ShiftOpen): Promise<ShiftChange> {
    const cashier = await db.query(
      `SELECT 1 FROM employees WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [input.cashier, till.merchantId, till.livemode],
    );
    if (!cashier.rowCount)
      throw invalid('parameter_invalid', 'cashier', 'is not an employee of this account');
    const inserted = await db.query<ShiftRow>(
      `INSERT INTO shifts (id, merchant_id, livemode, till_id, store_id, cashier_id, status, currency, opening_float,
         opened_at)
       SELECT $1, $2, $3, $4, s.id, $5, $6, s.currency, $7, $8 FROM retail_stores s WHERE s.id = $9
       ON CONFLICT (id) DO NOTHING RETURNING *`,
      [
        input.shift,
        till.merchantId,
        till.livemode,
        till.tillId,
        input.cashier,
        'open' satisfies ShiftStatus,
        input.opening_float,
        new Date(input.opened_at * 1000),
        till.storeId,
      ],
    );
    const row = inserted.rows[0];
    if (!row) {
      const existing = await db.query<ShiftRow>(
        `SELECT * FROM shifts WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND till_id = $4`,
        [input.shift, till.merchantId, till.livemode, till.tillId],
      );
      if (!existing.rows[0]) throw invalid('parameter_invalid', 'shift', 'is the id of another shift');
      return { shift: await shiftWithReport(db, existing.rows[0]), changed: false };
    }
    const shift = shiftObject(row, [], null, []);
    await recordEvent(db, { ...till, type: 'shift.opened', object: shift });
    return { shift, changed: true };
  }

  /**
   * `shift.cash_movement`: a pay-in or pay-out of an open shift. Idempotent by
   * the till's command id: the same command applied again moves nothing.
   */
  async recordCashMovement(
    db: Queryable,
    till: TillActor,
    input: ShiftCashMovement,
    commandId: string,
  ): Promise<ShiftChange> {
    const row = await lockTillShift(db, till, input.shift);
    const repeat = await db.query(
      `SELECT 1 FROM shift_cash_movements WHERE shift_id = $1 AND command_id = $2`,
      [row.id, commandId],
    );
    if (repeat.rowCount) return { shift: await shiftWithReport(db, row), changed: false };
    if (row.status !== 'open') {
      throw invalid('state_transition_invalid', 'shift', 'is closed: cash moves only in an open shift');
    }
    await db.query(
      `INSERT INTO shift_cash_movements (merchant_id, livemode, shift_id, command_id, kind, amount, reason, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        till.merchantId,
        till.livemode,
        row.id,
        commandId,
        input.kind,
        input.amount,
        input.reason,
        new Date(input.at * 1000),
      ],
    );
    return { shift: await shiftWithReport(db, row), changed: true };
  }

  /**
   * `shift.no_sale`: the drawer opened with no sale, in an open shift, by an
   * employee of the account (and approved by a manager of it, when the till
   * asked for one). Moves no money; the Z report counts it. Idempotent by the
   * till's command id, as a cash movement is.
   */
  async recordNoSale(
    db: Queryable,
    till: TillActor,
    input: ShiftNoSale,
    commandId: string,
  ): Promise<ShiftChange> {
    const row = await lockTillShift(db, till, input.shift);
    const repeat = await db.query(`SELECT 1 FROM shift_no_sales WHERE shift_id = $1 AND command_id = $2`, [
      row.id,
      commandId,
    ]);
    if (repeat.rowCount) return { shift: await shiftWithReport(db, row), changed: false };
    if (row.status !== 'open') {
      throw invalid(
        'state_transition_invalid',
        'shift',
        'is closed: the drawer opens with no sale only in an open shift',
      );
    }
    const people = await db.query<{ id: string; role: string }>(
      `SELECT id, role FROM employees WHERE id = ANY($1::text[]) AND merchant_id = $2 AND livemode = $3`,
      [[input.cashier, input.approved_by ?? input.cashier], till.merchantId, till.livemode],
    );
    const role = (id: string) => people.rows.find((person) => person.id === id)?.role;
    if (!role(input.cashier))
      throw invalid('parameter_invalid', 'cashier', 'is not an employee of this account');
    if (input.approved_by !== undefined && role(input.approved_by) !== 'manager') {
      throw invalid('parameter_invalid', 'approved_by', 'is not a manager of this account');
    }
    await db.query(
      `INSERT INTO shift_no_sales (merchant_id, livemode, shift_id, command_id, cashier_id, approved_by, reason, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        till.merchantId,
        till.livemode,
        row.id,
        commandId,
        input.cashier,
        input.approved_by ?? null,
        input.reason,
        new Date(input.at * 1000),
      ],
    );
    return { shift: await shiftWithReport(db, row), changed: true };
  }

  /**
   * `shift.close`: the counted amounts and the Z report, computed from the
   * shift's orders and cash movements and kept with the shift. Closing a closed
   * shift again changes nothing (its report stays as it was).
   */
  async close(db: Queryable, till: TillActor, input: ShiftClose): Promise<ShiftChange> {
    const row = await lockTillShift(db, till, input.shift);
    if (row.status === 'closed') return { shift: await shiftWithReport(db, row), changed: false };
    const movements = await movementsOf(db, row.id);
    const noSales = (await noSalesOf(db, [row.id])).get(row.id) ?? [];
    const report = await computeReport(db, row, movements, noSales, input.counted);
    const cash = report.lines.find((line) => line.method === 'cash')!;
    const stored = zReportObject(report);
    const closed = await transition(db, SHIFTS, row, 'closed', {
      set: `closed_at = $1, counted = $2, expected_cash = $3, counted_cash = $4, z_report = $5, updated_at = now()`,
      params: [
        new Date(input.closed_at * 1000),
        JSON.stringify(input.counted),
        cash.expected,
        cash.counted,
        JSON.stringify(stored),
      ],
    });
    const shift = shiftObject(closed, movements, stored, noSales);
    await recordEvent(db, { ...till, type: 'shift.closed', object: shift });
    return { shift, changed: true };
  }

  async retrieve(db: Queryable, tenant: Tenant, id: string): Promise<ShiftObject> {
    const found = await db.query<ShiftRow>(
      `SELECT * FROM shifts WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [id, tenant.merchantId, tenant.livemode],
    );
    if (!found.rows[0]) throw notFound('shift', id);
    return shiftWithReport(db, found.rows[0]);
  }

  listSource(tenant: Tenant, filters: { till?: string | undefined; status?: ShiftStatus | undefined }) {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.till) where += ` AND till_id = $${params.push(filters.till)}`;
    if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
    return { table: 'shifts', where, params };
  }

  /** A page of shifts as the list shows them: movements included, the report kept at close (null while open). */
  async listObjects(db: Queryable, rows: ShiftRow[]): Promise<ShiftObject[]> {
    const movements = await db.query<MovementRow & { shift_id: string }>(
      `SELECT shift_id, kind, amount, reason, at FROM shift_cash_movements WHERE shift_id = ANY($1::text[]) ORDER BY id`,
      [rows.map((row) => row.id)],
    );
    const byShift = new Map<string, MovementRow[]>();
    for (const movement of movements.rows) {
      const list = byShift.get(movement.shift_id) ?? [];
      list.push(movement);
      byShift.set(movement.shift_id, list);
    }
    const noSales = await noSalesOf(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) =>
      shiftObject(row, byShift.get(row.id) ?? [], keptReport(row.z_report), noSales.get(row.id) ?? []),
    );
  }
}

/** A closed shift answers with the report kept at close; an open one with the running figures. */
async function shiftWithReport(db: Queryable, row: ShiftRow): Promise<ShiftObject> {
  const movements = await movementsOf(db, row.id);
  const noSales = (await noSalesOf(db, [row.id])).get(row.id) ?? [];
  const report =
    keptReport(row.z_report) ?? zReportObject(await computeReport(db, row, movements, noSales, undefined));
  return shiftObject(row, movements, report, noSales);
}
