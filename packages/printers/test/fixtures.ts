import { buildZReportDocument, type ZReportFigures } from '@tz/core';
import {
  RECEIPT_LABELS,
  type ReceiptDocument,
  type ReceiptLanguage,
  type ReceiptLine,
  type ZReportDocument,
} from '@tz/core/receipt';
import type { KitchenTicket } from '../src/render.ts';

/**
 * Fixture builders for tests and the benchmark: a realistic Dar es Salaam shop
 * receipt with accented and symbol-bearing names that must not print as garbage.
 */
export function makeReceipt(overrides: Partial<ReceiptDocument> = {}): ReceiptDocument {
  return {
    language: 'sw',
    currency: 'TZS',
    store: {
      name: 'Duka la Mama Asha',
      addressLines: ['Mtaa wa Samora 12', 'Dar es Salaam'],
      phone: '+255 712 345 678',
      tin: '123-456-789',
      vrn: '40-012345-K',
      headerLines: ['Karibu tena!'],
    },
    receiptNumber: 'R-000123',
    issuedAt: '2026-11-25T14:03:00+03:00',
    cashier: 'Asha',
    till: 'Kaunta 1',
    lines: [
      makeLine({
        description: 'Unga wa mahindi 2kg',
        quantityText: '2',
        quantityMilli: 2000,
        unitPrice: 3_500,
        total: 7_000,
      }),
      makeLine({
        description: 'Café Touba (Sénégal) 250g',
        quantityText: '1',
        quantityMilli: 1000,
        unitPrice: 12_000,
        total: 11_000,
        discount: { label: 'Punguzo 1,000', amount: 1_000 },
      }),
      makeLine({
        description: 'Sukari',
        quantityText: '0.75 kg',
        quantityMilli: 750,
        unitPrice: 3_000,
        total: 2_250,
        taxCode: 'C',
      }),
    ],
    subtotal: 20_250,
    orderDiscount: { label: 'Mteja wa kudumu', amount: 250 },
    taxLines: [
      { code: 'A', label: 'VAT 18%', rateBasisPoints: 1800, net: 15_254, tax: 2_746 },
      { code: 'C', label: 'Exempt 0%', rateBasisPoints: 0, net: 2_250, tax: 0 },
    ],
    total: 20_000,
    tenders: [
      { label: 'M-Pesa', amount: 15_000, reference: 'QK7H2L9XZ1' },
      { label: 'Taslimu', amount: 10_000 },
    ],
    change: 5_000,
    qrPayload: 'https://verify.tra.go.tz/R-000123',
    footerLines: ['Asante kwa kununua!', 'Bidhaa zilizouzwa hazirudishwi.'],
    labels: RECEIPT_LABELS.sw,
    ...overrides,
  };
}

export function makeLine(overrides: Partial<ReceiptLine> = {}): ReceiptLine {
  return {
    description: 'Maziwa fresh 500ml',
    quantityText: '1',
    quantityMilli: 1000,
    unitPrice: 1_500,
    total: 1_500,
    taxCode: 'A',
    ...overrides,
  };
}

/** A receipt of `count` item lines, for benchmarks and long-receipt tests. */
export function makeLongReceipt(count: number): ReceiptDocument {
  const lines = Array.from({ length: count }, (_, i) =>
    makeLine({
      description: `Bidhaa namba ${i + 1} (kifurushi)`,
      quantityText: String((i % 3) + 1),
      quantityMilli: ((i % 3) + 1) * 1000,
      unitPrice: 1_000 + i * 50,
      total: ((i % 3) + 1) * (1_000 + i * 50),
    }),
  );
  const total = lines.reduce((sum, line) => sum + line.total, 0);
  return makeReceipt({
    lines,
    subtotal: total,
    total,
    taxLines: [
      {
        code: 'A',
        label: 'VAT 18%',
        rateBasisPoints: 1800,
        net: Math.round(total / 1.18),
        tax: total - Math.round(total / 1.18),
      },
    ],
    tenders: [{ label: 'Taslimu', amount: total }],
    change: 0,
  });
}

export function makeKitchenTicket(overrides: Partial<KitchenTicket> = {}): KitchenTicket {
  return {
    station: 'Jikoni',
    orderReference: '#42',
    table: 'Meza 7',
    server: 'Juma',
    createdAt: '2026-11-25T19:41:00+03:00',
    items: [
      { quantityText: '2', name: 'Chipsi mayai', notes: ['pilipili kidogo'] },
      { quantityText: '1', name: 'Nyama choma ½ kg', notes: ['well done', 'kachumbari'] },
      { quantityText: '3', name: 'Chai ya tangawizi' },
    ],
    note: 'Mteja ana haraka',
    ...overrides,
  };
}

/** A day's shift at a busy counter, two cashiers, a refund, a void and a short drawer. */
export function makeZReportFigures(overrides: Partial<ZReportFigures> = {}): ZReportFigures {
  return {
    shift: 'shf_01kb3m8q9r2t4v6w8y0z1a2b3c',
    cashier: 'Asha',
    openedAt: Date.parse('2026-11-25T05:00:00Z'),
    closedAt: Date.parse('2026-11-25T15:05:00Z'),
    currency: 'TZS',
    sales: { count: 42, total: 1_234_500 },
    byMethod: { cash: 800_000, mobile_money: 421_000, card: 13_500 },
    refunds: { count: 1, total: 3_500 },
    voids: 1,
    openingFloat: 50_000,
    payIns: 20_000,
    payOuts: 15_000,
    deskCash: 0,
    expectedCash: 851_500,
    countedCash: 851_000,
    difference: -500,
    noSales: 2,
    cashiers: [
      { name: 'Asha', count: 30, sales: 900_000, refunds: 3_500, noSales: 2 },
      { name: 'Juma Mwinyimkuu', count: 12, sales: 334_500, refunds: 0, noSales: 0 },
    ],
    ...overrides,
  };
}

export function makeZReport(language: ReceiptLanguage = 'sw'): ZReportDocument {
  return buildZReportDocument({
    report: makeZReportFigures(),
    language,
    store: { name: 'Duka la Mama Asha', addressLines: ['Mtaa wa Samora 12', 'Dar es Salaam'] },
    till: 'Kaunta 1',
  });
}
