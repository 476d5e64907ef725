/**
 * The cashier's shift: opened with a float, cash paid in and out, closed with
 * the cash counted. Each step is a command; the open shift itself lives in
 * `kv` so the Z report can be made offline from the commands of the shift.
 */
import { map, of, switchMap } from 'rxjs';
import type { Observable } from 'rxjs';
import type { Shift, ZReport } from './api.ts';
import { TillRefusal } from './api.ts';
import { requireDevice } from './context.ts';
import type { Context } from './context.ts';
import { KV } from './kv.ts';
import type { CommandDoc } from './schema.ts';
import { requireCashier } from './session.ts';
import type { CommandType } from '@tz/core';
import { commandPayloads } from '@tz/core';

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
  extra: Partial<Pick<CommandDoc, 'client_order_id' | 'shift' | 'cashier' | 'refund_amount'>> = {},
): Promise<CommandDoc> {
  const checked = commandPayloads[type].safeParse(payload);
  if (!checked.success) throw new TillRefusal('invalid', checked.error.issues[0]?.message ?? 'invalid');
  const command: CommandDoc = {
    id: ctx.ids.command(),
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

async function requireShift(ctx: Context): Promise<OpenShift> {
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

interface Totals {
  sales: { count: number; total: number };
  byMethod: ZReport['byMethod'];
  refunds: { count: number; total: number };
  voids: number;
  payIns: number;
  payOuts: number;
  currency: string;
}

/** What the shift's commands add up to. Voided sales count as refunded in full; refunds and voids are paid in cash. */
function totals(commands: readonly CommandDoc[]): Totals {
  const out: Totals = {
    sales: { count: 0, total: 0 },
    byMethod: { cash: 0, mobile_money: 0, card: 0 },
    refunds: { count: 0, total: 0 },
    voids: 0,
    payIns: 0,
    payOuts: 0,
    currency: 'TZS',
  };
  for (const command of commands) {
    if (command.type === 'order.create' && command.sale) {
      out.sales.count += 1;
      out.sales.total += command.sale.total;
      out.byMethod.cash += command.sale.cash;
      out.byMethod.mobile_money += command.sale.mobile_money;
      out.byMethod.card += command.sale.card;
      out.currency = command.sale.currency;
    } else if (command.type === 'order.refund' || command.type === 'order.void') {
      if (command.type === 'order.void') out.voids += 1;
      out.refunds.count += 1;
      out.refunds.total += command.refund_amount ?? 0;
    } else if (command.type === 'shift.cash_movement') {
      const { kind, amount } = command.payload as { kind: string; amount: number };
      if (kind === 'pay_in') out.payIns += amount;
      else out.payOuts += amount;
    }
  }
  return out;
}

function summarise(shift: OpenShift, commands: readonly CommandDoc[]): Shift {
  const sum = totals(commands);
  return {
    id: shift.id,
    cashier: shift.cashierName,
    openingFloat: shift.openingFloat,
    openedAt: shift.openedAt,
    payIns: sum.payIns,
    payOuts: sum.payOuts,
    expectedCash: shift.openingFloat + sum.byMethod.cash - sum.refunds.total + sum.payIns - sum.payOuts,
  };
}

export async function currentShift(ctx: Context): Promise<Shift | null> {
  const shift = await ctx.kv.get<OpenShift>(KV.shift);
  return shift ? summarise(shift, await shiftCommands(ctx, shift.id)) : null;
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
  const summary = summarise(shift, commands);
  const sum = totals(commands);
  const closedAt = ctx.now();
  await queueCommand(
    ctx,
    'shift.close',
    { shift: shift.id, counted: [{ method: 'cash', amount: countedCash }], closed_at: unixSeconds(closedAt) },
    { shift: shift.id, cashier: shift.cashier },
  );
  await ctx.kv.remove(KV.shift);
  return {
    shift: shift.id,
    cashier: shift.cashierName,
    openedAt: shift.openedAt,
    closedAt,
    currency: sum.currency,
    sales: sum.sales,
    byMethod: sum.byMethod,
    refunds: sum.refunds,
    voids: sum.voids,
    openingFloat: shift.openingFloat,
    payIns: sum.payIns,
    payOuts: sum.payOuts,
    expectedCash: summary.expectedCash,
    countedCash,
    difference: countedCash - summary.expectedCash,
  };
}

/** The Z report as plain text for the receipt printer. */
export function zReportText(report: ZReport): string {
  const row = (label: string, value: number | string) => `${label.padEnd(20)}${String(value).padStart(12)}`;
  const time = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
  return [
    'Z REPORT',
    row('Shift', report.shift.slice(-8)),
    row('Cashier', report.cashier),
    row('Opened (UTC)', time(report.openedAt)),
    row('Closed (UTC)', time(report.closedAt)),
    '',
    row(`Sales (${report.sales.count})`, report.sales.total),
    row('  Cash', report.byMethod.cash),
    row('  Mobile money', report.byMethod.mobile_money),
    row('  Card', report.byMethod.card),
    row(`Refunds (${report.refunds.count})`, report.refunds.total),
    row('Voids', report.voids),
    '',
    row('Opening float', report.openingFloat),
    row('Pay-ins', report.payIns),
    row('Pay-outs', report.payOuts),
    row('Expected cash', report.expectedCash),
    row('Counted cash', report.countedCash),
    row('Difference', report.difference),
    `${report.currency}`,
    '',
  ].join('\n');
}
