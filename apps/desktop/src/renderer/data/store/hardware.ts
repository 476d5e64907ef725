/**
 * The one place the data layer reaches for hardware. Inside the desktop app the
 * preload sets `window.till`; in a plain browser there is none until the local
 * bridge is detected, and the till sells without printing.
 */
import type { PullDocument } from '@tz/core';
import type { PrintOutcome, PrinterTarget, TillBridge } from '../../../shared/bridge.ts';

export function currentBridge(): TillBridge | null {
  return typeof window !== 'undefined' && window.till ? window.till : null;
}

/** How a server printer record is reached from this till. */
export function printerTarget(printer: PullDocument<'printers'>): PrinterTarget {
  const target: PrinterTarget = {
    connection: printer.connection,
    paperWidth: printer.paper_width,
    commandSet: printer.command_set,
  };
  if (printer.code_page !== null) target.codePage = printer.code_page;
  return target;
}

/** A bridge call that threw (IPC gone, bridge process down) reads as an offline printer. */
export async function safePrint(job: () => Promise<PrintOutcome>): Promise<PrintOutcome> {
  try {
    return await job();
  } catch (error) {
    return {
      ok: false,
      reason: 'offline',
      message: error instanceof Error ? error.message : 'The printer bridge did not answer',
      mayHaveReachedPrinter: false,
    };
  }
}
