/**
 * What happens to a sale after it was made: the list of sales with their sync
 * outcome, refunds and voids (manager PIN, queued as commands that name the
 * sale by its client order id, so they work before the sale has synced), and
 * reprinting any of them. The list is searched in memory (`sales-index.ts`):
 * only the sales it shows are read from storage.
 */
import { combineLatest, map, merge, of, switchMap } from 'rxjs';
import type { Observable } from 'rxjs';
import { planRefund, remainingRefundLines } from '@tz/core';
import type { PullDocument, ReceiptDocument, RefundableLine } from '@tz/core';
import { TillRefusal } from '../api.ts';
import type { RefundQuote, RefundRequest, Sale, SalesPage, VoidRequest } from '../api.ts';
import { requireDevice, withRefusals } from '../store/context.ts';
import type { Context } from '../store/context.ts';
import { KV } from '../store/kv.ts';
import type { ReceiptPrinting } from '../printing/printing.ts';
import { refundSlip, voidSlip, type ReturnSlip } from '../printing/printing-slips.ts';
import { saleFrom, saleOf } from '../sale/sale.ts';
import type { SalesIndex } from './sales-index.ts';
import type { SalesFilter } from './sales-search.ts';
import type { CommandDoc } from '../store/schema.ts';
import { approveByManager, requireCashier } from '../session/session.ts';
import type { OpenShift } from '../shifts/shifts.ts';
import { queueCommand, unixSeconds } from '../shifts/shifts.ts';

async function saleCommand(ctx: Context, clientOrderId: string): Promise<CommandDoc> {
  const sale = await saleOf(ctx, clientOrderId);
  if (!sale) throw new TillRefusal('not_found', 'No sale with that id on this till');
  return sale;
}

/** The refunds and voids already queued for a sale. */
async function actsOn(ctx: Context, clientOrderId: string): Promise<CommandDoc[]> {
  const docs = await ctx.db.commands
    .find({ selector: { client_order_id: clientOrderId }, sort: [{ id: 'asc' }] })
    .exec();
  return docs.map((doc) => doc.toJSON() as CommandDoc).filter((c) => c.type !== 'order.create');
}

function refundable(sale: CommandDoc, earlier: readonly CommandDoc[]): RefundableLine[] {
  const refunded = (sale.sale?.lines ?? []).map(() => 0);
  for (const command of earlier) {
    if (command.type !== 'order.refund' || command.status === 'refused') continue;
    const lines = (command.payload.lines ?? []) as Array<{ line: number; quantity_milli: number }>;
    for (const line of lines) refunded[line.line] = (refunded[line.line] ?? 0) + line.quantity_milli;
  }
  return (sale.sale?.lines ?? []).map((line, index) => ({
    unit: line.unit,
    quantityMilli: line.quantity_milli,
    total: line.total,
    tax: line.tax,
    refundedQuantityMilli: refunded[index] ?? 0,
  }));
}

const isVoided = (earlier: readonly CommandDoc[]) =>
  earlier.some((command) => command.type === 'order.void' && command.status !== 'refused');

/** What a refund or void starts from: who asks, the sale, what was already done to it, the open shift. */
async function acting(ctx: Context, clientOrderId: string) {
  const cashier = await requireCashier(ctx);
  await requireDevice(ctx);
  const sale = await saleCommand(ctx, clientOrderId);
  const earlier = await actsOn(ctx, clientOrderId);
  if (isVoided(earlier)) throw new TillRefusal('invalid', 'That sale was already voided');
  const shift = await ctx.kv.get<OpenShift>(KV.shift);
  return { cashier, sale, earlier, shift: shift?.id ?? '' };
}

const approvedReason = (reason: string | undefined, manager: { name: string }) =>
  [reason, `approved by ${manager.name}`].filter(Boolean).join(' · ');

/** Queues the refund; answers the slip to print for it. */
export async function refund(ctx: Context, request: RefundRequest): Promise<ReturnSlip | null> {
  const { cashier, sale, earlier, shift } = await acting(ctx, request.clientOrderId);
  const lines = refundable(sale, earlier);
  const wanted = request.lines ?? remainingRefundLines(lines);
  if (wanted.length === 0) throw new TillRefusal('invalid', 'Everything on that sale was already refunded');
  const plan = await withRefusals(() => planRefund(lines, wanted));
  const manager = await approveByManager(ctx, request.managerPin);
  const payload: Record<string, unknown> = {
    client_order_id: request.clientOrderId,
    lines: plan.lines.map((line) => ({ line: line.line, quantity_milli: line.quantityMilli })),
    restock: request.restock ?? true,
    reason: approvedReason(request.reason, manager),
    refunded_at: unixSeconds(ctx.now()),
  };
  await queueCommand(ctx, 'order.refund', payload, {
    client_order_id: request.clientOrderId,
    shift,
    cashier: cashier.id,
    refund_amount: plan.amount,
  });
  const before = earlier
    .filter((c) => c.type === 'order.refund' && c.status !== 'refused')
    .reduce((sum, c) => sum + (c.refund_amount ?? 0), 0);
  return refundSlip({ sale, cashier: cashier.name, manager: manager.name, at: ctx.now() }, plan, before);
}

