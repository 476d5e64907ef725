import { BreakLine, PrinterTypes, ThermalPrinter } from 'node-thermal-printer';
import type { CommandSet } from './config.ts';
import type { PrinterTransport } from './transport.ts';

/**
 * What node-thermal-printer calls on its `interface` object: `execute(buffer,
 * options)` to send a job (resolving with the printer's reply when
 * `waitForResponse` is set) and `isPrinterConnected()`.
 */
export interface ThermalInterface {
  execute(buffer: Buffer, options?: { waitForResponse?: boolean }): Promise<Buffer | undefined>;
  isPrinterConnected(): Promise<boolean>;
}

type LibraryConfig = ConstructorParameters<typeof ThermalPrinter>[0];

export function createThermalPrinter(options: {
  commandSet: CommandSet;
  columns: number;
  thermalInterface?: ThermalInterface;
}): ThermalPrinter {
  const config = {
    type: options.commandSet === 'star' ? PrinterTypes.STAR : PrinterTypes.EPSON,
    width: options.columns,
    // Layout (wrapping, columns) is ours, so the library must not fold lines again.
    breakLine: BreakLine.NONE,
    ...(options.thermalInterface ? { interface: options.thermalInterface } : {}),
  };
  // The bundled typings only admit a string `interface`, but the runtime accepts
  // an object implementing its Interface (lib/interfaces/index.js) or none at all.
  return new ThermalPrinter(config as unknown as LibraryConfig);
}

/**
 * Plugs a transport into node-thermal-printer as its custom interface, so the
 * library's `execute` drives every transport the same way.
 */
export class TransportInterface implements ThermalInterface {
  constructor(
    private readonly transport: PrinterTransport,
    private readonly replyTimeoutMs: number,
  ) {}

  async execute(buffer: Buffer, options: { waitForResponse?: boolean } = {}): Promise<Buffer | undefined> {
    if (options.waitForResponse) {
      return this.transport.exchange(buffer, { replyBytes: 1, timeoutMs: this.replyTimeoutMs });
    }
    await this.transport.send(buffer, { timeoutMs: this.replyTimeoutMs });
    return undefined;
  }

  async isPrinterConnected(): Promise<boolean> {
    return this.transport.isReachable();
  }
}
