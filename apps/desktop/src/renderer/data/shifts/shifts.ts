/**
 * The cashier's shift: opened with a float, cash paid in and out, closed with
 * the cash counted. Each step is a command; the open shift itself lives in
 * `kv` so the Z report can be made offline from the commands of the shift.
 */
import { distinctUntilChanged, map, of, switchMap } from 'rxjs';
import type { Observable } from 'rxjs';
import type { Shift, ZReport } from '../api.ts';
import { TillRefusal } from '../api.ts';
import { requireDevice } from '../store/context.ts';
import type { Context } from '../store/context.ts';
import { KV } from '../store/kv.ts';
import type { CommandDoc } from '../store/schema.ts';
import { requireCashier } from '../session/session.ts';
import type { CommandType } from '@tz/core';
import {
  commandPayloads,
  zReport,
  type TenderMethod,
  type ZReport as CoreZReport,
  type ZReportOrder,
} from '@tz/core';

export interface OpenShift {
  id: string;
  cashier: string;
  cashierName: string;
  openingFloat: number;
  openedAt: number;
}

/** Commands carry times in unix seconds; the till's clock is in milliseconds. */
export const unixSeconds = (ms: number) => Math.floor(ms / 1000);

/** Queues a command that is not a sale (shift steps, refunds, voids, print results). */
export async function queueCommand(
  ctx: Context,
  type: CommandType,
  payload: Record<string, unknown>,
  extra: Partial<Pick<CommandDoc, 'id' | 'client_order_id' | 'shift' | 'cashier' | 'refund_amount'>> = {},
): Promise<CommandDoc> {
  const checked = commandPayloads[type].safeParse(payload);
  if (!checked.success) throw new TillRefusal('invalid', checked.error.issues[0]?.message ?? 'invalid');
  const command: CommandDoc = {
    id: extra.id ?? ctx.ids.command(),
    type,
    created_at: ctx.now(),
    payload,
    status: 'pending',
    client_order_id: extra.client_order_id ?? '',
    shift: extra.shift ?? '',
    cashier: extra.cashier ?? '',
    receipt_number: null,
    receipt: null,
    sale: null,
    refund_amount: extra.refund_amount ?? null,
    result: null,
    error: null,
    synced_at: null,
  };
  await ctx.db.commands.insert(command);
  return command;
}

/** The shift open on this till, if any: the drawer cash taken now goes into. */
export async function openShiftId(ctx: Context): Promise<string | null> {
  return (await ctx.kv.get<OpenShift>(KV.shift))?.id ?? null;
}

export async function requireShift(ctx: Context): Promise<OpenShift> {
  const shift = await ctx.kv.get<OpenShift>(KV.shift);
  if (!shift) throw new TillRefusal('shift_not_open', 'No shift is open on this till');
  return shift;
}

export async function openShift(ctx: Context, openingFloat: number): Promise<Shift> {
  const cashier = await requireCashier(ctx);
  await requireDevice(ctx);
  if (await ctx.kv.get<OpenShift>(KV.shift))
    throw new TillRefusal('shift_already_open', 'A shift is already open');
  const shift: OpenShift = {
    id: ctx.ids.shift(),
    cashier: cashier.id,
    cashierName: cashier.name,
    openingFloat,
    openedAt: ctx.now(),
  };
  await queueCommand(
    ctx,
    'shift.open',
    {
      shift: shift.id,
      cashier: cashier.id,
      opening_float: openingFloat,
      opened_at: unixSeconds(shift.openedAt),
    },
    { shift: shift.id, cashier: cashier.id },
  );
  // Claimed after the command: two tabs opening at once leave one shift, and the other tab's command is refused by the server.
  if (!(await ctx.kv.claim(KV.shift, shift)))
    throw new TillRefusal('shift_already_open', 'A shift is already open');
  return summarise(shift, await shiftCommands(ctx, shift.id));
}

