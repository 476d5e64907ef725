import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBridge, startVirtualPrinter, type Bridge, type VirtualPrinter } from '@tz/printers';
import { makeReceipt } from '../../../../packages/printers/test/fixtures.ts';
import type { PrinterTarget, TillBridge } from './bridge.ts';
import { WATCH_TIMEOUT_MS } from './bridge-watch.ts';
import { detectBridge } from './detect-bridge.ts';
import { createHttpBridge } from './http-bridge.ts';

const FAST = { connectMs: 500, statusMs: 300, writeMs: 2_000 };
/** Health checks that must be answered: their deadline is not what these tests are about. */
const PATIENT = { ipc: undefined, timeoutMs: 10_000 };

describe('the till in a browser, through the local bridge', () => {
  let printer: VirtualPrinter;
  let bridge: Bridge;
  let target: PrinterTarget;

  beforeEach(async () => {
    printer = await startVirtualPrinter({ columns: 32 });
    target = { connection: printer.connection, paperWidth: 58, commandSet: 'epson' };
    bridge = await startBridge({
      port: 0,
      origins: ['http://127.0.0.1:4000'],
      tuning: { ...FAST, allowance: printer.allowance },
    });
  });
  afterEach(async () => {
    await bridge.close();
    await printer.close();
  });

  it('finds the bridge and prints a cash sale: receipt, cut, then the drawer', async () => {
    const found = await detectBridge({ bridgeUrl: bridge.url, bridgeToken: bridge.token }, PATIENT);
    expect(found.kind).toBe('http');
    expect(found.detail).toContain(bridge.url);
    const outcome = await found.bridge!.printReceipt(target, makeReceipt(), { openDrawer: true });
    expect(outcome).toEqual({ ok: true, paperNearEnd: false });
    const [job] = await printer.waitForJobs(1);
    expect(job!.text).toContain('Unga wa mahindi 2kg');
    expect(job!.items.map((item) => item.kind).slice(-2)).toEqual(['cut', 'drawer']);
  });

  it('opens the drawer, prints text and reads the status through the same bridge', async () => {
    const http = createHttpBridge({ url: bridge.url, token: bridge.token });
    expect(await http.openDrawer(target)).toEqual({ ok: true, paperNearEnd: false });
    expect(await http.printText(target, 'Z report')).toEqual({ ok: true, paperNearEnd: false });
    expect((await printer.waitForJobs(2))[1]!.text).toContain('Z report');
    printer.set({ coverOpen: true });
    expect(await http.status(target)).toMatchObject({
      online: false,
      coverOpen: true,
      detail: 'The cover is open.',
    });
    expect(await http.printText(target, 'again')).toMatchObject({
      ok: false,
      reason: 'cover_open',
      mayHaveReachedPrinter: false,
    });
  });

  it('prefers the desktop bridge when the preload put one on the page', async () => {
    const ipc = { kind: 'ipc' } as TillBridge;
    const found = await detectBridge({ bridgeUrl: bridge.url, bridgeToken: bridge.token }, { ipc });
    expect(found).toMatchObject({ kind: 'ipc', bridge: ipc });
  });

  it('says there is no printer when no bridge is configured', async () => {
    const found = await detectBridge({ bridgeUrl: '', bridgeToken: null }, { ipc: undefined });
    expect(found.kind).toBe('none');
    expect(found.bridge).toBeUndefined();
    expect(found.detail).toContain('npm run printers -- bridge');
  });

  it('says there is no printer, naming the token, when the bridge refuses it', async () => {
    const found = await detectBridge({ bridgeUrl: bridge.url, bridgeToken: 'stale' }, PATIENT);
    expect(found.kind).toBe('none');
    expect(found.detail).toMatch(/refused this till's token/);
    const outcome = await createHttpBridge({ url: bridge.url, token: 'stale' }).printReceipt(
      target,
      makeReceipt(),
    );
    expect(outcome).toMatchObject({ ok: false, reason: 'offline', mayHaveReachedPrinter: false });
    expect(printer.jobs).toHaveLength(0);
  });

  it('reports a stopped bridge as offline, with nothing printed', async () => {
    const { url, token } = bridge;
    await bridge.close();
    expect((await detectBridge({ bridgeUrl: url, bridgeToken: token }, { ipc: undefined })).kind).toBe(
      'none',
    );
    const outcome = await createHttpBridge({ url, token }).printReceipt(target, makeReceipt());
    expect(outcome).toMatchObject({ ok: false, reason: 'offline', mayHaveReachedPrinter: false });
    expect(outcome.ok ? '' : outcome.message).toContain('is not answering');
    bridge = await startBridge({ port: 0, origins: ['http://127.0.0.1:4000'] });
  });
});

describe('detecting a bridge that hangs', () => {
  let server: Server;
  const sockets = new Set<Socket>();
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('gives up on the health check after about 300 ms', async () => {
    server = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const started = performance.now();
    const found = await detectBridge(
      { bridgeUrl: `http://127.0.0.1:${port}`, bridgeToken: 't' },
      { ipc: undefined },
    );
    const elapsed = performance.now() - started;
    expect(found.kind).toBe('none');
    expect(found.detail).toContain('did not answer in time');
    // About 300 ms however busy the machine: below the 2 s the watch's later looks wait.
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(WATCH_TIMEOUT_MS);
  });
});
