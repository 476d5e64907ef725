import { describe, expect, it } from 'vitest';
import { printerAddressProblem, printerConnectionProblem } from './printer-addresses.ts';
import { parsePortRanges, parsePrinterConnection, type PrinterAllowance } from './printer-settings.ts';

const problem = (connection: string, allowance?: PrinterAllowance) =>
  printerConnectionProblem(parsePrinterConnection(connection)!, allowance);

describe('where a till may print', () => {
  it.each([
    'tcp://192.168.1.50:9100',
    'tcp://10.0.0.5:9109',
    'tcp://172.16.4.2',
    'tcp://[fd12:3456::7]:9100',
    'tcp://printer.local:9100',
    'tcp://duka-printer:9101',
    'usb',
    'usb://04b8:0202',
  ])('takes %s: a printer on the shop’s network, on a printer port', (connection) => {
    expect(problem(connection)).toBeNull();
  });

  it.each([
    ['tcp://127.0.0.1:22', 'port'],
    ['tcp://10.0.0.5:80', 'port'],
    ['tcp://169.254.169.254:80', 'port'],
    ['tcp://127.0.0.1:9100', 'host'],
    ['tcp://[::1]:9100', 'host'],
    ['tcp://[::ffff:127.0.0.1]:9100', 'host'],
    ['tcp://2130706433:9100', 'host'], // 127.0.0.1 to the system's resolver
    ['tcp://0x7f.1:9100', 'host'],
    ['tcp://127.1:9100', 'host'],
    ['tcp://localhost:9100', 'host'],
    ['tcp://till.localhost:9100', 'host'],
    ['tcp://169.254.169.254:9100', 'host'],
    ['tcp://169.254.10.20:9100', 'host'],
    ['tcp://[fe80::1]:9100', 'host'],
    ['tcp://[fd00:ec2::254]:9100', 'host'],
    ['tcp://metadata.google.internal:9100', 'host'],
    ['tcp://METADATA.GOOGLE.INTERNAL.:9100', 'host'],
    ['tcp://instance-data:9100', 'host'],
    ['tcp://0.0.0.0:9100', 'host'],
    ['tcp://255.255.255.255:9100', 'host'],
    ['tcp://224.0.0.1:9100', 'host'],
  ])('refuses %s, naming the %s', (connection, part) => {
    expect(problem(connection)?.part).toBe(part);
  });

  it('lets the operator allow further ports and printers on this machine, never metadata', () => {
    const developer: PrinterAllowance = { loopback: true, ports: parsePortRanges('9200,40000-65535')! };
    expect(problem('tcp://127.0.0.1:45123', developer)).toBeNull();
    expect(problem('tcp://localhost:9200', developer)).toBeNull();
    expect(problem('tcp://10.0.0.5:9201', developer)?.part).toBe('port');
    expect(problem('tcp://169.254.169.254:9100', developer)?.part).toBe('host');
    expect(problem('tcp://metadata.google.internal:9100', developer)?.part).toBe('host');
    expect(problem('tcp://[fe80::1]:9200', developer)?.part).toBe('host');
  });

  it('judges resolved addresses by the same rule', () => {
    expect(printerAddressProblem('192.168.1.50')).toBeNull();
    expect(printerAddressProblem('127.0.0.1')).toMatch(/loopback/);
    expect(printerAddressProblem('127.0.0.1', { loopback: true })).toBeNull();
    expect(printerAddressProblem('::ffff:169.254.169.254', { loopback: true })).toMatch(/metadata/);
  });

  it('reads the operator’s port list', () => {
    expect(parsePortRanges('')).toEqual([]);
    expect(parsePortRanges('9200, 9300-9310')).toEqual([
      { from: 9200, to: 9200 },
      { from: 9300, to: 9310 },
    ]);
    for (const bad of ['0', '70000', '9310-9300', 'ssh', '9100-'])
      expect(parsePortRanges(bad), bad).toBeNull();
  });
});
