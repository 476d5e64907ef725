/**
 * The till's one door to hardware. Inside Electron the preload exposes it as
 * `window.till` (IPC to the main process); in a plain browser the renderer
 * builds the same interface over HTTP to the local bridge
 * (`npm run printers -- bridge`). Both ends call `@tz/printers`.
 */
import type { PrintDocument } from '@tz/core';
import type { PrintOutcome, PrinterState, PrinterTarget, UsbPrinter } from '@tz/printers';

// The printer types belong to `@tz/printers`, which answers both doors; type-only, so no Node code follows.
export type { PrintFailureReason, PrintOutcome, PrinterState, PrinterTarget, UsbPrinter } from '@tz/printers';

/**
 * Where the device credential lives: Electron's safeStorage, or nowhere (the
 * browser keeps it in its own store). `save` rejects rather than store the
 * credential in clear when the system offers no encryption; `load` resolves
 * null when nothing is stored and rejects when a stored one cannot be
 * decrypted (a locked or changed keyring).
 */
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
    receipt: PrintDocument,
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
