/**
 * What a till asks of its printer, answered the same way whichever door the
 * request came through: the desktop app's IPC handlers and the local HTTP
 * bridge both call these. Each job opens the printer's transport, prints with
 * acknowledgement and closes it; a printer failure comes back as a
 * `PrintOutcome` with the reason a print job ends `failed` with.
 */
import { parsePortRanges, type PrinterAllowance } from '@tz/core';
import type { PrintDocument } from '@tz/core/receipt';
import { z } from 'zod';
import { parseCodePage } from './code-pages.ts';
import type { CommandSet, PaperWidth } from './config.ts';
import { PrinterError, jobFailureReason, type JobFailureReason } from './errors.ts';
import { getStatus, openTransport, type OpenOptions } from './open.ts';
import { printJob } from './print.ts';
import { renderDrawerKick, renderPrintDocument, renderText, type RenderOptions } from './render.ts';
import type { TransportTimeouts } from './transport.ts';
import { listUsbPrinters, type UsbPrinterInfo } from './usb-transport.ts';

/** How the till reaches a printer, as configured on the server (`/v1/printers`). */
export interface PrinterTarget {
  /** `tcp://host:port`, `usb://VID:PID` or `usb` (the first USB printer found). */
  connection: string;
  paperWidth: PaperWidth;
  commandSet: CommandSet;
  /** A code page name known to `@tz/printers` (`CODE_PAGES`); its default when absent. */
  codePage?: string;
}

/** Why a job did not print; the same reasons a print job ends `failed` with on the server. */
export type PrintFailureReason = JobFailureReason;

export type PrintOutcome =
  | { ok: true; paperNearEnd: boolean }
  | {
      ok: false;
      reason: PrintFailureReason;
      /** One sentence for people. */
      message: string;
      /** Some bytes may have reached the printer: ask before reprinting. */
      mayHaveReachedPrinter: boolean;
    };

export interface PrinterState {
  online: boolean;
  coverOpen: boolean;
  paperOut: boolean;
  paperNearEnd: boolean;
  detail: string;
}

export interface UsbPrinter {
  connection: string;
  name: string;
}

export const printerTargetSchema = z.object({
  connection: z.string().min(1).max(200),
  paperWidth: z.union([z.literal(58), z.literal(80)]),
  commandSet: z.enum(['epson', 'star']),
  codePage: z.string().min(1).max(20).exactOptional(),
}) satisfies z.ZodType<PrinterTarget>;

export const printOptionsSchema = z.object({ openDrawer: z.boolean().exactOptional() });

/** A text job from a till; a day's report fits many times over. */
export const printTextSchema = z.string().min(1).max(20_000);

/**
 * How this till prints: where its operator lets it print besides printer ports
 * on the shop's network, and (for tests) shorter timeouts than real printers need.
 */
export interface JobTuning {
  /**
   * The till operator's allowance (`PRINTER_ALLOWED_PORTS`, `PRINTER_ALLOW_LOOPBACK`):
   * none by default, so a printer the server lists is reached only on the shop's
   * network, on a printer port.
   */
  allowance?: PrinterAllowance;
  /** Opening the link (TCP connect, USB claim). */
  connectMs?: number;
  /** The status check before a job, and a status request. */
  statusMs?: number;
  /** Writing a job and its acknowledgement. */
  writeMs?: number;
}

/**
 * The till operator's allowance from its settings (the bridge's flags, or the
 * environment of the bridge or the desktop app): `PRINTER_ALLOWED_PORTS`, ports
 * and ranges such as `9200,9300-9310`, and `PRINTER_ALLOW_LOOPBACK=true` for a
 * printer on this machine (a developer's or a test's virtual printer).
 */
export function printerAllowanceFrom(settings: {
  ports?: string | undefined;
  loopback?: string | boolean | undefined;
}): PrinterAllowance {
  const ports = settings.ports === undefined ? [] : parsePortRanges(settings.ports);
  if (!ports) {
    throw new PrinterError(
      'invalid_config',
      `Allowed printer ports "${settings.ports}" are not ports or ranges such as 9200,9300-9310.`,
    );
  }
  const loopback = settings.loopback === true || settings.loopback === 'true' || settings.loopback === '1';
  return { ports, loopback };
}

function transportOptions(tuning: JobTuning): OpenOptions {
  const timeouts: Partial<TransportTimeouts> = {
    ...(tuning.connectMs === undefined ? {} : { connectMs: tuning.connectMs }),
    ...(tuning.writeMs === undefined ? {} : { writeMs: tuning.writeMs }),
  };
  // Connections come from the server's printer list: always judged, strictly unless the operator allows more.
  return { timeouts, allowance: tuning.allowance ?? {} };
}