export async function refundQuote(
  ctx: Context,
  clientOrderId: string,
  wanted?: RefundRequest['lines'],
): Promise<RefundQuote> {
  const lines = refundable(await saleCommand(ctx, clientOrderId), await actsOn(ctx, clientOrderId));
  const left = lines.map((line) => line.quantityMilli - line.refundedQuantityMilli);
  const request = wanted ?? remainingRefundLines(lines);
  try {
    return { amount: planRefund(lines, request).amount, left };
  } catch {
    // Nothing picked, or more than is left: the form says so; the refund itself names the field.
    return { amount: null, left };
  }
}

/** Queues the void; answers the slip to print for it. */
export async function voidSale(ctx: Context, request: VoidRequest): Promise<ReturnSlip | null> {
  const { cashier, sale, earlier, shift } = await acting(ctx, request.clientOrderId);
  if (earlier.some((c) => c.type === 'order.refund' && c.status !== 'refused')) {
    throw new TillRefusal('invalid', 'A sale with refunds cannot be voided');
  }
  const manager = await approveByManager(ctx, request.managerPin);
  await queueCommand(
    ctx,
    'order.void',
    {
      client_order_id: request.clientOrderId,
      reason: approvedReason(request.reason, manager),
      voided_at: unixSeconds(ctx.now()),
    },
    {
      client_order_id: request.clientOrderId,
      shift,
      cashier: cashier.id,
      refund_amount: sale.sale?.total ?? 0,
    },
  );
  return voidSlip({ sale, cashier: cashier.name, manager: manager.name, at: ctx.now() });
}

/** How many sales the Sales list shows at once: searching or picking a day finds the others. */
export const SALES_SHOWN = 50;

/** The sales that answer a search (receipt number, amount, day), kept up to date as sales come and change. */
export function searchSales(ctx: Context, index: SalesIndex, filter: SalesFilter): Observable<SalesPage> {
  return merge(of(undefined), index.changed$).pipe(
    switchMap(() => index.find(filter, SALES_SHOWN, ctx.now())),
    switchMap((found) => watchSales(ctx, found.ids).pipe(map((sales) => ({ sales, count: found.count })))),
  );
}

/** These sales (by command id, in this order) with what the server made of them. */
export function watchSales(ctx: Context, commandIds: readonly string[]): Observable<Sale[]> {
  if (commandIds.length === 0) return of([]);
  return ctx.db.commands.findByIds([...commandIds]).$.pipe(
    switchMap((found) => {
      const sales = commandIds.flatMap((id) => {
        const doc = found.get(id);
        return doc ? [doc.toJSON() as CommandDoc] : [];
      });
      const ids = sales.map((sale) => sale.client_order_id);
      if (ids.length === 0) return of([]);
      const acts$ = ctx.db.commands.find({
        selector: { client_order_id: { $in: ids }, type: { $in: ['order.refund', 'order.void'] } },
      }).$;
      const orders$ = ctx.db.orders.find({ selector: { client_order_id: { $in: ids } } }).$;
      return combineLatest([acts$, orders$]).pipe(
        map(([acts, orders]) => {
          const byClientId = new Map(
            orders.map((doc) => {
              const order = doc.toJSON() as unknown as PullDocument<'orders'>;
              return [order.client_order_id, order] as const;
            }),
          );
          return sales.map((command) => {
            const sale = saleFrom(command);
            const order = byClientId.get(command.client_order_id);
            const mine = acts
              .map((doc) => doc.toJSON() as CommandDoc)
              .filter((c) => c.client_order_id === sale.clientOrderId);
            sale.voided = order?.status === 'voided' || isVoided(mine);
            sale.refundedAmount = order
              ? order.refunded_amount
              : mine
                  .filter((c) => c.type === 'order.refund' && c.status !== 'refused')
                  .reduce((s, c) => s + (c.refund_amount ?? 0), 0);
            if (order) {
              sale.order = order.id;
              sale.flags = order.flags;
            }
            return sale;
          });
        }),
      );
    }),
  );
}

/** Prints a sale's receipt again, marked as a copy, the drawer shut: the one path every reprint takes. */
function reprint(printing: ReceiptPrinting, sale: CommandDoc | null) {
  if (!sale?.receipt) throw new TillRefusal('nothing_to_reprint', 'No sale to reprint yet');
  return printing.reprint(sale.receipt as unknown as ReceiptDocument);
}

/** Reprints any sale on this till, named by its client order id (works before it synced). */
export async function reprintSale(ctx: Context, printing: ReceiptPrinting, clientOrderId: string) {
  return reprint(printing, await saleOf(ctx, clientOrderId));
}

/** Alt+R: reprints the sale made last on this till. */
export async function reprintLast(ctx: Context, printing: ReceiptPrinting) {
  const id = await ctx.kv.get<string>(KV.lastSale);
  const doc = id ? await ctx.db.commands.findOne(id).exec() : null;
  return reprint(printing, doc ? (doc.toJSON() as CommandDoc) : null);
}
