import type { PrinterAllowance } from '@tz/core';
import { printerConnectionProblem } from '@tz/core/printer-addresses';
import { formatConnection as formatTarget, parseConnection, type Connection } from './connection.ts';
import { PrinterError } from './errors.ts';
import { DEFAULT_STATUS_TIMEOUT_MS } from './print.ts';
import { queryStatus, type PrinterStatus } from './status.ts';
import { TcpTransport } from './tcp-transport.ts';
import { DEFAULT_TIMEOUTS, type PrinterTransport, type TransportTimeouts } from './transport.ts';
import { UsbTransport, type UsbBus } from './usb-transport.ts';

export interface OpenOptions {
  timeouts?: Partial<TransportTimeouts>;
  /** USB device source; the system bus by default. */
  usbBus?: UsbBus;
  /**
   * For a connection that came from elsewhere (the server's printer list): the
   * printer rule, under the till operator's allowance, checked here and again
   * with the name resolved at each connect. Without it (a connection typed on
   * this machine's command line) any address is tried.
   */
  allowance?: PrinterAllowance | undefined;
}

/** Opens a transport for `tcp://host:9100`, `usb://VID:PID` or `usb`. Nothing connects until first use. */
export function openTransport(connection: string | Connection, options: OpenOptions = {}): PrinterTransport {
  const target = typeof connection === 'string' ? parseConnection(connection) : connection;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const problem = options.allowance && printerConnectionProblem(target, options.allowance);
  if (problem)
    throw new PrinterError('invalid_config', `Not printing to ${formatTarget(target)}: ${problem.message}.`);
  if (target.kind === 'tcp') return new TcpTransport(target.host, target.port, timeouts, options.allowance);
  return new UsbTransport({
    timeouts,
    ...(target.vendorId === undefined ? {} : { vendorId: target.vendorId }),
    ...(target.productId === undefined ? {} : { productId: target.productId }),
    ...(options.usbBus ? { bus: options.usbBus } : {}),
  });
}

/** Asks a printer for its status (`DLE EOT`); one that does not answer is reported offline. */
export async function getStatus(
  printer: string | Connection | PrinterTransport,
  options: OpenOptions & { timeoutMs?: number } = {},
): Promise<PrinterStatus> {
  const owned = typeof printer === 'string' || 'kind' in printer;
  const transport = owned ? openTransport(printer, options) : printer;
  try {
    return await queryStatus(transport, options.timeoutMs ?? DEFAULT_STATUS_TIMEOUT_MS);
  } finally {
    if (owned) await transport.close();
  }
}
