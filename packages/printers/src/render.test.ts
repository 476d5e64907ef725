import { describe, expect, it } from 'vitest';
import { CODE_PAGES, type CodePage } from './code-pages.ts';
import { COLUMNS, type CommandSet, type PaperWidth } from './config.ts';
import { decodeJob, formatItems, type DecodedItem } from './decoder.ts';
import { PrinterError } from './errors.ts';
import { makeKitchenTicket, makeLine, makeLongReceipt, makeReceipt } from '../test/fixtures.ts';
import { renderDrawerKick, renderKitchenTicket, renderReceipt, renderText } from './render.ts';
import { expectSnapshot, hexDump } from '../test/snapshots.ts';

const COMBINATIONS: [CommandSet, PaperWidth][] = [
  ['epson', 80],
  ['epson', 58],
  ['star', 80],
  ['star', 58],
];

function lines(items: DecodedItem[]): string[] {
  return items.flatMap((item) => (item.kind === 'line' ? [item.segments.map((s) => s.text).join('')] : []));
}

function visualWidth(item: Extract<DecodedItem, { kind: 'line' }>): number {
  return item.segments.reduce((sum, s) => sum + s.text.trimEnd().length * s.width, 0);
}

describe.each(COMBINATIONS)('receipt round trip on %s %imm', (commandSet, paperWidth) => {
  const receipt = makeReceipt();
  const bytes = renderReceipt(receipt, { commandSet, paperWidth, openCashDrawer: true });
  const items = decodeJob(bytes, commandSet);
  const columns = COLUMNS[paperWidth];

  it('matches the byte-exact and decoded snapshots', () => {
    expectSnapshot(`receipt.${commandSet}.${paperWidth}.hex`, hexDump(bytes));
    expectSnapshot(`receipt.${commandSet}.${paperWidth}.txt`, formatItems(items, columns));
  });

  it('decodes without unknown commands', () => {
    expect(items.filter((item) => item.kind === 'unknown')).toEqual([]);
  });

  it('keeps every printed line within the paper width', () => {
    for (const item of items)
      if (item.kind === 'line') expect(visualWidth(item)).toBeLessThanOrEqual(columns);
  });

  it('prints the store name large and bold, centred', () => {
    const header = items.find(
      (item) => item.kind === 'line' && item.segments.some((s) => s.text.includes('Duka la Mama')),
    );
    expect(header).toMatchObject({
      kind: 'line',
      align: 'center',
      segments: [{ bold: true, width: 2, height: 2 }],
    });
  });

  it('right-aligns the total in double height and bold', () => {
    const total = items.find(
      (item) => item.kind === 'line' && item.segments.some((s) => s.text.startsWith('JUMLA TZS')),
    );
    expect(total).toMatchObject({ segments: [{ bold: true, height: 2, width: 1 }] });
    const text = total?.kind === 'line' ? total.segments[0]!.text : '';
    expect(text).toHaveLength(columns);
    expect(text.trimEnd().endsWith('20,000')).toBe(true);
  });

  it('prints tax lines, accented names, the QR payload and the receipt number barcode', () => {
    const text = lines(items);
    expect(text.some((line) => line.startsWith('VAT 18% (A) 15,254') && line.includes('2,746'))).toBe(true);
    expect(text).toContain('Café Touba (Sénégal) 250g');
    expect(items).toContainEqual(expect.objectContaining({ kind: 'qr', data: receipt.qrPayload }));
    expect(items).toContainEqual({ kind: 'barcode', symbology: 'CODE128', data: 'R-000123' });
  });

  it('ends with one cut and then the drawer kick', () => {
    const kinds = items.map((item) => item.kind);
    expect(kinds.filter((kind) => kind === 'cut')).toHaveLength(1);
    expect(kinds.indexOf('drawer')).toBeGreaterThan(kinds.indexOf('cut'));
  });
});

describe('character sets', () => {
  function renderName(
    name: string,
    codePage: CodePage,
    commandSet: CommandSet = 'epson',
  ): { bytes: Buffer; text: string[] } {
    const bytes = renderText(name, { codePage, commandSet });
    return { bytes, text: lines(decodeJob(bytes, commandSet)) };
  }

  it('prints characters the code page holds as themselves', () => {
    expect(renderName('Café Noël ñandú', 'PC437').text).toEqual(['Café Noël ñandú']);
    expect(renderName('Prix 5 €', 'PC858').text).toEqual(['Prix 5 €']);
  });

  it('transliterates what the code page lacks instead of switching to a table the printer may not have', () => {
    const { bytes, text } = renderName('Prix 5 € “spécial” – Łódź ✓', 'PC437');
    expect(text).toEqual(['Prix 5 EUR "spécial" - Lódz ?']); // ó is in PC437, Ł and ź are not;
    const selects = decodeJob(bytes, 'epson').filter((item) => item.kind === 'code_page');
    expect(selects).toEqual([{ kind: 'code_page', codePage: 'PC437' }]);
  });

  it('turns control characters in text into spaces so names cannot inject commands', () => {
    const bytes = renderReceipt(
      makeReceipt({ lines: [makeLine({ description: 'Soda\x1bd\x05\x1dV\x00' })] }),
    );
    const items = decodeJob(bytes, 'epson');
    expect(items.filter((item) => item.kind === 'cut')).toHaveLength(1);
    expect(items.filter((item) => item.kind === 'feed')).toHaveLength(1);
    expect(lines(items)).toContain('Soda d  V');
  });

  it.each(
    Object.entries(CODE_PAGES).flatMap(([name, info]) =>
      (['epson', 'star'] as const)
        .filter((set) => info.table[set] !== undefined)
        .map((set) => [name as CodePage, set] as const),
    ),
  )('selects %s on %s with the table number the decoder reads back', (codePage, commandSet) => {
    const items = decodeJob(renderText('x', { codePage, commandSet }), commandSet);
    expect(items[0]).toEqual({ kind: 'code_page', codePage });
  });

  it('refuses a code page the command set cannot select', () => {
    expect(() => renderText('x', { codePage: 'PC850', commandSet: 'star' })).toThrow(PrinterError);
  });
});

