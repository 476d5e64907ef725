import { formatPrinterConnection, parsePrinterConnection, type PrinterConnection } from '@tz/core';
import { PrinterError } from './errors.ts';

/** Where a printer is: a raw TCP socket (port 9100) or a USB device. The syntax is core's, which the server validates with. */
export type Connection = PrinterConnection;

/**
 * Parses `tcp://host[:port]`, `usb://VID:PID` (hex, as `lsusb` shows them) or
 * `usb` (the first USB printer found).
 */
export function parseConnection(value: string): Connection {
  const parsed = parsePrinterConnection(value);
  if (!parsed) {
    throw new PrinterError(
      'invalid_config',
      `Cannot read printer connection "${value}": use tcp://HOST:9100, usb://VID:PID (e.g. usb://04b8:0202) or usb.`,
    );
  }
  return parsed;
}

export const formatConnection: (connection: Connection) => string = formatPrinterConnection;
