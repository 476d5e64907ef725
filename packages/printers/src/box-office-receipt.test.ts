import {
  allocateTenders,
  buildBoxOfficeReceipt,
  listedTicketCode,
  newId,
  type ReceiptLanguage,
} from '@tz/core';
import { printDocumentSchema } from '@tz/core/receipt-schema';
import { describe, expect, it } from 'vitest';
import { COLUMNS } from './config.ts';
import { decodeJob, formatItems } from './decoder.ts';
import { renderReceipt } from './render.ts';

const event = newId('ticketedEvent');
const tier = newId('eventTier');
const codes = [0, 1].map(() => listedTicketCode({ event, ticket: newId('ticket'), tier })!);

const receipt = (language: ReceiptLanguage) =>
  buildBoxOfficeReceipt({
    event: { name: 'Sauti za Busara', venue: 'Ngome Kongwe', doorsOpenAt: 1_790_000_000 },
    lines: [{ tierName: 'Mlangoni', quantity: 2, unitPrice: 15_000 }],
    tickets: codes.map((code) => ({ tierName: 'Mlangoni', code })),
    tenders: allocateTenders({
      currency: 'TZS',
      amountDue: 30_000,
      tenders: [{ method: 'cash', amount: 40_000 }],
    }),
    store: {
      name: 'Ngome Kongwe Box Office',
      addressLines: ['Stone Town'],
      vatRegion: 'mainland',
      receiptHeaderLines: [],
      receiptFooterLines: ['Asante'],
      receiptLanguage: language,
    },
    receiptNumber: 'T01-000042',
    issuedAt: new Date('2026-11-28T18:00:00Z'),
    cashier: 'Asha',
    till: 'Lango Kuu',
  });

describe('a box office’s receipt on paper', () => {
  it.each([
    ['sw', 'epson', 80],
    ['en', 'star', 58],
  ] as const)(
    'prints the sale, then each ticket with its QR code (%s, %s %imm)',
    (language, commandSet, width) => {
      const document = receipt(language);
      expect(printDocumentSchema.safeParse(document).success).toBe(true);
      const items = decodeJob(renderReceipt(document, { commandSet, paperWidth: width }), commandSet);
      expect(
        items.filter((item) => item.kind === 'qr').map((item) => item.kind === 'qr' && item.data),
      ).toEqual(codes);
      const text = formatItems(items, COLUMNS[width]);
      const titles = text.replace(/ /g, ''); // titles print double width, their letters spaced
      expect(titles).toContain(language === 'sw' ? 'TIKETI1/2' : 'TICKET1/2');
      expect(titles).toContain(language === 'sw' ? 'TIKETI2/2' : 'TICKET2/2');
      expect(text).toContain('Sauti za Busara: Mlangoni');
      expect(text).toContain(language === 'sw' ? 'Milango inafunguliwa: ' : 'Doors open: ');
      expect(items.filter((item) => item.kind === 'unknown')).toEqual([]);
    },
  );
});
