import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from './cli.ts';
import { closedPort } from '../test/network.ts';
import { startVirtualPrinter, type VirtualPrinter } from './virtual-printer.ts';

describe('printers CLI', () => {
  let printer: VirtualPrinter | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await printer?.close();
    printer = undefined;
  });

  function capture(): { out: () => string; err: () => string } {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    return { out: () => log.mock.calls.join('\n'), err: () => error.mock.calls.join('\n') };
  }

  it('test-print prints the shop header and a QR code and exits 0', async () => {
    printer = await startVirtualPrinter();
    const io = capture();
    const code = await main([
      'test-print',
      printer.connection,
      '--shop-name',
      'Duka la Mama Asha',
      '--shop-phone',
      '+255 712 345 678',
    ]);
    expect(code).toBe(0);
    expect(io.out()).toMatch(/Printed a test receipt on tcp:\/\/127\.0\.0\.1:\d+/);
    const [job] = await printer.waitForJobs(1);
    expect(job!.text).toContain('D u k a   l a   M a m a   A s h a');
    expect(job!.text).toContain('+255 712 345 678');
    expect(
      job!.items.some((item) => item.kind === 'qr' && item.data.startsWith('TEST Duka la Mama Asha')),
    ).toBe(true);
  });

  it('test-print on a Star printer uses Star commands', async () => {
    printer = await startVirtualPrinter({ commandSet: 'star' });
    capture();
    expect(await main(['test-print', printer.connection, '--type', 'star', '--width', '58'])).toBe(0);
    const [job] = await printer.waitForJobs(1);
    expect(job!.items.filter((item) => item.kind === 'unknown')).toEqual([]);
    expect(job!.items.some((item) => item.kind === 'cut')).toBe(true);
  });

  it('test-print exits 2 with a clear message when the printer is unreachable', async () => {
    const io = capture();
    expect(await main(['test-print', `tcp://127.0.0.1:${await closedPort()}`])).toBe(2);
    expect(io.err()).toMatch(/Printer error \(offline\): Cannot reach the printer at .*ECONNREFUSED/);
  });

  it('test-print exits 3 and prints nothing when the printer is out of paper', async () => {
    printer = await startVirtualPrinter({ paperOut: true });
    const io = capture();
    expect(await main(['test-print', printer.connection])).toBe(3);
    expect(io.err()).toContain('Out of paper.');
    expect(printer.jobs).toHaveLength(0);
  });

  it('status reports a ready printer with exit 0 and paper out with exit 3', async () => {
    printer = await startVirtualPrinter();
    const io = capture();
    expect(await main(['status', printer.connection])).toBe(0);
    expect(io.out()).toContain('Ready.');
    printer.set({ paperOut: true });
    expect(await main(['status', printer.connection])).toBe(3);
  });

  it('rejects a malformed connection and an unknown command with exit 64', async () => {
    const io = capture();
    expect(await main(['test-print', 'lpt1'])).toBe(64);
    expect(io.err()).toContain('tcp://HOST:9100');
    expect(await main(['frobnicate'])).toBe(64);
  });

  it('bridge refuses a port that is not a number and an origin that is not http(s), with exit 64', async () => {
    const io = capture();
    expect(await main(['bridge', '--port', 'nine'])).toBe(64);
    expect(await main(['bridge', '--port', '0', '--origin', 'file:///till'])).toBe(64);
    expect(io.err()).toContain('"file:///till" is not an http(s) origin');
  });
});
