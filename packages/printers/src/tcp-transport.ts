import { lookup } from 'node:dns/promises';
import { connect, isIP, type Socket } from 'node:net';
import type { PrinterAllowance } from '@tz/core';
import { printerAddressProblem } from '@tz/core/printer-addresses';
import { PrinterError, type PrinterErrorReason } from './errors.ts';
import { DEFAULT_TIMEOUTS, type PrinterTransport, type TransportTimeouts } from './transport.ts';

/**
 * Raw TCP printing (port 9100). Each operation opens its own connection and
 * closes it afterwards: network printers serve one connection at a time, so
 * holding one open would lock out every other till.
 */
export class TcpTransport implements PrinterTransport {
  readonly target: string;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeouts: TransportTimeouts = DEFAULT_TIMEOUTS,
    /** When set, the address is judged at each connect (see `guardedAddress`); the CLI's own typing is not. */
    private readonly allowance?: PrinterAllowance,
  ) {
    this.target = `tcp://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }

  async send(data: Uint8Array, options: { timeoutMs?: number } = {}): Promise<void> {
    await this.run(data, 0, options.timeoutMs ?? this.timeouts.writeMs);
  }

  exchange(data: Uint8Array, options: { replyBytes: number; timeoutMs?: number }): Promise<Buffer> {
    return this.run(data, options.replyBytes, options.timeoutMs ?? this.timeouts.writeMs);
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    return Promise.resolve();
  }

  /**
   * The address to connect to: the host resolved here, each address it
   * resolves to judged by the printer rule, so a name that now points at this
   * machine or a metadata service is refused, and the socket goes to the very
   * address that was judged (no second lookup to rebind).
   */
  private async guardedAddress(): Promise<string> {
    if (!this.allowance) return this.host;
    let addresses: string[];
    try {
      addresses = isIP(this.host)
        ? [this.host]
        : (await lookup(this.host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
      throw new PrinterError('offline', `Cannot find the printer ${this.target} (${code}).`, {
        cause: error,
      });
    }
    for (const address of addresses) {
      const problem = printerAddressProblem(address, this.allowance);
      if (problem) throw new PrinterError('invalid_config', `Not printing to ${this.target}: ${problem}.`);
    }
    if (!addresses[0]) throw new PrinterError('offline', `Cannot find the printer ${this.target}.`);
    return addresses[0];
  }

  /** Connects, writes `data`, and waits for `replyBytes` bytes back (none: resolves once written). */
  private async run(data: Uint8Array, replyBytes: number, timeoutMs: number): Promise<Buffer> {
    const address = await this.guardedAddress();
    return new Promise<Buffer>((resolve, reject) => {
      const socket = connect({ host: address, port: this.port });
      socket.setNoDelay(true);
      this.sockets.add(socket);
      const received: Buffer[] = [];
      let receivedLength = 0;
      let connected = false;
      let settled = false;

      const settle = (): void => {
        settled = true;
        clearTimeout(timer);
        this.sockets.delete(socket);
      };
      const fail = (reason: PrinterErrorReason, message: string, cause?: unknown): void => {
        if (settled) return;
        settle();
        socket.destroy();
        reject(
          new PrinterError(reason, message, { mayHaveReachedPrinter: connected && data.length > 0, cause }),
        );
      };
      const succeed = (reply: Buffer): void => {
        if (settled) return;
        settle();
        // A graceful close, so bytes still in flight are delivered before the FIN.
        socket.end();
        setTimeout(() => socket.destroy(), 1_000).unref();
        resolve(reply);
      };

      let timer = setTimeout(
        () =>
          fail(
            'offline',
            `The printer at ${this.target} did not accept a connection within ${this.timeouts.connectMs} ms.`,
          ),
        this.timeouts.connectMs,
      );

      socket.once('connect', () => {
        connected = true;
        clearTimeout(timer);
        timer = setTimeout(
          () =>
            fail(
              'timeout',
              replyBytes > 0
                ? `The printer at ${this.target} did not answer within ${timeoutMs} ms.`
                : `The printer at ${this.target} did not take the data within ${timeoutMs} ms.`,
            ),
          timeoutMs,
        );
        socket.write(data, (error) => {
          if (!error && replyBytes === 0) succeed(Buffer.alloc(0));
        });
      });
      socket.on('data', (chunk: Buffer) => {
        if (replyBytes === 0) return;
        received.push(chunk);
        receivedLength += chunk.length;
        if (receivedLength >= replyBytes) succeed(Buffer.concat(received).subarray(0, replyBytes));
      });
      socket.on('error', (error: NodeJS.ErrnoException) => {
        if (connected)
          fail(
            'disconnected',
            `The connection to ${this.target} was lost (${error.code ?? error.message}).`,
            error,
          );
        else
          fail(
            'offline',
            `Cannot reach the printer at ${this.target} (${error.code ?? error.message}).`,
            error,
          );
      });
      socket.on('close', () => {
        if (connected)
          fail('disconnected', `The printer at ${this.target} closed the connection before answering.`);
        else fail('offline', `Cannot reach the printer at ${this.target}.`);
      });
    });
  }
}
