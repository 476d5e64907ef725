import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { printerAllowanceFrom, startVirtualPrinter, type VirtualPrinter } from '@tz/printers';
import { makeReceipt } from '../../../../packages/printers/test/fixtures.ts';
import { BRIDGE_CHANNELS, type CredentialStore, type PrinterTarget } from '../shared/bridge.ts';
import { registerBridgeHandlers, type IpcMainLike } from './ipc.ts';
import { APP_ORIGIN } from './policy.ts';

const FAST = { connectMs: 500, statusMs: 300, writeMs: 2_000 };
/** A developer's till settings: virtual printers on this machine, at any unprivileged port. */
const THIS_MACHINE = printerAllowanceFrom({ loopback: 'true', ports: '1024-65535' });

/** ipcMain as the handlers see it: `handle` records, `invoke` calls like a renderer would from a page. */
function fakeIpcMain() {
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  const ipcMain = {
    handle(channel: string, listener: (event: never, ...args: unknown[]) => unknown) {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener as (event: unknown, ...args: unknown[]) => unknown);
    },
  } as unknown as IpcMainLike;
  // Electron answers the renderer's invoke with whatever the handler returns or throws, as a promise.
  const invokeFrom = async (url: string, channel: string, ...args: unknown[]): Promise<unknown> => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return await handler({ senderFrame: { url } }, ...args);
  };
  const invoke = (channel: string, ...args: unknown[]): Promise<unknown> =>
    invokeFrom(`${APP_ORIGIN}/index.html`, channel, ...args);
  return { ipcMain, handlers, invoke, invokeFrom };
}

function memoryCredentials(): CredentialStore & { value: string | null } {
  return {
    value: null,
    load() {
      return Promise.resolve(this.value);
    },
    save(credential) {
      this.value = credential;
      return Promise.resolve();
    },
    clear() {
      this.value = null;
      return Promise.resolve();
    },
  };
}