/** A printer failure as the outcome a till shows; anything else is a fault and is thrown on. */
export function failedOutcome(error: unknown): PrintOutcome & { ok: false } {
  if (!(error instanceof PrinterError)) throw error;
  return {
    ok: false,
    reason: jobFailureReason(error.reason),
    message: error.message,
    mayHaveReachedPrinter: error.mayHaveReachedPrinter,
  };
}

function renderOptions(target: PrinterTarget): RenderOptions {
  return {
    commandSet: target.commandSet,
    paperWidth: target.paperWidth,
    ...(target.codePage === undefined ? {} : { codePage: parseCodePage(target.codePage) }),
  };
}

const busy = new Map<string, Promise<unknown>>();

/**
 * One request at a time per printer: a USB printer cannot be opened twice, and
 * a receipt and a drawer kick should not interleave on a network printer.
 */
function oneAtATime<T>(connection: string, work: () => Promise<T>): Promise<T> {
  const next = (busy.get(connection) ?? Promise.resolve()).then(work, work);
  const settled = next.catch(() => undefined);
  busy.set(connection, settled);
  void settled.then(() => {
    if (busy.get(connection) === settled) busy.delete(connection);
  });
  return next;
}

/** Renders and prints one job, waiting for the printer's acknowledgement. */
function runJob(target: PrinterTarget, render: () => Buffer, tuning: JobTuning): Promise<PrintOutcome> {
  return oneAtATime(target.connection, () => printOnce(target, render, tuning));
}

async function printOnce(
  target: PrinterTarget,
  render: () => Buffer,
  tuning: JobTuning,
): Promise<PrintOutcome> {
  let transport: ReturnType<typeof openTransport> | undefined;
  try {
    const bytes = render();
    transport = openTransport(target.connection, transportOptions(tuning));
    const result = await printJob(transport, bytes, {
      commandSet: target.commandSet,
      ...(tuning.statusMs === undefined ? {} : { statusTimeoutMs: tuning.statusMs }),
      ...(tuning.writeMs === undefined ? {} : { writeTimeoutMs: tuning.writeMs }),
    });
    return { ok: true, paperNearEnd: result.paperNearEnd };
  } catch (error) {
    return failedOutcome(error);
  } finally {
    await transport?.close();
  }
}

/**
 * Prints a receipt (a sale's, or a refund's or void's slip) or a Z report;
 * `openDrawer` kicks the cash drawer after the cut (cash in or out).
 */
export function printReceiptOn(
  target: PrinterTarget,
  receipt: PrintDocument,
  options: { openDrawer?: boolean } = {},
  tuning: JobTuning = {},
): Promise<PrintOutcome> {
  return runJob(
    target,
    () =>
      renderPrintDocument(receipt, { ...renderOptions(target), openCashDrawer: options.openDrawer ?? false }),
    tuning,
  );
}

export function printTextOn(
  target: PrinterTarget,
  text: string,
  tuning: JobTuning = {},
): Promise<PrintOutcome> {
  return runJob(target, () => renderText(text, renderOptions(target)), tuning);
}

/** Opens the cash drawer without printing. A printer out of paper or open refuses it like any job. */
export function openDrawerOn(target: PrinterTarget, tuning: JobTuning = {}): Promise<PrintOutcome> {
  return runJob(target, () => renderDrawerKick({ commandSet: target.commandSet }), tuning);
}

export async function printerStateOf(target: PrinterTarget, tuning: JobTuning = {}): Promise<PrinterState> {
  try {
    const status = await oneAtATime(target.connection, () =>
      getStatus(target.connection, {
        ...transportOptions(tuning),
        ...(tuning.statusMs === undefined ? {} : { timeoutMs: tuning.statusMs }),
      }),
    );
    const { online, coverOpen, paperOut, paperNearEnd, detail } = status;
    return { online, coverOpen, paperOut, paperNearEnd, detail };
  } catch (error) {
    const { message } = failedOutcome(error);
    return { online: false, coverOpen: false, paperOut: false, paperNearEnd: false, detail: message };
  }
}

/** A USB printer's name for people: maker and model as the device reports them. */
export function usbPrinterName(printer: UsbPrinterInfo): string {
  return [printer.manufacturer, printer.product].filter(Boolean).join(' ') || 'unnamed printer';
}

export async function usbPrinters(): Promise<UsbPrinter[]> {
  const printers = await listUsbPrinters();
  return printers.map((printer) => ({ connection: printer.connection, name: usbPrinterName(printer) }));
}
