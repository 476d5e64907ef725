import { createServer, type Socket } from 'node:net';
import type { PrinterAllowance } from '@tz/core';
import type { CommandSet } from './config.ts';
import { PrinterEmulator, type EmulatedJob, type PrinterConditions } from './emulator.ts';

export interface VirtualPrinterSwitches extends PrinterConditions {
  /** Takes connections but never answers, like a printer that hangs or is switched off behind a print server. */
  offline: boolean;
  /** Drops the connection after this many bytes of a job (a cable pulled mid-job). */
  dropAfterBytes: number | undefined;
  /** Runs out of paper after this many bytes of a job (the roll ending mid-receipt). */
  paperOutAfterBytes: number | undefined;
  /** Delay before answering the end-of-job query, like the time a real printer takes to print. */
  printDelayMs: number;
}

export interface VirtualPrinterOptions extends Partial<VirtualPrinterSwitches> {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  commandSet?: CommandSet;
  columns?: number;
  /** Called with each job once its connection closes. */
  onJob?: (job: EmulatedJob) => void;
}

export interface VirtualPrinter {
  readonly host: string;
  readonly port: number;
  /** `tcp://host:port`, ready for openTransport. */
  readonly connection: string;
  /**
   * What a till's operator allows for a till to print here (on loopback, at a
   * port outside 9100-9109): `PRINTER_ALLOW_LOOPBACK=true` and
   * `PRINTER_ALLOWED_PORTS=<port>` say the same.
   */
  readonly allowance: PrinterAllowance;
  readonly jobs: readonly EmulatedJob[];
  readonly switches: Readonly<VirtualPrinterSwitches>;
  set(switches: Partial<VirtualPrinterSwitches>): void;
  /** Resolves once `count` jobs have arrived. */
  waitForJobs(count: number, timeoutMs?: number): Promise<readonly EmulatedJob[]>;
  close(): Promise<void>;
}

/**
 * A network receipt printer for development and tests: decodes what it
 * receives into readable jobs and answers `DLE EOT` and `GS r` like a real one.
 */
export async function startVirtualPrinter(options: VirtualPrinterOptions = {}): Promise<VirtualPrinter> {
  const host = options.host ?? '127.0.0.1';
  const emulator = new PrinterEmulator(options.commandSet ?? 'epson', options.columns ?? 48);
  const switches: VirtualPrinterSwitches = {
    offline: options.offline ?? false,
    dropAfterBytes: options.dropAfterBytes,
    paperOutAfterBytes: options.paperOutAfterBytes,
    printDelayMs: options.printDelayMs ?? 0,
    paperOut: options.paperOut ?? false,
    paperNearEnd: options.paperNearEnd ?? false,
    coverOpen: options.coverOpen ?? false,
  };
  emulator.conditions = switches;
  const sockets = new Set<Socket>();
  const waiters = new Set<() => void>();

  const server = createServer((socket) => {
    sockets.add(socket);
    const reception = emulator.begin();
    const offline = switches.offline;
    let received = 0;
    let ended = false;
    const finish = (complete: boolean): void => {
      if (ended || offline) return;
      ended = true;
      const job = emulator.end(reception, complete);
      if (job) {
        options.onJob?.(job);
        for (const wake of waiters) wake();
      }
    };

    socket.on('data', (chunk: Buffer) => {
      if (offline || ended) return;
      let accepted = chunk;
      const limit = switches.dropAfterBytes;
      if (limit !== undefined && received + chunk.length > limit)
        accepted = chunk.subarray(0, Math.max(0, limit - received));
      received += accepted.length;
      const paperLasts = switches.paperOutAfterBytes;
      if (paperLasts !== undefined && received > paperLasts) switches.paperOut = true;
      for (const answer of emulator.receive(reception, accepted)) {
        // Real-time answers go at once; the end-of-job answer waits for the "print".
        if (answer.inSequence && switches.printDelayMs > 0)
          setTimeout(() => socket.write(answer.bytes), switches.printDelayMs);
        else socket.write(answer.bytes);
      }
      if (accepted.length < chunk.length) {
        finish(false);
        socket.destroy();
      }
    });
    socket.on('end', () => {
      finish(true);
      socket.end();
    });
    socket.on('close', () => {
      finish(false);
      sockets.delete(socket);
    });
    socket.on('error', () => undefined);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    host,
    port,
    connection: `tcp://${host}:${port}`,
    allowance: { loopback: true, ports: [{ from: port, to: port }] },
    jobs: emulator.jobs,
    switches,
    set(change) {
      Object.assign(switches, change);
    },
    async waitForJobs(count, timeoutMs = 5_000) {
      if (emulator.jobs.length >= count) return emulator.jobs;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `The virtual printer received ${emulator.jobs.length} of ${count} jobs in ${timeoutMs} ms.`,
            ),
          );
        }, timeoutMs);
        const check = (): void => {
          if (emulator.jobs.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
      return emulator.jobs;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
