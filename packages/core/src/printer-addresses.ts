/**
 * Where a till may send print jobs (see `PRINTER_PORTS` in printer-settings.ts):
 * the rule the server applies when a printer is saved and the till's bridge
 * again when it connects. A subpath of its own (`@tz/core/printer-addresses`),
 * not in core's index: its address parser stays out of the till's page, which
 * never judges addresses.
 */
import ipaddr from 'ipaddr.js';
import { blockedAddressKind } from './addresses.ts';
import {
  PRINTER_PORTS,
  type PortRange,
  type PrinterAllowance,
  type PrinterConnection,
} from './printer-settings.ts';

/** Names of cloud metadata services (their addresses are refused as link-local or metadata). */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
]);

const inRange = (port: number, range: PortRange) => port >= range.from && port <= range.to;

/**
 * Why a till may not print to this IP address, or null when it may. For a
 * resolved name too: the bridge judges every address a name resolves to.
 */
export function printerAddressProblem(address: string, allowance: PrinterAllowance = {}): string | null {
  const kind = blockedAddressKind(address);
  switch (kind) {
    case null:
    case 'private':
    case 'shared':
    case 'unique_local':
    case 'documentation':
      return null;
    case 'loopback':
      return allowance.loopback
        ? null
        : `${address} is this machine (loopback), not a printer on the shop's network`;
    case 'metadata':
      return `${address} is a cloud metadata address, not a printer`;
    case 'link_local':
      return `${address} is a link-local address; give the printer an address on the shop's network`;
    case 'unspecified':
    case 'multicast':
    case 'reserved':
    case 'invalid':
      return `${address} is not an address a printer can have`;
  }
}

/**
 * Why a till may not print to this connection, with the part at fault, or null.
 * A name is judged by what it says here (metadata names, `localhost`); the
 * bridge judges the addresses it resolves to when it connects.
 */
export function printerConnectionProblem(
  connection: PrinterConnection,
  allowance: PrinterAllowance = {},
): { part: 'host' | 'port'; message: string } | null {
  if (connection.kind === 'usb') return null;
  const { host, port } = connection;
  if (!inRange(port, PRINTER_PORTS) && !(allowance.ports ?? []).some((range) => inRange(port, range)))
    return {
      part: 'port',
      message: `port ${port} is not a printer port (${PRINTER_PORTS.from} to ${PRINTER_PORTS.to}, unless the till's operator allows it)`,
    };
  const name = host.toLowerCase().replace(/\.$/, '');
  // Hosts such as 2130706433 or 127.1 are IPv4 addresses to the system's resolver.
  const address = ipaddr.isValid(name) ? ipaddr.parse(name).toString() : null;
  if (address !== null) {
    const problem = printerAddressProblem(address, allowance);
    return problem === null ? null : { part: 'host', message: problem };
  }
  if (METADATA_NAMES.has(name))
    return { part: 'host', message: `${host} is a cloud metadata service, not a printer` };
  if ((name === 'localhost' || name.endsWith('.localhost')) && !allowance.loopback)
    return {
      part: 'host',
      message: `${host} is this machine (loopback), not a printer on the shop's network`,
    };
  return null;
}
