import { describe, expect, it } from 'vitest';
import { CODE_PAGE_COMMAND_SETS, PRINTER_CODE_PAGES, PRINTER_COMMAND_SETS } from '@tz/core';
import { CODE_PAGES } from './code-pages.ts';
import { formatConnection, parseConnection } from './connection.ts';

describe('code pages the server accepts', () => {
  it('are exactly the code pages this package has tables for', () => {
    expect(Object.keys(CODE_PAGES).sort()).toEqual([...PRINTER_CODE_PAGES].sort());
  });

  it('are available on the same command sets here as in core', () => {
    for (const name of PRINTER_CODE_PAGES) {
      const here = PRINTER_COMMAND_SETS.filter((set) => CODE_PAGES[name].table[set] !== undefined);
      expect(here, name).toEqual([...CODE_PAGE_COMMAND_SETS[name]]);
    }
  });
});

describe('printer connections', () => {
  it.each([
    ['tcp://192.168.1.50', { kind: 'tcp', host: '192.168.1.50', port: 9100 }, 'tcp://192.168.1.50:9100'],
    ['tcp://[fe80::1]:9101', { kind: 'tcp', host: 'fe80::1', port: 9101 }, 'tcp://[fe80::1]:9101'],
    ['usb://04B8:0202', { kind: 'usb', vendorId: 0x04b8, productId: 0x0202 }, 'usb://04b8:0202'],
    [' usb ', { kind: 'usb' }, 'usb'],
  ])('reads %s', (text, parsed, formatted) => {
    expect(parseConnection(text)).toEqual(parsed);
    expect(formatConnection(parseConnection(text))).toBe(formatted);
  });

  it.each(['lpt1', 'tcp://', 'tcp://host/path', 'usb://04b8', 'http://10.0.0.5:9100'])(
    'refuses %s',
    (text) => {
      expect(() => parseConnection(text)).toThrow(/Cannot read printer connection/);
    },
  );
});
