import { afterEach, describe, expect, it } from 'vitest';
import { decodeStatus } from './status.ts';
import { getStatus } from './open.ts';
import { closedPort } from '../test/network.ts';
import { startVirtualPrinter, type VirtualPrinter } from './virtual-printer.ts';

describe('printer status over TCP', () => {
  let printer: VirtualPrinter | undefined;
  afterEach(async () => {
    await printer?.close();
    printer = undefined;
  });

  it('reports a ready printer online', async () => {
    printer = await startVirtualPrinter();
    expect(await getStatus(printer.connection)).toMatchObject({
      online: true,
      answered: true,
      paperOut: false,
      coverOpen: false,
      detail: 'Ready.',
    });
  });

  it('reports paper out as not online', async () => {
    printer = await startVirtualPrinter({ paperOut: true });
    expect(await getStatus(printer.connection)).toMatchObject({
      online: false,
      answered: true,
      paperOut: true,
      detail: 'Out of paper.',
    });
  });

  it('reports an open cover', async () => {
    printer = await startVirtualPrinter({ coverOpen: true });
    expect(await getStatus(printer.connection)).toMatchObject({
      online: false,
      coverOpen: true,
      paperOut: false,
    });
  });

  it('reports a nearly finished roll while staying online', async () => {
    printer = await startVirtualPrinter({ paperNearEnd: true });
    expect(await getStatus(printer.connection)).toMatchObject({ online: true, paperNearEnd: true });
  });

  it('follows switches flipped while running', async () => {
    printer = await startVirtualPrinter();
    printer.set({ paperOut: true });
    expect((await getStatus(printer.connection)).paperOut).toBe(true);
    printer.set({ paperOut: false });
    expect((await getStatus(printer.connection)).online).toBe(true);
  });

  it('reports a printer that accepts the connection but never answers as offline after the timeout', async () => {
    printer = await startVirtualPrinter({ offline: true });
    const started = Date.now();
    const status = await getStatus(printer.connection, { timeoutMs: 150 });
    expect(status).toMatchObject({ online: false, answered: false, problem: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('reports a refused connection as offline', async () => {
    const status = await getStatus(`tcp://127.0.0.1:${await closedPort()}`);
    expect(status).toMatchObject({ online: false, answered: false, problem: 'offline' });
    expect(status.detail).toMatch(/ECONNREFUSED/);
  });

  it('does not mistake garbage for a status report', () => {
    expect(decodeStatus(Buffer.from('OK\n'))).toMatchObject({
      online: false,
      answered: true,
      problem: 'offline',
    });
  });
});
