import { BreakLine, PrinterTypes, ThermalPrinter } from 'node-thermal-printer';
import type { CommandSet } from './config.ts';

type LibraryConfig = ConstructorParameters<typeof ThermalPrinter>[0];

/** node-thermal-printer as a command builder only: the transports send what it builds. */
export function createThermalPrinter(options: { commandSet: CommandSet; columns: number }): ThermalPrinter {
  const config = {
    type: options.commandSet === 'star' ? PrinterTypes.STAR : PrinterTypes.EPSON,
    width: options.columns,
    // Layout (wrapping, columns) is ours, so the library must not fold lines again.
    breakLine: BreakLine.NONE,
  };
  // The bundled typings require an `interface`, but the runtime builds commands without one.
  return new ThermalPrinter(config as unknown as LibraryConfig);
}
