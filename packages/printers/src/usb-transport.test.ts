import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PrinterError } from './errors.ts';
import { makeReceipt } from '../test/fixtures.ts';
import { getStatus, openTransport } from './open.ts';
import { PrintQueue } from './queue.ts';
import { renderReceipt, renderText } from './render.ts';
import { STATUS_QUERY } from './status.ts';
import { FakeUsbPrinter, fakeBus } from '../test/fake-usb.ts';
import { UDEV_RULE_PATH, UsbTransport, listUsbPrinters } from './usb-transport.ts';

const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');
const FAST = { connectMs: 500, writeMs: 500 };

function transportFor(
  device: FakeUsbPrinter,
  options: { platform?: NodeJS.Platform; vendorId?: number; productId?: number } = {},
): UsbTransport {
  return new UsbTransport({
    bus: fakeBus(device),
    timeouts: FAST,
    platform: options.platform ?? 'linux',
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<PrinterError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof PrinterError)) throw new Error(`expected a PrinterError, got ${String(error)}`);
  return error;
}

describe('USB printers', () => {
  it('lists only devices with a printer interface, with vendor, product and interface', async () => {
    const printer = new FakeUsbPrinter();
    const keyboard = new FakeUsbPrinter({ vendorId: 0x046d, productId: 0xc31c, interfaceClass: 3 });
    expect(await listUsbPrinters(fakeBus(printer, keyboard))).toEqual([
      {
        vendorId: 0x04b8,
        productId: 0x0202,
        manufacturer: 'EPSON',
        product: 'TM-T20II',
        serialNumber: 'FAKE0001',
        interfaceNumber: 0,
        connection: 'usb://04b8:0202',
      },
    ]);
  });

  it('takes the printer from the usblp driver on Linux, claims it and prints a receipt', async () => {
    const device = new FakeUsbPrinter({ kernelDriverActive: true });
    const queue = new PrintQueue({ transport: transportFor(device), commandSet: 'epson' });
    const bytes = renderReceipt(makeReceipt());
    expect(await queue.settled(queue.enqueue(bytes).id)).toMatchObject({ state: 'printed' });
    expect(device.calls.slice(0, 4)).toEqual([
      'open',
      'claimInterface 0',
      'detachKernelDriver 0',
      'claimInterface 0',
    ]);
    const [job] = device.jobs();
    // The status check comes first, then the receipt byte for byte.
    expect(job!.bytes.subarray(STATUS_QUERY.length, STATUS_QUERY.length + bytes.length)).toEqual(bytes);
    expect(job!.text).toContain('JUMLA TZS');
  });

  it('does not detach kernel drivers outside Linux and reports the device busy', async () => {
    const device = new FakeUsbPrinter({ kernelDriverActive: true });
    const error = await failure(transportFor(device, { platform: 'darwin' }).send(renderText('x')));
    expect(error.reason).toBe('busy');
    expect(device.calls).not.toContain('detachKernelDriver 0');
  });

  it('reports a printer held by another program as busy, saying what to do', async () => {
    const device = new FakeUsbPrinter({ claimedElsewhere: true });
    const error = await failure(transportFor(device).send(renderText('x')));
    expect(error.reason).toBe('busy');
    expect(error.message).toMatch(/in use by another program.*Close it/s);
  });

  it('reports missing permission with the udev rule shipped in the repository', async () => {
    const error = await failure(
      transportFor(new FakeUsbPrinter({ permissionDenied: true })).send(renderText('x')),
    );
    expect(error.reason).toBe('permission_denied');
    expect(error.message).toContain(UDEV_RULE_PATH);
    const rule = join(REPO_ROOT, UDEV_RULE_PATH);
    expect(existsSync(rule)).toBe(true);
    expect(readFileSync(rule, 'utf8')).toMatch(/ID_USB_INTERFACES.*:0701/);
  });

  it('reports an unplugged printer as offline with what to check', async () => {
    const transport = new UsbTransport({
      bus: fakeBus(),
      vendorId: 0x04b8,
      productId: 0x0202,
      timeouts: FAST,
    });
    const error = await failure(transport.send(renderText('x')));
    expect(error.reason).toBe('offline');
    expect(error.message).toMatch(/No USB printer usb:\/\/04b8:0202 is connected.*plugged in/);
  });

  it('picks the device matching usb://VID:PID', async () => {
    const other = new FakeUsbPrinter({ vendorId: 0x0519, productId: 0x0003 });
    const wanted = new FakeUsbPrinter({ vendorId: 0x04b8, productId: 0x0e15 });
    const transport = openTransport('usb://04b8:0e15', { usbBus: fakeBus(other, wanted), timeouts: FAST });
    await transport.send(renderText('hello'));
    expect(wanted.jobs()).toHaveLength(1);
    expect(other.calls).toEqual([]);
  });

  it('fails a job unplugged mid-print as possibly printed, then reopens the printer after it is plugged back', async () => {
    const device = new FakeUsbPrinter();
    const queue = new PrintQueue({
      transport: transportFor(device),
      commandSet: 'epson',
      statusTimeoutMs: 200,
      writeTimeoutMs: 200,
    });
    await queue.settled(queue.enqueue(renderText('first')).id);
    device.unplug();
    const lost = await queue.settled(queue.enqueue(renderText('second')).id);
    expect(lost).toMatchObject({ state: 'failed', failure: { reason: 'offline' } });

    device.replug();
    const next = await queue.settled(queue.enqueue(renderText('third')).id);
    expect(next.state).toBe('printed');
    expect(device.calls.filter((call) => call === 'open')).toHaveLength(2);
  });

  it('marks a job as possibly printed when the device disappears during the write', async () => {
    const device = new FakeUsbPrinter();
    const transport = transportFor(device);
    await transport.send(renderText('warm up'));
    device.unplug();
    const error = await failure(transport.exchange(renderText('x'), { replyBytes: 1 }));
    expect(error).toMatchObject({ reason: 'disconnected', mayHaveReachedPrinter: true });
  });

  it('reads paper out from the IN endpoint', async () => {
    const device = new FakeUsbPrinter();
    device.emulator.conditions.paperOut = true;
    expect(await getStatus(transportFor(device))).toMatchObject({
      online: false,
      paperOut: true,
      answered: true,
    });
  });

  it('reports a printer that never answers on the IN endpoint as offline', async () => {
    const device = new FakeUsbPrinter();
    device.silent = true;
    expect(await getStatus(transportFor(device), { timeoutMs: 120 })).toMatchObject({
      online: false,
      answered: false,
      problem: 'timeout',
    });
  });

  it('reports a stalled write with a hint about paper and errors', async () => {
    const device = new FakeUsbPrinter();
    device.stallWrites = true;
    const error = await failure(transportFor(device).send(renderText('x')));
    expect(error.reason).toBe('offline');
    expect(error.message).toMatch(/took 0 of \d+ bytes \(stall\).*out of paper/);
  });

  it('releases the interface and closes the device on close', async () => {
    const device = new FakeUsbPrinter();
    const transport = transportFor(device);
    await transport.send(renderText('x'));
    await transport.close();
    expect(device.calls.slice(-2)).toEqual(['releaseInterface 0', 'close']);
    expect(device.opened).toBe(false);
  });
});
