/**
 * A receipt printer's settings as the server stores them and a till reads
 * them: where it is, its paper, its command set and code page. The printers
 * package (Node-only) parses connections and picks code pages with these same
 * names, so a setting the API accepts is one the till can open.
 */
import { z } from 'zod';

export const PRINTER_COMMAND_SETS = ['epson', 'star'] as const;
export type PrinterCommandSet = (typeof PRINTER_COMMAND_SETS)[number];

export const PAPER_WIDTHS = [58, 80] as const;
export type PrinterPaperWidth = (typeof PAPER_WIDTHS)[number];

/** Single-byte code pages receipts are printed in (the printers package holds their tables). */
export const PRINTER_CODE_PAGES = ['PC437', 'PC850', 'PC858', 'WPC1252'] as const;
export type PrinterCodePage = (typeof PRINTER_CODE_PAGES)[number];

/** Which command sets have each code page; Star Line Mode has no PC850. */
export const CODE_PAGE_COMMAND_SETS: Readonly<Record<PrinterCodePage, readonly PrinterCommandSet[]>> = {
  PC437: ['epson', 'star'],
  PC850: ['epson'],
  PC858: ['epson', 'star'],
  WPC1252: ['epson', 'star'],
};

/** A printer's state as its till last saw it. */
export const PRINTER_STATUSES = ['unknown', 'ready', 'offline', 'paper_out', 'cover_open', 'error'] as const;
export type PrinterStatus = (typeof PRINTER_STATUSES)[number];

/** Where a printer is: a raw TCP socket (port 9100 by default) or a USB device. */
export type PrinterConnection =
  | { kind: 'tcp'; host: string; port: number }
  /** Without ids: the first USB printer found. */
  | { kind: 'usb'; vendorId?: number; productId?: number };

export const DEFAULT_TCP_PORT = 9100;

const USB_IDS = /^usb:\/\/(?:0x)?([0-9a-f]{1,4}):(?:0x)?([0-9a-f]{1,4})$/i;

/**
 * Reads `tcp://host[:port]`, `usb://VID:PID` (hex, as `lsusb` shows them) or
 * `usb` (the first USB printer found); null when it is none of these.
 */
export function parsePrinterConnection(value: string): PrinterConnection | null {
  const text = value.trim();
  if (text === 'usb' || text === 'usb://') return { kind: 'usb' };
  const usb = USB_IDS.exec(text);
  if (usb) return { kind: 'usb', vendorId: parseInt(usb[1]!, 16), productId: parseInt(usb[2]!, 16) };
  if (!text.startsWith('tcp://')) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? DEFAULT_TCP_PORT : Number(url.port);
  if (!host || (url.pathname !== '' && url.pathname !== '/') || url.search || url.hash || url.username)
    return null;
  return { kind: 'tcp', host, port };
}

const hex4 = (value: number): string => value.toString(16).padStart(4, '0');

/** The one spelling of a connection: `tcp://host:port`, `usb://vvvv:pppp` or `usb`. */
export function formatPrinterConnection(connection: PrinterConnection): string {
  if (connection.kind === 'tcp') {
    const host = connection.host.includes(':') ? `[${connection.host}]` : connection.host;
    return `tcp://${host}:${connection.port}`;
  }
  if (connection.vendorId === undefined || connection.productId === undefined) return 'usb';
  return `usb://${hex4(connection.vendorId)}:${hex4(connection.productId)}`;
}

/**
 * Where a till may send print jobs. Printers live on the shop's network, so
 * private addresses are right; the till's own machine (loopback), link-local
 * addresses (which hold the cloud metadata service), metadata names and
 * addresses no printer has (unspecified, multicast, broadcast) are not, and
 * the port is a printer's (JetDirect 9100 to 9109). Otherwise a key holder
 * could make a till connect to a service inside the shop (`tcp://127.0.0.1:22`)
 * and write to it. The server applies this at registration and the till's
 * bridge again at connect time, with the name resolved, under its operator's
 * allowance.
 */
export const PRINTER_PORTS: PortRange = { from: 9100, to: 9109 };

export interface PortRange {
  from: number;
  to: number;
}

/** What an operator lets through besides printer ports on the shop's network. */
export interface PrinterAllowance {
  /** Further ports, for a printer set to listen elsewhere. */
  ports?: readonly PortRange[] | undefined;
  /** Printers on this machine: a developer's or a test's virtual printer. */
  loopback?: boolean | undefined;
}

/** Reads `9200,9300-9310` (the operator's setting); null when it is not such a list. */
export function parsePortRanges(text: string): PortRange[] | null {
  const ranges: PortRange[] = [];
  for (const part of text.split(',').map((item) => item.trim())) {
    if (part === '') continue;
    const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(part);
    const from = Number(match?.[1]);
    const to = match?.[2] === undefined ? from : Number(match[2]);
    if (!match || from < 1 || to > 65_535 || from > to) return null;
    ranges.push({ from, to });
  }
  return ranges;
}

/**
 * A connection as the API takes it, stored in its one spelling (`tcp://10.0.0.5` becomes
 * `tcp://10.0.0.5:9100`). Its address and port are judged by `printerConnectionProblem`
 * (`@tz/core/printer-addresses`), under the
 * server's allowance, when a printer is saved.
 */
export const printerConnectionSchema = z
  .string()
  .max(300)
  .transform((value, ctx) => {
    const parsed = parsePrinterConnection(value);
    if (!parsed) {
      ctx.addIssue({ code: 'custom', message: 'must be tcp://HOST:PORT, usb://VID:PID (hex) or usb' });
      return z.NEVER;
    }
    return formatPrinterConnection(parsed);
  })
  .describe(
    `\`tcp://HOST:PORT\` (port 9100 when left out), \`usb://VID:PID\` (hex, as lsusb shows) or \`usb\` (the first USB printer the till finds). HOST is on the shop's network: loopback, link-local and cloud metadata addresses and names are refused, and PORT is a printer port (${PRINTER_PORTS.from} to ${PRINTER_PORTS.to}).`,
  );
