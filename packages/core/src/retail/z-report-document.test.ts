import { describe, expect, it } from 'vitest';
import { buildZReportDocument, type ZReportFigures } from './z-report-document.ts';

const figures = (overrides: Partial<ZReportFigures> = {}): ZReportFigures => ({
  shift: 'shf_01kb3m8q9r2t4v6w8y0z1a2b3c',
  cashier: 'Asha',
  openedAt: Date.parse('2026-11-25T05:00:00Z'),
  closedAt: Date.parse('2026-11-25T15:05:00Z'),
  currency: 'TZS',
  sales: { count: 3, total: 20_000 },
  byMethod: { cash: 12_000, mobile_money: 8_000, card: 0 },
  refunds: { count: 0, total: 0 },
  voids: 0,
  openingFloat: 10_000,
  payIns: 0,
  payOuts: 0,
  deskCash: 0,
  expectedCash: 22_000,
  countedCash: 22_000,
  difference: 0,
  noSales: 0,
  cashiers: [{ name: 'Asha', count: 3, sales: 20_000, refunds: 0, noSales: 0 }],
  ...overrides,
});

const store = { name: 'Duka la Mama Asha', addressLines: ['Kariakoo'] };
const rows = (language: 'sw' | 'en', overrides: Partial<ZReportFigures> = {}) =>
  buildZReportDocument({ report: figures(overrides), language, store }).sections.flatMap((s) => s.rows);

describe('Z report document', () => {
  it('is in the store’s receipt language, with times in East Africa Time', () => {
    const sw = buildZReportDocument({ report: figures(), language: 'sw', store, till: 'Kaunta 1' });
    expect(sw).toMatchObject({ kind: 'z_report', title: 'RIPOTI YA Z', currency: 'TZS', store });
    expect(sw.details).toEqual([
      { label: 'Zamu', value: { text: '0z1a2b3c' } },
      { label: 'Keshia', value: { text: 'Asha' } },
      { label: 'Kituo', value: { text: 'Kaunta 1' } },
      { label: 'Ilifunguliwa', value: { time: '2026-11-25T08:00:00+03:00' } },
      { label: 'Ilifungwa', value: { time: '2026-11-25T18:05:00+03:00' } },
      { label: 'Kiasi kwa', value: { text: 'TZS' } },
    ]);
    const en = buildZReportDocument({ report: figures(), language: 'en', store });
    expect(en.title).toBe('Z REPORT');
    expect(en.details.map((row) => row.label)).toEqual([
      'Shift',
      'Cashier',
      'Opened',
      'Closed',
      'Amounts in',
    ]);
  });

  it('prints money going out as negative amounts, never -0, and derives the cash refunds from the expected cash', () => {
    const printed = rows('en', {
      refunds: { count: 1, total: 1_500 },
      payOuts: 2_000,
      expectedCash: 22_000 - 1_000 - 2_000,
    });
    const amountOf = (label: string) => printed.find((row) => row.label === label)?.value;
    expect(amountOf('Refunds (1)')).toEqual({ amount: -1_500 });
    expect(amountOf('Cash refunds')).toEqual({ amount: -1_000 });
    expect(amountOf('Paid out')).toEqual({ amount: -2_000 });
    expect(Object.is((amountOf('Paid in') as { amount: number }).amount, 0)).toBe(true);
    expect(
      Object.is(
        (rows('en').find((row) => row.label === 'Cash refunds')!.value as { amount: number }).amount,
        0,
      ),
    ).toBe(true);
  });

  it('splits the sales by cashier when more than one sold, naming one who is not known', () => {
    expect(rows('sw').some((row) => row.label.startsWith('Asha'))).toBe(false);
    const split = buildZReportDocument({
      report: figures({
        cashiers: [
          { name: 'Asha', count: 2, sales: 15_000, refunds: 500, noSales: 1 },
          { name: '', count: 1, sales: 5_000, refunds: 0, noSales: 0 },
        ],
      }),
      language: 'sw',
      store,
    }).sections.at(-1);
    expect(split).toEqual({
      heading: 'Kwa kila keshia',
      rows: [
        { label: 'Asha (mauzo 2)', value: { amount: 15_000 } },
        { label: 'Marejesho', value: { amount: -500 }, indent: true },
        { label: 'Droo bila mauzo', value: { text: '1' }, indent: true },
        { label: 'Bila jina (mauzo 1)', value: { amount: 5_000 } },
      ],
    });
  });

  it('prints the front desk’s cash in the drawer only when there was some, and the drawer still adds up', () => {
    const rows = (document: ReturnType<typeof buildZReportDocument>) =>
      document.sections.flatMap((section) => section.rows.map((row) => row.label));
    const store = { name: 'Mwambao', addressLines: [] };
    const none = buildZReportDocument({ report: figures(), language: 'en', store });
    expect(rows(none)).not.toContain('Front desk cash');
    const desk = buildZReportDocument({
      report: figures({ deskCash: 30_000, expectedCash: 52_000, countedCash: 52_000 }),
      language: 'sw',
      store,
    });
    const drawer = desk.sections[1]!.rows;
    expect(drawer.map((row) => row.label)).toContain('Taslimu ya mapokezi');
    // No refunds: the cash refunds row stays 0 with the desk's cash in the expected amount.
    expect(drawer.find((row) => row.label === 'Marejesho taslimu')?.value).toEqual({ amount: 0 });
    expect(drawer.find((row) => row.label === 'Taslimu ya mapokezi')?.value).toEqual({ amount: 30_000 });
  });
});
