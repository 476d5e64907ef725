/**
 * The Z report as the receipt printer prints it: the shift's figures as
 * label and amount rows, in the store's receipt language, times in East
 * Africa Time, each cashier's part when more than one sold.
 */
import type { ReceiptLanguage, ZReportDocument, ZReportRow } from '../receipt.ts';
import type { TenderMethod } from './tender.ts';
import { formatEastAfricaTime } from '../time.ts';

/** A closed shift's figures, as the till reports them (and shows them on screen). */
export interface ZReportFigures {
  shift: string;
  cashier: string;
  /** Unix milliseconds, the till's clock. */
  openedAt: number;
  closedAt: number;
  currency: string;
  sales: { count: number; total: number };
  byMethod: Record<TenderMethod, number>;
  refunds: { count: number; total: number };
  voids: number;
  openingFloat: number;
  payIns: number;
  payOuts: number;
  /** Cash in shillings the front desk took into the drawer (deposits, folio payments); 0 without a desk. */
  deskCash: number;
  expectedCash: number;
  countedCash: number;
  /** counted − expected: negative when cash is short. */
  difference: number;
  /** Times the drawer was opened with no sale. */
  noSales: number;
  /** The shift is the till's: each cashier who sold in it, with their sales, the refunds of them and their no-sales. */
  cashiers: Array<{ name: string; count: number; sales: number; refunds: number; noSales: number }>;
}

export interface ZReportDocumentInput {
  report: ZReportFigures;
  language: ReceiptLanguage;
  store: { name: string; addressLines: readonly string[] };
  till?: string | undefined;
}

interface ZReportText {
  title: string;
  shift: string;
  cashier: string;
  till: string;
  opened: string;
  closed: string;
  currency: string;
  sales: (count: number) => string;
  cash: string;
  mobileMoney: string;
  card: string;
  refunds: (count: number) => string;
  voids: string;
  noSales: string;
  drawer: string;
  openingFloat: string;
  cashSales: string;
  cashRefunds: string;
  payIns: string;
  payOuts: string;
  deskCash: string;
  expectedCash: string;
  countedCash: string;
  difference: string;
  byCashier: string;
  cashierSales: (name: string, count: number) => string;
  cashierRefunds: string;
  nobody: string;
}

export const Z_REPORT_TEXT: Record<ReceiptLanguage, ZReportText> = {
  en: {
    title: 'Z REPORT',
    shift: 'Shift',
    cashier: 'Cashier',
    till: 'Till',
    opened: 'Opened',
    closed: 'Closed',
    currency: 'Amounts in',
    sales: (count) => `Sales (${count})`,
    cash: 'Cash',
    mobileMoney: 'Mobile money',
    card: 'Card',
    refunds: (count) => `Refunds (${count})`,
    voids: 'Voided sales',
    noSales: 'Drawer opened, no sale',
    drawer: 'Cash drawer',
    openingFloat: 'Opening float',
    cashSales: 'Cash sales',
    cashRefunds: 'Cash refunds',
    payIns: 'Paid in',
    payOuts: 'Paid out',
    deskCash: 'Front desk cash',
    expectedCash: 'Expected cash',
    countedCash: 'Counted cash',
    difference: 'Difference',
    byCashier: 'By cashier',
    cashierSales: (name, count) => `${name} (${count} sales)`,
    cashierRefunds: 'Refunds',
    nobody: 'Unnamed',
  },
  sw: {
    title: 'RIPOTI YA Z',
    shift: 'Zamu',
    cashier: 'Keshia',
    till: 'Kituo',
    opened: 'Ilifunguliwa',
    closed: 'Ilifungwa',
    currency: 'Kiasi kwa',
    sales: (count) => `Mauzo (${count})`,
    cash: 'Taslimu',
    mobileMoney: 'Pesa kwa simu',
    card: 'Kadi',
    refunds: (count) => `Marejesho (${count})`,
    voids: 'Mauzo yaliyobatilishwa',
    noSales: 'Droo bila mauzo',
    drawer: 'Droo ya fedha',
    openingFloat: 'Fedha ya kuanzia',
    cashSales: 'Mauzo taslimu',
    cashRefunds: 'Marejesho taslimu',
    payIns: 'Fedha iliyowekwa',
    payOuts: 'Fedha iliyotolewa',
    deskCash: 'Taslimu ya mapokezi',
    expectedCash: 'Taslimu inayotarajiwa',
    countedCash: 'Taslimu iliyohesabiwa',
    difference: 'Tofauti',
    byCashier: 'Kwa kila keshia',
    cashierSales: (name, count) => `${name} (mauzo ${count})`,
    cashierRefunds: 'Marejesho',
    nobody: 'Bila jina',
  },
};

