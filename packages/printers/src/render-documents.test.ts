import { buildRefundSlip, buildRegistrationCard, buildVoidSlip, receiptCopy } from '@tz/core';
import { describe, expect, it } from 'vitest';
import { COLUMNS } from './config.ts';
import { decodeJob, formatItems, type DecodedItem } from './decoder.ts';
import { makeReceipt, makeZReport } from '../test/fixtures.ts';
import { renderPrintDocument, renderReceipt, renderRows } from './render.ts';
import { expectSnapshot, hexDump } from '../test/snapshots.ts';

function lines(items: DecodedItem[]): string[] {
  return items.flatMap((item) => (item.kind === 'line' ? [item.segments.map((s) => s.text).join('')] : []));
}

/** A label and its value as one printed line of `width` columns. */
const row = (label: string, value: string, width: number) =>
  `${label.padEnd(width - value.length - 1)} ${value}`;

const lineWith = (items: DecodedItem[], text: string) =>
  items.find((item) => item.kind === 'line' && item.segments.some((s) => s.text.includes(text)));

describe('the Z report on paper', () => {
  it.each([
    ['sw', 'epson', 80],
    ['en', 'epson', 58],
    ['sw', 'star', 58],
  ] as const)(
    'matches the byte-exact and decoded snapshots in %s on %s %imm',
    (language, commandSet, width) => {
      const bytes = renderRows(makeZReport(language), { commandSet, paperWidth: width });
      const items = decodeJob(bytes, commandSet);
      expectSnapshot(`z-report.${language}.${commandSet}.${width}.hex`, hexDump(bytes));
      expectSnapshot(`z-report.${language}.${commandSet}.${width}.txt`, formatItems(items, COLUMNS[width]));
      expect(items.filter((item) => item.kind === 'unknown')).toEqual([]);
    },
  );

  it('puts each label and its value on one line, the value right-aligned and grouped', () => {
    const items = decodeJob(renderRows(makeZReport('sw'), { paperWidth: 58 }), 'epson');
    const text = lines(items);
    expect(text.every((line) => line.length <= 32)).toBe(true);
    expect(text).toContain(row('Mauzo (42)', '1,234,500', 32));
    expect(text).toContain(row('  Pesa kwa simu', '421,000', 32));
    expect(text).toContain(row('Tofauti', '-500', 32));
    // Local time (East Africa Time), not UTC: opened 05:00Z is 08:00 at the shop.
    expect(text).toContain(row('Ilifunguliwa:', '25/11/2026 08:00', 32));
    // A name too long for its line wraps, and its amount stays in the column.
    expect(text).toContain('Juma Mwinyimkuu (mauzo');
    expect(text).toContain(row('12)', '334,500', 32));
    expect(lineWith(items, 'Taslimu inayotarajiwa')).toMatchObject({ segments: [{ bold: true }] });
    expect(lineWith(items, 'RIPOTI YA Z')).toMatchObject({ align: 'center', segments: [{ width: 2 }] });
  });

  it('keeps the drawer rows adding up to the expected cash', () => {
    const text = lines(decodeJob(renderRows(makeZReport('en')), 'epson'));
    const amountOf = (label: string) => {
      const line = text.find((row) => row.startsWith(label));
      return Number(line?.slice(label.length).trim().replace(/,/g, ''));
    };
    const drawer =
      amountOf('Opening float') +
      amountOf('Cash sales') +
      amountOf('Cash refunds') +
      amountOf('Paid in') +
      amountOf('Paid out');
    expect(drawer).toBe(amountOf('Expected cash'));
    expect(amountOf('Cash refunds')).toBe(-3_500);
  });

  it('is printed by the one entry the till bridge uses, by its kind', () => {
    expect(renderPrintDocument(makeZReport('en'))).toEqual(renderRows(makeZReport('en')));
    expect(renderPrintDocument(makeReceipt())).toEqual(renderReceipt(makeReceipt()));
  });
});

