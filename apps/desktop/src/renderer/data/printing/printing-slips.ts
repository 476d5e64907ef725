/**
 * The papers a till prints besides a sale's receipt, made by core's builders
 * from what the till holds: a refund's and a void's slip (from the sale's
 * command and receipt) and the shift's Z report, in the store's receipt
 * language.
 */
import { buildRefundSlip, buildVoidSlip, buildZReportDocument, refundsByMethod } from '@tz/core';
import type { ReceiptDocument, RefundPlan, ZReportDocument } from '@tz/core';
import type { ZReport } from '../api.ts';
import { currentStore, device } from '../store/context.ts';
import type { Context } from '../store/context.ts';
import type { CommandDoc } from '../store/schema.ts';

/** A slip to print, and whether cash leaves the drawer for it. */
export interface ReturnSlip {
  receipt: ReceiptDocument;
  openDrawer: boolean;
}

interface Acting {
  sale: CommandDoc;
  cashier: string;
  manager: string;
  at: number;
}

const paidBy = (sale: CommandDoc) => ({
  cash: sale.sale?.cash ?? 0,
  mobile_money: sale.sale?.mobile_money ?? 0,
  card: sale.sale?.card ?? 0,
});

/** A refund's slip; null for a sale with no receipt kept (none is made without one). */
export function refundSlip(acting: Acting, plan: RefundPlan, refundedBefore: number): ReturnSlip | null {
  const sale = acting.sale.receipt as unknown as ReceiptDocument | null;
  if (!sale) return null;
  const units = acting.sale.sale?.lines ?? [];
  const paid = paidBy(acting.sale);
  const receipt = buildRefundSlip({
    sale,
    paid,
    lines: plan.lines.map((line) => ({ ...line, unit: units[line.line]?.unit ?? 'piece' })),
    refundedBefore,
    issuedAt: new Date(acting.at),
    cashier: acting.cashier,
    approvedBy: acting.manager,
  });
  // Cash goes back first (`refundsByMethod`): the drawer opens when this refund reaches into it.
  const cash =
    refundsByMethod(refundedBefore + plan.amount, paid).cash - refundsByMethod(refundedBefore, paid).cash;
  return { receipt, openDrawer: cash > 0 };
}

export function voidSlip(acting: Acting): ReturnSlip | null {
  const sale = acting.sale.receipt as unknown as ReceiptDocument | null;
  if (!sale) return null;
  const paid = paidBy(acting.sale);
  const receipt = buildVoidSlip({
    sale,
    paid,
    issuedAt: new Date(acting.at),
    cashier: acting.cashier,
    approvedBy: acting.manager,
  });
  return { receipt, openDrawer: paid.cash > 0 };
}

/** The closed shift's Z report as the receipt printer prints it. */
export async function zReportDocument(ctx: Context, report: ZReport): Promise<ZReportDocument> {
  const [store, current] = await Promise.all([currentStore(ctx), device(ctx)]);
  return buildZReportDocument({
    report,
    language: store.receipt_language,
    store: { name: store.name, addressLines: store.address_lines },
    till: current?.till.name,
  });
}
