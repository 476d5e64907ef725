import { PrinterError } from './errors.ts';

/** Where a printer is: a raw TCP socket (port 9100) or a USB device. */
export type Connection =
  | { kind: 'tcp'; host: string; port: number }
  /** Without ids: the first USB printer found (interface class 7). */
  | { kind: 'usb'; vendorId?: number; productId?: number };

export const DEFAULT_TCP_PORT = 9100;

const USB_IDS = /^usb:\/\/(?:0x)?([0-9a-f]{1,4}):(?:0x)?([0-9a-f]{1,4})$/i;

/**
 * Parses `tcp://host[:port]`, `usb://VID:PID` (hex, as `lsusb` shows them) or
 * `usb` (the first USB printer found).
 */
export function parseConnection(value: string): Connection {
  const text = value.trim();
  if (text === 'usb' || text === 'usb://') return { kind: 'usb' };
  const usb = USB_IDS.exec(text);
  if (usb) return { kind: 'usb', vendorId: parseInt(usb[1]!, 16), productId: parseInt(usb[2]!, 16) };
  if (text.startsWith('tcp://')) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw invalid(value);
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = url.port === '' ? DEFAULT_TCP_PORT : Number(url.port);
    if (!host || (url.pathname !== '' && url.pathname !== '/')) throw invalid(value);
    return { kind: 'tcp', host, port };
  }
  throw invalid(value);
}

function invalid(value: string): PrinterError {
  return new PrinterError(
    'invalid_config',
    `Cannot read printer connection "${value}": use tcp://HOST:9100, usb://VID:PID (e.g. usb://04b8:0202) or usb.`,
  );
}

function hex4(value: number): string {
  return value.toString(16).padStart(4, '0');
}

export function formatConnection(connection: Connection): string {
  if (connection.kind === 'tcp') {
    const host = connection.host.includes(':') ? `[${connection.host}]` : connection.host;
    return `tcp://${host}:${connection.port}`;
  }
  if (connection.vendorId === undefined || connection.productId === undefined) return 'usb';
  return `usb://${hex4(connection.vendorId)}:${hex4(connection.productId)}`;
}
