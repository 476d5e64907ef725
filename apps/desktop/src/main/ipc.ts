/**
 * The main process's half of `window.till`: one `ipcMain.handle` per
 * `BRIDGE_CHANNELS` entry. Printing goes through the same `@tz/printers`
 * functions as the local HTTP bridge, so both doors answer alike. Arguments
 * come from a renderer and are validated; only pages of a trusted origin may
 * call at all.
 */
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import { printDocumentSchema } from '@tz/core/receipt-schema';
import {
  openDrawerOn,
  printOptionsSchema,
  printReceiptOn,
  printTextOn,
  printTextSchema,
  printerStateOf,
  printerTargetSchema,
  usbPrinters,
  type JobTuning,
} from '@tz/printers';
import { BRIDGE_CHANNELS, type CredentialStore } from '../shared/bridge.ts';
import { isTrustedUrl } from './policy.ts';

export type IpcMainLike = Pick<IpcMain, 'handle'>;
type SenderEvent = Pick<IpcMainInvokeEvent, 'senderFrame'>;

export interface BridgeHandlerOptions {
  credentials: CredentialStore;
  /** Origins whose pages may use the bridge (the built renderer, the configured server). */
  trustedOrigins: readonly string[];
  tuning?: JobTuning;
}

const credentialSchema = z.string().min(1).max(4096);

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? ` (${issue.path.map(String).join('.')})` : '';
  throw new Error(`Invalid ${what}${path}: ${issue?.message ?? 'not accepted'}`);
}

export function registerBridgeHandlers(ipcMain: IpcMainLike, options: BridgeHandlerOptions): void {
  const { credentials, trustedOrigins, tuning = {} } = options;
  const handle = (channel: string, handler: (...args: unknown[]) => Promise<unknown>): void => {
    ipcMain.handle(channel, (event: SenderEvent, ...args: unknown[]) => {
      const url = event.senderFrame?.url ?? '';
      if (!isTrustedUrl(url, trustedOrigins)) {
        return Promise.reject(
          new Error(`Pages from ${url || 'an unknown frame'} may not use the till's hardware`),
        );
      }
      // A bad argument rejects the renderer's call like any other failure.
      return Promise.resolve().then(() => handler(...args));
    });
  };
  const printer = (value: unknown) => parse(printerTargetSchema, value, 'printer');

  handle(BRIDGE_CHANNELS.printReceipt, (target, receipt, printOptions) =>
    printReceiptOn(
      printer(target),
      parse(printDocumentSchema, receipt, 'receipt'),
      parse(printOptionsSchema.optional(), printOptions, 'print options') ?? {},
      tuning,
    ),
  );
  handle(BRIDGE_CHANNELS.printText, (target, text) =>
    printTextOn(printer(target), parse(printTextSchema, text, 'text'), tuning),
  );
  handle(BRIDGE_CHANNELS.openDrawer, (target) => openDrawerOn(printer(target), tuning));
  handle(BRIDGE_CHANNELS.status, (target) => printerStateOf(printer(target), tuning));
  handle(BRIDGE_CHANNELS.listUsbPrinters, () => usbPrinters());
  handle(BRIDGE_CHANNELS.loadCredential, () => credentials.load());
  handle(BRIDGE_CHANNELS.saveCredential, (credential) =>
    credentials.save(parse(credentialSchema, credential, 'credential')),
  );
  handle(BRIDGE_CHANNELS.clearCredential, () => credentials.clear());
}