describe('a guest’s registration card on paper', () => {
  it('prints the title, the stay and a signature line per guest, through the one entry', () => {
    const card = buildRegistrationCard({
      language: 'sw',
      property: { name: 'Stone Town Inn', addressLines: ['Shangani'] },
      reservation: { id: 'resv_1', room: '101', arrival: '2027-01-01', departure: '2027-01-03', nights: 2 },
      guests: [
        {
          name: 'Anna Müller',
          nationality: 'DE',
          id_type: 'passport',
          id_number: 'C01X00T47',
          id_country: 'DE',
          arriving_from: 'Arusha',
          going_to: 'Zanzibar',
        },
      ],
    });
    const printed = lines(decodeJob(renderPrintDocument(card, { paperWidth: 58 }), 'epson'));
    expect(printed).toContain('KADI YA USAJILI');
    expect(printed).toContain(row('Chumba:', '101', 32));
    expect(printed).toContain(row('Hati', 'Pasipoti C01X00T47', 32));
    expect(printed.some((line) => line.startsWith('Sahihi') && line.endsWith('____'))).toBe(true);
  });
});

describe('reprints, refunds and voids on paper', () => {
  it('marks a reprint as a copy in the receipt language, at the very top', () => {
    const original = lines(decodeJob(renderReceipt(makeReceipt()), 'epson'));
    expect(original.join('\n')).not.toMatch(/NAKALA|COPY/);

    const items = decodeJob(renderReceipt(receiptCopy(makeReceipt()), { paperWidth: 58 }), 'epson');
    expectSnapshot('receipt-copy.sw.epson.58.txt', formatItems(items, 32));
    const first = items.find((item) => item.kind === 'line');
    expect(first).toMatchObject({ align: 'center', segments: [{ text: '*** NAKALA ***', bold: true }] });
    const english = lines(decodeJob(renderReceipt(receiptCopy(makeReceipt({ language: 'en' }))), 'epson'));
    expect(english[0]!.trim()).toBe('*** COPY ***');
  });

  it('prints a refund slip naming the sale, with the lines and tenders given back and no change', () => {
    const sale = makeReceipt();
    const slip = buildRefundSlip({
      sale,
      paid: { cash: 5_000, mobile_money: 15_000, card: 0 },
      lines: [{ line: 0, quantityMilli: 1000, unit: 'piece', amount: 3_500, tax: 534 }],
      refundedBefore: 2_000,
      issuedAt: new Date('2026-11-26T07:30:00Z'),
      cashier: 'Neema',
      approvedBy: 'Bw. Juma',
    });
    const bytes = renderReceipt(slip, { paperWidth: 80, openCashDrawer: true });
    const items = decodeJob(bytes, 'epson');
    expectSnapshot('refund.sw.epson.80.hex', hexDump(bytes));
    expectSnapshot('refund.sw.epson.80.txt', formatItems(items, 48));
    const text = lines(items);
    expect(lineWith(items, 'MAREJESHO')).toMatchObject({ segments: [{ bold: true, width: 2 }] });
    expect(text).toContain(row('Risiti ya awali:', 'R-000123', 48));
    expect(text).toContain(row('Imeidhinishwa na:', 'Bw. Juma', 48));
    expect(text).toContain(row('Tarehe:', '26/11/2026 10:30', 48));
    // 2,000 of the sale's 5,000 cash went back before: 3,000 more cash, then 500 of the mobile money.
    expect(text).toContain(row('Taslimu', '3,000  ', 48));
    expect(text).toContain(row('Pesa kwa simu', '500  ', 48));
    expect(text.some((line) => line.startsWith('Chenji') || line.startsWith('Jumla ndogo'))).toBe(false);
  });

  it('prints a short void slip: the sale, its total and tenders, no lines', () => {
    const slip = buildVoidSlip({
      sale: makeReceipt({ language: 'en' }),
      paid: { cash: 5_000, mobile_money: 15_000, card: 0 },
      issuedAt: new Date('2026-11-25T11:10:00Z'),
      cashier: 'Asha',
      approvedBy: 'Juma',
    });
    const items = decodeJob(renderReceipt(slip, { paperWidth: 58 }), 'epson');
    expectSnapshot('void.en.epson.58.txt', formatItems(items, 32));
    const text = lines(items);
    expect(text.some((line) => line.includes('Unga wa mahindi'))).toBe(false);
    expect(text.some((line) => line.startsWith('VOIDED TZS') && line.trimEnd().endsWith('20,000'))).toBe(
      true,
    );
  });
});