describe('kitchen tickets and text jobs', () => {
  it('renders a kitchen ticket with large bold items and no prices', () => {
    const bytes = renderKitchenTicket(makeKitchenTicket(), { paperWidth: 58 });
    const items = decodeJob(bytes, 'epson');
    expectSnapshot('kitchen.epson.58.hex', hexDump(bytes));
    expectSnapshot('kitchen.epson.58.txt', formatItems(items, 32));
    expect(items).toContainEqual(
      expect.objectContaining({
        kind: 'line',
        segments: [expect.objectContaining({ text: '2 x Chipsi mayai', bold: true, height: 2 })],
      }),
    );
    expect(lines(items).join('\n')).not.toMatch(/\d,\d{3}/);
  });

  it('renders a kitchen ticket for a Star bar printer', () => {
    const bytes = renderKitchenTicket(makeKitchenTicket({ station: 'Bar' }), {
      commandSet: 'star',
      paperWidth: 80,
    });
    const items = decodeJob(bytes, 'star');
    expectSnapshot('kitchen.star.80.txt', formatItems(items, 48));
    expect(items.filter((item) => item.kind === 'unknown')).toEqual([]);
  });

  it('wraps plain text at word boundaries within the paper width and cuts', () => {
    const text =
      'Hii ni taarifa ndefu sana ambayo lazima ivunjwe katika mistari kadhaa kwenye karatasi ya 58mm.';
    const items = decodeJob(renderText(text, { paperWidth: 58 }), 'epson');
    const printed = lines(items);
    expect(printed.every((line) => line.length <= 32)).toBe(true);
    expect(printed.join(' ')).toBe(text);
    expect(items.at(-1)).toEqual({ kind: 'cut', partial: true });
  });
});

describe('receipt edge cases', () => {
  it('prints cents for currencies with minor units', () => {
    const receipt = makeReceipt({
      currency: 'USD',
      lines: [makeLine({ unitPrice: 1999, total: 1999 })],
      total: 1999,
    });
    expect(lines(decodeJob(renderReceipt(receipt), 'epson')).some((line) => line.includes('19.99'))).toBe(
      true,
    );
  });

  it('refuses an unknown currency rather than guessing its decimals', () => {
    expect(() => renderReceipt(makeReceipt({ currency: 'XYZ' }))).toThrow(/unknown currency/);
  });

  it('leaves out a barcode too wide for 58 mm paper', () => {
    const items = decodeJob(
      renderReceipt(makeReceipt({ receiptNumber: 'R-2026-11-25-TILL-01-000123' }), { paperWidth: 58 }),
      'epson',
    );
    expect(items.some((item) => item.kind === 'barcode')).toBe(false);
    expect(
      lines(items).some((line) => line.endsWith('R-2026-11-25-TILL-01-000123') || line.includes('000123')),
    ).toBe(true);
  });

  it('renders a 30-line receipt with every line present', () => {
    const text = lines(decodeJob(renderReceipt(makeLongReceipt(30)), 'epson'));
    expect(text.filter((line) => line.startsWith('Bidhaa namba '))).toHaveLength(30);
  });
});

describe('cash drawer', () => {
  it.each(['epson', 'star'] as const)(
    'a drawer-only %s job resets the printer and pulses pin 2, printing nothing',
    (commandSet) => {
      const bytes = renderDrawerKick({ commandSet });
      expectSnapshot(`drawer.${commandSet}.hex`, hexDump(bytes));
      const items = decodeJob(bytes, commandSet);
      expect(items.filter((item) => item.kind !== 'drawer')).toEqual([]);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ kind: 'drawer', pin: 2 });
    },
  );

  it('ends a cash receipt with the same pulse as the drawer-only job', () => {
    for (const commandSet of ['epson', 'star'] as const) {
      const kick = renderDrawerKick({ commandSet }).subarray(2);
      const receipt = renderReceipt(makeReceipt(), { commandSet, openCashDrawer: true });
      expect(receipt.subarray(receipt.length - kick.length)).toEqual(kick);
    }
  });
});