export async function cashMovement(
  ctx: Context,
  kind: 'pay_in' | 'pay_out',
  amount: number,
  reason: string,
): Promise<void> {
  const cashier = await requireCashier(ctx);
  const shift = await requireShift(ctx);
  await queueCommand(
    ctx,
    'shift.cash_movement',
    { shift: shift.id, kind, amount, reason, at: unixSeconds(ctx.now()) },
    { shift: shift.id, cashier: cashier.id },
  );
}

export async function shiftCommands(ctx: Context, shift: string): Promise<CommandDoc[]> {
  const docs = await ctx.db.commands.find({ selector: { shift }, sort: [{ id: 'asc' }] }).exec();
  return docs.map((doc) => doc.toJSON() as CommandDoc);
}

/**
 * The shift's Z report from its commands, by core's `zReport` (the server
 * computes its copy with the same function from the orders it recorded):
 * each sale with what its tenders took and the change given, voided when a
 * void of it was queued, less what was refunded of it.
 */
function shiftReport(shift: OpenShift, commands: readonly CommandDoc[], countedCash?: number): CoreZReport {
  const refunded = new Map<string, number>();
  const voided = new Set<string>();
  const cashMovements: Array<{ kind: 'pay_in' | 'pay_out'; amount: number }> = [];
  const noSales: Array<{ cashier: string | null }> = [];
  const deskCash: Array<{ amount: number; cashier: string | null }> = [];
  for (const command of commands) {
    if (command.type === 'order.refund')
      refunded.set(
        command.client_order_id,
        (refunded.get(command.client_order_id) ?? 0) + (command.refund_amount ?? 0),
      );
    else if (command.type === 'order.void') voided.add(command.client_order_id);
    else if (command.type === 'shift.cash_movement') {
      const { kind, amount } = command.payload as { kind: 'pay_in' | 'pay_out'; amount: number };
      cashMovements.push({ kind, amount });
    } else if (command.type === 'shift.no_sale') noSales.push({ cashier: command.cashier || null });
    else if (command.type === 'folio.payment') {
      // Shillings into the drawer; foreign cash is counted apart.
      const { amount, foreign } = command.payload as { amount?: number; foreign?: unknown };
      if (amount !== undefined && foreign === undefined)
        deskCash.push({ amount, cashier: command.cashier || null });
    }
  }
  const orders = commands
    // A box office's sale of tickets takes money into the drawer like the shop's.
    .filter(
      (command) => (command.type === 'order.create' || command.type === 'event_order.sell') && command.sale,
    )
    .map((command): ZReportOrder => {
      const tenders = (command.payload.tenders as Array<{ method: TenderMethod; amount: number }>).map(
        ({ method, amount }) => ({ method, amount }),
      );
      const cashHanded = tenders.filter((t) => t.method === 'cash').reduce((sum, t) => sum + t.amount, 0);
      const refundedAmount = refunded.get(command.client_order_id) ?? 0;
      return {
        status: voided.has(command.client_order_id)
          ? 'voided'
          : refundedAmount > 0
            ? 'partially_refunded'
            : 'paid',
        tenders,
        changeDue: cashHanded - command.sale!.cash,
        refundedAmount,
        cashier: command.cashier || null,
      };
    });
  return zReport({
    openingFloat: shift.openingFloat,
    orders,
    cashMovements,
    noSales,
    deskCash,
    ...(countedCash !== undefined ? { counted: [{ method: 'cash' as const, amount: countedCash }] } : {}),
  });
}

const cashLine = (report: CoreZReport) => report.lines.find((line) => line.method === 'cash')!;
const currencyOf = (commands: readonly CommandDoc[]) =>
  commands.find((command) => command.sale)?.sale?.currency ?? 'TZS';