describe('IPC handlers of the hardware bridge', () => {
  let printer: VirtualPrinter;
  let target: PrinterTarget;
  let ipc: ReturnType<typeof fakeIpcMain>;
  let credentials: ReturnType<typeof memoryCredentials>;

  beforeEach(async () => {
    printer = await startVirtualPrinter({ commandSet: 'star', columns: 48 });
    target = { connection: printer.connection, paperWidth: 80, commandSet: 'star', codePage: 'PC858' };
    ipc = fakeIpcMain();
    credentials = memoryCredentials();
    registerBridgeHandlers(ipc.ipcMain, {
      credentials,
      trustedOrigins: [APP_ORIGIN],
      tuning: { ...FAST, allowance: THIS_MACHINE },
    });
  });
  afterEach(() => printer.close());

  it('registers one handler for every bridge channel', () => {
    expect([...ipc.handlers.keys()].sort()).toEqual(Object.values(BRIDGE_CHANNELS).sort());
  });

  it('prints a receipt on a Star printer in its code page and kicks the drawer for cash', async () => {
    const receipt = makeReceipt({ footerLines: ['Bei kwa € pia'] });
    expect(await ipc.invoke(BRIDGE_CHANNELS.printReceipt, target, receipt, { openDrawer: true })).toEqual({
      ok: true,
      paperNearEnd: false,
    });
    const [job] = await printer.waitForJobs(1);
    expect(job!.text).toContain('[CODE PAGE PC858]');
    expect(job!.text).toContain('Bei kwa € pia');
    expect(job!.items.filter((item) => item.kind === 'unknown')).toEqual([]);
    expect(job!.items.map((item) => item.kind).slice(-2)).toEqual(['cut', 'drawer']);
  });

  it('prints a receipt without the drawer when not asked to open it', async () => {
    await ipc.invoke(BRIDGE_CHANNELS.printReceipt, target, makeReceipt());
    const [job] = await printer.waitForJobs(1);
    expect(job!.items.some((item) => item.kind === 'drawer')).toBe(false);
  });

  it('opens the drawer alone, prints text and reads the status', async () => {
    expect(await ipc.invoke(BRIDGE_CHANNELS.openDrawer, target)).toMatchObject({ ok: true });
    expect((await printer.waitForJobs(1))[0]!.items).toEqual([{ kind: 'drawer', pin: 2, onMs: undefined }]);
    expect(await ipc.invoke(BRIDGE_CHANNELS.printText, target, 'Zamu imefungwa')).toMatchObject({ ok: true });
    expect((await printer.waitForJobs(2))[1]!.text).toContain('Zamu imefungwa');
    expect(await ipc.invoke(BRIDGE_CHANNELS.status, target)).toMatchObject({
      online: true,
      detail: 'Ready.',
    });
  });

  it('maps printer failures to outcomes: paper out before sending, offline when it never answers', async () => {
    printer.set({ paperOut: true });
    expect(await ipc.invoke(BRIDGE_CHANNELS.printReceipt, target, makeReceipt())).toEqual({
      ok: false,
      reason: 'paper_out',
      message: 'Out of paper.',
      mayHaveReachedPrinter: false,
    });
    printer.set({ paperOut: false, offline: true });
    expect(await ipc.invoke(BRIDGE_CHANNELS.openDrawer, target)).toMatchObject({
      ok: false,
      reason: 'offline',
    });
    expect(printer.jobs).toHaveLength(0);
  });

  it('prints only where the till’s operator allows: a printer on this machine is refused by default', async () => {
    const strict = fakeIpcMain();
    registerBridgeHandlers(strict.ipcMain, { credentials, trustedOrigins: [APP_ORIGIN], tuning: FAST });
    const outcome = await strict.invoke(BRIDGE_CHANNELS.printReceipt, target, makeReceipt());
    expect(outcome).toMatchObject({ ok: false, reason: 'offline', mayHaveReachedPrinter: false });
    expect((outcome as { message: string }).message).toMatch(/not a printer port|loopback/);
    const drawer = await strict.invoke(BRIDGE_CHANNELS.openDrawer, {
      ...target,
      connection: 'tcp://169.254.169.254:9100',
    });
    expect((drawer as { message: string }).message).toMatch(/metadata/);
    expect(printer.jobs).toHaveLength(0);
  });

  it('reports an Epson job sent but not acknowledged in time as one that may have printed', async () => {
    // Epson acknowledges `GS r` only once the job is printed; this one takes longer than the write timeout.
    const slow = await startVirtualPrinter({ printDelayMs: 5_000 });
    try {
      const epson: PrinterTarget = { connection: slow.connection, paperWidth: 58, commandSet: 'epson' };
      const outcome = await ipc.invoke(BRIDGE_CHANNELS.printReceipt, epson, makeReceipt());
      expect(outcome).toMatchObject({ ok: false, reason: 'timeout', mayHaveReachedPrinter: true });
    } finally {
      await slow.close();
    }
  });

  it('rejects malformed arguments before anything reaches the printer', async () => {
    await expect(
      ipc.invoke(BRIDGE_CHANNELS.printReceipt, target, makeReceipt({ total: 12.5 })),
    ).rejects.toThrow(/Invalid receipt \(total\)/);
    await expect(ipc.invoke(BRIDGE_CHANNELS.openDrawer, { ...target, commandSet: 'zebra' })).rejects.toThrow(
      /Invalid printer \(commandSet\)/,
    );
    await expect(ipc.invoke(BRIDGE_CHANNELS.printText, target, '')).rejects.toThrow(/Invalid text/);
    await expect(ipc.invoke(BRIDGE_CHANNELS.saveCredential, 42)).rejects.toThrow(/Invalid credential/);
    expect(printer.jobs).toHaveLength(0);
  });

  it('refuses calls from pages outside the trusted origins', async () => {
    await expect(ipc.invokeFrom('https://evil.example/', BRIDGE_CHANNELS.openDrawer, target)).rejects.toThrow(
      /may not use the till's hardware/,
    );
    await expect(ipc.invokeFrom('https://evil.example/', BRIDGE_CHANNELS.loadCredential)).rejects.toThrow();
    expect(printer.jobs).toHaveLength(0);
  });

  it('saves, loads and clears the device credential through the store', async () => {
    expect(await ipc.invoke(BRIDGE_CHANNELS.loadCredential)).toBeNull();
    await ipc.invoke(BRIDGE_CHANNELS.saveCredential, 'tdc_secret');
    expect(credentials.value).toBe('tdc_secret');
    expect(await ipc.invoke(BRIDGE_CHANNELS.loadCredential)).toBe('tdc_secret');
    await ipc.invoke(BRIDGE_CHANNELS.clearCredential);
    expect(await ipc.invoke(BRIDGE_CHANNELS.loadCredential)).toBeNull();
  });
});