const amount = (label: string, value: number, extra: Partial<ZReportRow> = {}): ZReportRow => ({
  label,
  value: { amount: value },
  ...extra,
});

/** What goes out prints negative; never as -0. */
const out = (value: number): number => 0 - value;

export function buildZReportDocument(input: ZReportDocumentInput): ZReportDocument {
  const { report, language } = input;
  const text = Z_REPORT_TEXT[language];
  const details: ZReportRow[] = [
    // The shift's id is long; its end tells shifts apart on paper, as the server's list shows it whole.
    { label: text.shift, value: { text: report.shift.slice(-8) } },
    { label: text.cashier, value: { text: report.cashier } },
    ...(input.till === undefined ? [] : [{ label: text.till, value: { text: input.till } }]),
    { label: text.opened, value: { time: formatEastAfricaTime(new Date(report.openedAt), 'openedAt') } },
    { label: text.closed, value: { time: formatEastAfricaTime(new Date(report.closedAt), 'closedAt') } },
    { label: text.currency, value: { text: report.currency } },
  ];
  // Expected cash = float + cash sales − cash refunds + pay-ins − pay-outs + desk cash (`zReport`), so the drawer's rows add up.
  const cashRefunds =
    report.openingFloat +
    report.byMethod.cash +
    report.payIns -
    report.payOuts +
    report.deskCash -
    report.expectedCash;
  const sections: ZReportDocument['sections'] = [
    {
      rows: [
        amount(text.sales(report.sales.count), report.sales.total, { strong: true }),
        amount(text.cash, report.byMethod.cash, { indent: true }),
        amount(text.mobileMoney, report.byMethod.mobile_money, { indent: true }),
        amount(text.card, report.byMethod.card, { indent: true }),
        amount(text.refunds(report.refunds.count), out(report.refunds.total)),
        { label: text.voids, value: { text: String(report.voids) } },
        { label: text.noSales, value: { text: String(report.noSales) } },
      ],
    },
    {
      heading: text.drawer,
      rows: [
        amount(text.openingFloat, report.openingFloat),
        amount(text.cashSales, report.byMethod.cash),
        amount(text.cashRefunds, out(cashRefunds)),
        amount(text.payIns, report.payIns),
        amount(text.payOuts, out(report.payOuts)),
        ...(report.deskCash > 0 ? [amount(text.deskCash, report.deskCash)] : []),
        amount(text.expectedCash, report.expectedCash, { strong: true }),
        amount(text.countedCash, report.countedCash, { strong: true }),
        amount(text.difference, report.difference, { strong: true }),
      ],
    },
  ];
  if (report.cashiers.length > 1) {
    sections.push({
      heading: text.byCashier,
      rows: report.cashiers.flatMap((part) => [
        amount(text.cashierSales(part.name || text.nobody, part.count), part.sales),
        ...(part.refunds > 0 ? [amount(text.cashierRefunds, out(part.refunds), { indent: true })] : []),
        ...(part.noSales > 0
          ? [
              {
                label: text.noSales,
                value: { text: String(part.noSales) },
                indent: true,
              } satisfies ZReportRow,
            ]
          : []),
      ]),
    });
  }
  return {
    kind: 'z_report',
    language,
    currency: report.currency,
    title: text.title,
    store: { name: input.store.name, addressLines: [...input.store.addressLines] },
    details,
    sections,
  };
}