function summarise(shift: OpenShift, commands: readonly CommandDoc[]): Shift {
  const report = shiftReport(shift, commands);
  const cash = cashLine(report);
  return {
    id: shift.id,
    cashier: shift.cashierName,
    openingFloat: shift.openingFloat,
    openedAt: shift.openedAt,
    payIns: cash.payIns,
    payOuts: cash.payOuts,
    deskCash: cash.desk,
    expectedCash: cash.expected,
    noSales: report.noSaleCount,
  };
}

export async function currentShift(ctx: Context): Promise<Shift | null> {
  const shift = await ctx.kv.get<OpenShift>(KV.shift);
  return shift ? summarise(shift, await shiftCommands(ctx, shift.id)) : null;
}

export function watchShiftOpen(ctx: Context): Observable<boolean> {
  return ctx.kv.watch<OpenShift>(KV.shift).pipe(
    map((shift) => Boolean(shift)),
    distinctUntilChanged(),
  );
}

export function watchShift(ctx: Context): Observable<Shift | null> {
  return ctx.kv.watch<OpenShift>(KV.shift).pipe(
    switchMap((shift) =>
      shift
        ? ctx.db.commands
            .find({ selector: { shift: shift.id }, sort: [{ shift: 'asc' }, { id: 'asc' }] })
            .$.pipe(
              map((docs) =>
                summarise(
                  shift,
                  docs.map((doc) => doc.toJSON() as CommandDoc),
                ),
              ),
            )
        : of(null),
    ),
  );
}

export async function closeShift(ctx: Context, countedCash: number): Promise<ZReport> {
  await requireCashier(ctx);
  const shift = await requireShift(ctx);
  const commands = await shiftCommands(ctx, shift.id);
  const report = shiftReport(shift, commands, countedCash);
  const cash = cashLine(report);
  const closedAt = ctx.now();
  await queueCommand(
    ctx,
    'shift.close',
    { shift: shift.id, counted: [{ method: 'cash', amount: countedCash }], closed_at: unixSeconds(closedAt) },
    { shift: shift.id, cashier: shift.cashier },
  );
  await ctx.kv.remove(KV.shift);
  const byMethod = { cash: 0, mobile_money: 0, card: 0 };
  for (const line of report.lines) byMethod[line.method] = line.sales;
  const names = await cashierNames(ctx, commands);
  return {
    shift: shift.id,
    cashier: shift.cashierName,
    openedAt: shift.openedAt,
    closedAt,
    currency: currencyOf(commands),
    sales: { count: report.orderCount, total: report.salesTotal },
    byMethod,
    refunds: {
      count: commands.filter((command) => command.type === 'order.refund').length,
      total: report.refundsTotal,
    },
    voids: report.voidedCount,
    openingFloat: shift.openingFloat,
    payIns: cash.payIns,
    payOuts: cash.payOuts,
    deskCash: cash.desk,
    expectedCash: cash.expected,
    countedCash,
    difference: cash.difference ?? countedCash - cash.expected,
    noSales: report.noSaleCount,
    cashiers: report.cashiers.map((part) => ({
      name: (part.cashier && names.get(part.cashier)) ?? part.cashier ?? '',
      count: part.orderCount,
      sales: part.sales,
      refunds: part.refunds,
      noSales: part.noSales,
    })),
  };
}

/**
 * Each cashier's name as their sales' receipts printed it (so a cashier
 * deactivated since still has one), else as the till knows the employee.
 */
async function cashierNames(ctx: Context, commands: readonly CommandDoc[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const command of commands) {
    const printed = command.receipt?.cashier;
    if (command.cashier && typeof printed === 'string' && printed) names.set(command.cashier, printed);
  }
  const missing = [...new Set(commands.map((command) => command.cashier))].filter(
    (id) => id && !names.has(id),
  );
  if (missing.length > 0) {
    const employees = await ctx.db.employees.findByIds(missing).exec();
    for (const [id, doc] of employees) names.set(id, doc.toJSON().name as string);
  }
  return names;
}
