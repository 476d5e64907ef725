/**
 * A box office's receipt: the sale as a shop's receipt prints it (a line per
 * tier, the tenders, the change), then each ticket on its own with what it
 * admits to and its QR code, which any door of the event scans.
 */
import { RECEIPT_LABELS, type ReceiptDocument, type ReceiptLanguage } from '../receipt.ts';
import { RETAIL_RECEIPT_TEXT, tenderLine, type StoreReceiptSettings } from '../retail/receipt-builder.ts';
import type { TenderAllocation } from '../retail/tender.ts';
import { formatEastAfricaTime, shopDateTime } from '../time.ts';

const TICKET_WORDS: Record<ReceiptLanguage, { ticket: string; doorsOpen: string }> = {
  en: { ticket: 'TICKET', doorsOpen: 'Doors open' },
  sw: { ticket: 'TIKETI', doorsOpen: 'Milango inafunguliwa' },
};

export interface BoxOfficeReceiptInput {
  event: { name: string; venue: string; /** Unix seconds. */ doorsOpenAt: number };
  lines: ReadonlyArray<{ tierName: string; quantity: number; unitPrice: number }>;
  tickets: ReadonlyArray<{ tierName: string; code: string }>;
  tenders: TenderAllocation;
  store: StoreReceiptSettings;
  receiptNumber: string;
  issuedAt: Date;
  cashier?: string | undefined;
  till?: string | undefined;
}

export function buildBoxOfficeReceipt(input: BoxOfficeReceiptInput): ReceiptDocument {
  const language = input.store.receiptLanguage;
  const words = TICKET_WORDS[language];
  const total = input.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);
  const opens = shopDateTime(formatEastAfricaTime(new Date(input.event.doorsOpenAt * 1000)));
  const receipt: ReceiptDocument = {
    language,
    currency: input.tenders.currency,
    store: {
      name: input.store.name,
      addressLines: [...input.store.addressLines],
      headerLines: [...input.store.receiptHeaderLines],
    },
    receiptNumber: input.receiptNumber,
    issuedAt: formatEastAfricaTime(input.issuedAt),
    lines: input.lines.map((line) => ({
      description: `${input.event.name}: ${line.tierName}`,
      quantityText: String(line.quantity),
      quantityMilli: line.quantity * 1000,
      unitPrice: line.unitPrice,
      total: line.quantity * line.unitPrice,
    })),
    subtotal: total,
    taxLines: [],
    total,
    tenders: input.tenders.tenders.map((tender) => tenderLine(tender, RETAIL_RECEIPT_TEXT[language])),
    change: input.tenders.change,
    tickets: input.tickets.map((ticket, index) => ({
      title: `${words.ticket} ${index + 1}/${input.tickets.length}`,
      lines: [
        input.event.name,
        ticket.tierName,
        input.event.venue,
        ...(opens ? [`${words.doorsOpen}: ${opens.date} ${opens.time}`] : []),
      ].map((line) => line.slice(0, 200)),
      code: ticket.code,
    })),
    footerLines: [...input.store.receiptFooterLines],
    labels: { ...RECEIPT_LABELS[language] },
  };
  if (input.store.phone !== undefined) receipt.store.phone = input.store.phone;
  if (input.store.tin !== undefined) receipt.store.tin = input.store.tin;
  if (input.store.vrn !== undefined) receipt.store.vrn = input.store.vrn;
  if (input.cashier !== undefined) receipt.cashier = input.cashier;
  if (input.till !== undefined) receipt.till = input.till;
  return receipt;
}
