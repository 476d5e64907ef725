/**
 * Receipt printing for the till and the server: render a receipt (or a
 * refund's or void's slip), a Z report, a kitchen ticket or text to ESC/POS, send it over TCP or USB through a per-printer
 * queue, read the printer's status, and run a virtual printer for tests.
 */
export {
  renderReceipt,
  renderRows,
  renderPrintDocument,
  renderKitchenTicket,
  renderText,
  renderDrawerKick,
  DEFAULT_PROFILE,
} from './render.ts';
export type { KitchenTicket, KitchenTicketItem, PrinterProfile, RenderOptions } from './render.ts';
export { openTransport, getStatus } from './open.ts';
export type { OpenOptions } from './open.ts';
export { PrintQueue } from './queue.ts';
export type {
  PrintJob,
  PrintJobFailure,
  PrintJobId,
  PrintJobState,
  PrintQueueOptions,
  RetryResult,
} from './queue.ts';
export { printJob } from './print.ts';
export type { PrintOptions, PrintResult } from './print.ts';
export { startVirtualPrinter } from './virtual-printer.ts';
export type { VirtualPrinter, VirtualPrinterOptions, VirtualPrinterSwitches } from './virtual-printer.ts';
export type { EmulatedJob } from './emulator.ts';
export { PrinterError, isPrinterError, jobFailureReason } from './errors.ts';
export type { JobFailureReason, PrinterErrorReason } from './errors.ts';
export { parseConnection, formatConnection } from './connection.ts';
export type { Connection } from './connection.ts';
export { COLUMNS, parseCommandSet, parsePaperWidth } from './config.ts';
export type { CommandSet, PaperWidth } from './config.ts';
export { CODE_PAGES, DEFAULT_CODE_PAGE, parseCodePage, toPrintable } from './code-pages.ts';
export type { CodePage } from './code-pages.ts';
export type { PrinterStatus } from './status.ts';
export type { PrinterTransport, TransportTimeouts } from './transport.ts';
export { listUsbPrinters, UDEV_RULE_PATH } from './usb-transport.ts';
export type { UsbPrinterInfo } from './usb-transport.ts';
export { decodeJob, formatItems } from './decoder.ts';
export type { DecodedItem } from './decoder.ts';
export {
  failedOutcome,
  openDrawerOn,
  printOptionsSchema,
  printReceiptOn,
  printTextOn,
  printTextSchema,
  printerAllowanceFrom,
  printerStateOf,
  printerTargetSchema,
  usbPrinterName,
  usbPrinters,
} from './till.ts';
export type {
  JobTuning,
  PrintFailureReason,
  PrintOutcome,
  PrinterState,
  PrinterTarget,
  UsbPrinter,
} from './till.ts';
export { startBridge, DEFAULT_BRIDGE_PORT, MAX_BRIDGE_BODY_BYTES } from './bridge.ts';
export type { Bridge, BridgeOptions } from './bridge.ts';
