import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBridge, type Bridge } from './bridge.ts';
import { PrinterError } from './errors.ts';
import { makeReceipt } from '../test/fixtures.ts';
import { TcpTransport } from './tcp-transport.ts';
import { printerAllowanceFrom, type PrinterTarget } from './till.ts';
import { DEFAULT_TIMEOUTS } from './transport.ts';

const TILL_ORIGIN = 'http://127.0.0.1:4000';
const FAST = { connectMs: 500, statusMs: 300, writeMs: 2_000 };

/** A service on this machine that is no printer (an SSH server, say): it counts what reaches it. */
interface Service {
  port: number;
  connections: number;
  received: number;
  close(): Promise<void>;
}

async function startService(greeting?: string): Promise<Service> {
  const sockets = new Set<Socket>();
  const service = { port: 0, connections: 0, received: 0 } as Service;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    service.connections += 1;
    if (greeting) socket.write(greeting);
    socket.on('data', (chunk: Buffer) => (service.received += chunk.length));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  service.port = typeof address === 'object' && address ? address.port : 0;
  service.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return service;
}

const printerAt = (connection: string): PrinterTarget => ({
  connection,
  paperWidth: 80,
  commandSet: 'epson',
});

describe('where the bridge prints (the till’s last line of defence)', () => {
  let service: Service;
  let strict: Bridge;

  beforeEach(async () => {
    service = await startService('SSH-2.0-OpenSSH_9.6 secret-banner\r\n');
    // No allowance: what a till runs with unless its operator says otherwise.
    strict = await startBridge({ port: 0, origins: [TILL_ORIGIN], tuning: FAST });
  });
  afterEach(async () => {
    await strict.close();
    await service.close();
  });

  const print = async (bridge: Bridge, connection: string) =>
    (
      await fetch(`${bridge.url}/print-receipt`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${bridge.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ printer: printerAt(connection), receipt: makeReceipt() }),
      })
    ).json();

  it('refuses a service on this machine, a metadata service and link-local addresses, sending nothing', async () => {
    const refused: Array<[string, RegExp]> = [
      [`tcp://127.0.0.1:${service.port}`, /not a printer port/],
      ['tcp://127.0.0.1:9100', /loopback/],
      ['tcp://localhost:9100', /loopback/],
      ['tcp://2130706433:9100', /loopback/],
      ['tcp://169.254.169.254:80', /not a printer port/],
      ['tcp://169.254.169.254:9100', /metadata/],
      ['tcp://metadata.google.internal:9100', /metadata/],
      ['tcp://[fe80::1]:9100', /link-local/],
    ];
    for (const [connection, why] of refused) {
      const outcome = await print(strict, connection);
      expect(outcome, connection).toMatchObject({
        ok: false,
        reason: 'offline',
        mayHaveReachedPrinter: false,
      });
      expect(outcome.message, connection).toMatch(why);
    }
    const status = await fetch(`${strict.url}/status`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${strict.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ printer: printerAt(`tcp://127.0.0.1:${service.port}`) }),
    });
    expect(await status.json()).toMatchObject({
      online: false,
      detail: expect.stringMatching(/printer port/),
    });
    expect(service.connections).toBe(0);
  });

  it('prints on this machine only when the operator allows it, and then says what answered without echoing it', async () => {
    const developer = await startBridge({
      port: 0,
      origins: [TILL_ORIGIN],
      tuning: { ...FAST, allowance: printerAllowanceFrom({ loopback: 'true', ports: String(service.port) }) },
    });
    try {
      const outcome = await print(developer, `tcp://127.0.0.1:${service.port}`);
      expect(service.connections).toBeGreaterThan(0);
      expect(outcome).toMatchObject({ ok: false, reason: 'offline', mayHaveReachedPrinter: false });
      expect(outcome.message).toMatch(/not as a receipt printer/);
      // Neither the banner nor its bytes travel on in the reason (to the server, to the key holder).
      expect(outcome.message).not.toMatch(/SSH|secret|53 53 48/i);
      // The allowance names ports and loopback; it never opens metadata addresses.
      expect(await print(developer, 'tcp://169.254.169.254:9100')).toMatchObject({
        ok: false,
        message: expect.stringMatching(/metadata/),
      });
    } finally {
      await developer.close();
    }
  });

  it('judges the address a name resolves to when it connects, and connects to that address', async () => {
    // A name the rule cannot judge by its spelling (the transport is given it directly) that resolves to
    // this machine at connect time, as a printer name re-pointed by the shop's DNS would.
    const transport = new TcpTransport('localhost', service.port, DEFAULT_TIMEOUTS, {
      ports: [{ from: service.port, to: service.port }],
    });
    const refused = await transport.send(Buffer.from('hello')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PrinterError);
    expect((refused as PrinterError).reason).toBe('invalid_config');
    expect((refused as PrinterError).message).toMatch(/127\.0\.0\.1 is this machine \(loopback\)/);
    expect(service.connections).toBe(0);

    const allowed = new TcpTransport('localhost', service.port, DEFAULT_TIMEOUTS, {
      loopback: true,
      ports: [{ from: service.port, to: service.port }],
    });
    await allowed.send(Buffer.from('hello'));
    await allowed.close();
    expect(service.connections).toBe(1);
  });

  it('refuses an allowance it cannot read', () => {
    expect(() => printerAllowanceFrom({ ports: '22-ssh' })).toThrow(/not ports or ranges/);
  });
});
