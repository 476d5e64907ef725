/**
 * Receipts to paper. A sale never waits for the printer and never fails
 * because of it: the outcome is shown (`lastPrint$`) and a reprint offered.
 * A reprint is marked as a copy; refunds and voids print their slips, and a
 * closed shift its Z report, on the same printer.
 */
import { BehaviorSubject } from 'rxjs';
import { receiptCopy } from '@tz/core';
import type { PullDocument, ReceiptDocument, RowsDocument } from '@tz/core';
import type { PrintOutcome, PrinterTarget } from '../../../shared/bridge.ts';
import type { PrintState, ZReport } from '../api.ts';
import { settings } from '../cart/cart.ts';
import { device } from '../store/context.ts';
import type { Context } from '../store/context.ts';
import { printerTarget, safePrint } from '../store/hardware.ts';
import { zReportDocument } from './printing-slips.ts';

/** This till's printers, as the server configured them. */
export async function tillPrinters(ctx: Context): Promise<Array<PullDocument<'printers'>>> {
  const till = (await device(ctx))?.till;
  if (!till) return [];
  const docs = await ctx.db.printers.find().exec();
  return docs
    .map((doc) => doc.toJSON() as unknown as PullDocument<'printers'>)
    .filter((printer) => printer.till === till.id)
    .sort((a, b) => a.id.localeCompare(b.id));
}

export async function receiptPrinter(ctx: Context): Promise<PrinterTarget | null> {
  const printers = await tillPrinters(ctx);
  const chosen = (await settings(ctx)).receiptPrinter;
  const printer = printers.find((candidate) => candidate.id === chosen) ?? printers[0];
  return printer ? printerTarget(printer) : null;
}

export class ReceiptPrinting {
  readonly state$ = new BehaviorSubject<PrintState>({ status: 'idle' });

  constructor(private readonly ctx: Context) {}

  /** A bridge missed so far is looked for once more before a receipt is given up as unprintable. */
  private async bridge() {
    return this.ctx.bridge() ?? (await this.ctx.recheckBridge?.().catch(() => null)) ?? null;
  }

  /** Prints, and opens the drawer when asked; resolves with the outcome, never rejects. */
  async print(receipt: ReceiptDocument, openDrawer: boolean): Promise<PrintOutcome | null> {
    const receiptNumber = receipt.receiptNumber;
    const bridge = await this.bridge();
    const target = await receiptPrinter(this.ctx).catch(() => null);
    if (!bridge || !target) {
      this.state$.next({ status: 'no_printer', receiptNumber });
      return null;
    }
    this.state$.next({ status: 'printing', receiptNumber });
    const outcome = await safePrint(() => bridge.printReceipt(target, receipt, { openDrawer }));
    this.state$.next(
      outcome.ok
        ? { status: 'printed', receiptNumber, paperNearEnd: outcome.paperNearEnd }
        : { status: 'failed', receiptNumber, outcome },
    );
    return outcome;
  }

  /** A receipt printed again, marked as a copy (NAKALA / COPY) in its own language. */
  reprint(receipt: ReceiptDocument): Promise<PrintOutcome | null> {
    return this.print(receiptCopy(receipt), false);
  }

  /** The closed shift's Z report; it is shown on screen too, so no printer is no loss. */
  async printZReport(report: ZReport): Promise<PrintOutcome | null> {
    return this.printRows(await zReportDocument(this.ctx, report));
  }

  /** A document by rows (the Z report, a registration card, a folio slip); null when there is no printer. */
  async printRows(document: RowsDocument): Promise<PrintOutcome | null> {
    const bridge = await this.bridge();
    const target = await receiptPrinter(this.ctx).catch(() => null);
    if (!bridge || !target) return null;
    return safePrint(() => bridge.printReceipt(target, document));
  }

  /** Kicks the cash drawer through the receipt printer, printing nothing; null when there is no printer. */
  async openDrawer(): Promise<PrintOutcome | null> {
    const bridge = await this.bridge();
    const target = await receiptPrinter(this.ctx).catch(() => null);
    if (!bridge || !target) return null;
    return safePrint(() => bridge.openDrawer(target));
  }
}
