/**
 * The till's one door to hardware. Inside Electron the preload exposes it as
 * `window.till` (IPC to the main process); in a plain browser the renderer
 * builds the same interface over HTTP to the local bridge
 * (`npm run printers -- bridge`). Both ends call `@tz/printers`.
 */
import type { ReceiptDocument } from '@tz/core';

/** How the till reaches a printer, as configured on the server (`/v1/printers`). */
export interface PrinterTarget {
  /** `tcp://host:port`, `usb://VID:PID` or `usb` (the first USB printer found). */
  connection: string;
  paperWidth: 58 | 80;
  commandSet: 'epson' | 'star';
  /** A code page name known to `@tz/printers` (`CODE_PAGES`); its default when absent. */
  codePage?: string;
}

/** Why a job did not print; the same reasons a print job ends `failed` with on the server. */
export type PrintFailureReason = 'offline' | 'paper_out' | 'cover_open' | 'timeout';

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

/** Where the device credential lives: Electron's safeStorage, or nowhere (the browser keeps it in its own store). */
export interface CredentialStore {
  load(): Promise<string | null>;
  save(credential: string): Promise<void>;
  clear(): Promise<void>;
}

export interface TillBridge {
  /** `ipc`: the desktop app; `http`: the local bridge process beside a browser till. */
  readonly kind: 'ipc' | 'http';
  printReceipt(
    printer: PrinterTarget,
    receipt: ReceiptDocument,
    options?: { openDrawer?: boolean },
  ): Promise<PrintOutcome>;
  printText(printer: PrinterTarget, text: string): Promise<PrintOutcome>;
  openDrawer(printer: PrinterTarget): Promise<PrintOutcome>;
  status(printer: PrinterTarget): Promise<PrinterState>;
  listUsbPrinters(): Promise<UsbPrinter[]>;
  /** Present inside Electron only. */
  readonly credentials?: CredentialStore;
}

/** The IPC channel names, one per bridge method; main and preload both use these. */
export const BRIDGE_CHANNELS = {
  printReceipt: 'till:print-receipt',
  printText: 'till:print-text',
  openDrawer: 'till:open-drawer',
  status: 'till:printer-status',
  listUsbPrinters: 'till:list-usb-printers',
  loadCredential: 'till:credential-load',
  saveCredential: 'till:credential-save',
  clearCredential: 'till:credential-clear',
} as const;

declare global {
  interface Window {
    /** Set by the desktop app's preload; absent in a plain browser. */
    till?: TillBridge;
  }
}
