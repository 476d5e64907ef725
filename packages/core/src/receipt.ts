/**
 * Printer-independent documents for the receipt printer: a sale's receipt
 * (and the slips of its refunds and void, which share its layout) and a
 * shift's Z report. Retail builds them; the printers package renders them to
 * ESC/POS for 58 mm or 80 mm paper. Every amount is an integer in the
 * currency's smallest unit; text is already in the document's language.
 */
export type ReceiptLanguage = 'sw' | 'en';
export const RECEIPT_LANGUAGES = ['sw', 'en'] as const satisfies readonly ReceiptLanguage[];

export interface ReceiptStoreHeader {
  name: string;
  addressLines: string[];
  phone?: string;
  /** Taxpayer Identification Number. */
  tin?: string;
  /** VAT Registration Number. */
  vrn?: string;
  headerLines: string[];
}

export interface ReceiptLine {
  description: string;
  /** Quantity as shown, e.g. "2" or "0.75 kg". */
  quantityText: string;
  /** Quantity in thousandths, so weights stay integers (1 piece = 1000). */
  quantityMilli: number;
  unitPrice: number;
  /** Line total after the line discount, tax included. */
  total: number;
  discount?: { label: string; amount: number };
  /** Code of the tax rate that applies, matching a `ReceiptTaxLine.code`. */
  taxCode?: string;
}

export interface ReceiptTaxLine {
  code: string;
  /** The whole printed label, rate included: "Kodi (VAT) 18%". */
  label: string;
  /** Rate in basis points (1800 = 18%). */
  rateBasisPoints: number;
  /** Taxable amount excluding tax. */
  net: number;
  tax: number;
}

export interface ReceiptTender {
  label: string;
  amount: number;
  reference?: string;
}

export interface ReceiptDocument {
  language: ReceiptLanguage;
  currency: string;
  store: ReceiptStoreHeader;
  receiptNumber: string;
  /** ISO 8601 with offset, e.g. 2026-11-25T14:03:00+03:00. */
  issuedAt: string;
  cashier?: string;
  till?: string;
  customer?: string;
  lines: ReceiptLine[];
  subtotal: number;
  orderDiscount?: { label: string; amount: number };
  taxLines: ReceiptTaxLine[];
  total: number;
  tenders: ReceiptTender[];
  change: number;
  /** Payload of the QR code printed at the bottom (verification URL or order reference). */
  qrPayload?: string;
  /** Tickets sold at a box office: each printed under the sale with its QR code, the door's code. */
  tickets?: ReceiptTicket[];
  footerLines: string[];
  /** Labels in the receipt's language, so renderers hold no translations. */
  labels: ReceiptLabels;
  /**
   * A sale's receipt when absent. A refund's or a void's slip names the sale by
   * its `receiptNumber`; its lines, taxes, total and tenders are what goes back.
   */
  kind?: 'refund' | 'void';
  /** Printed large under the shop's header: "MAREJESHO" on a refund's slip. */
  title?: string;
  /** A reprint's mark, printed large at the very top: "NAKALA". The first print has none. */
  copyMark?: string;
  /** The manager who approved a refund or a void, with its label: "Imeidhinishwa na". */
  approvedBy?: { label: string; name: string };
}

/** A ticket printed on a receipt: its heading ("TIKETI 1/2"), what it admits to, and its code as a QR. */
export interface ReceiptTicket {
  title: string;
  lines: string[];
  code: string;
}

export interface ReceiptLabels {
  receipt: string;
  date: string;
  cashier: string;
  till: string;
  customer: string;
  subtotal: string;
  discount: string;
  total: string;
  change: string;
  tin: string;
  vrn: string;
}

export const RECEIPT_LABELS: Record<ReceiptLanguage, ReceiptLabels> = {
  en: {
    receipt: 'Receipt',
    date: 'Date',
    cashier: 'Cashier',
    till: 'Till',
    customer: 'Customer',
    subtotal: 'Subtotal',
    discount: 'Discount',
    total: 'TOTAL',
    change: 'Change',
    tin: 'TIN',
    vrn: 'VRN',
  },
  sw: {
    receipt: 'Risiti',
    date: 'Tarehe',
    cashier: 'Keshia',
    till: 'Kituo',
    customer: 'Mteja',
    subtotal: 'Jumla ndogo',
    discount: 'Punguzo',
    total: 'JUMLA',
    change: 'Chenji',
    tin: 'TIN',
    vrn: 'VRN',
  },
};

/**
 * A row of a Z report: an amount (printed grouped, in the report's currency),
 * a text as it prints (a count, a name), or an instant (ISO 8601 with offset,
 * printed as the shop's local day and time).
 */
export interface ZReportRow {
  label: string;
  value: { amount: number } | { text: string } | { time: string };
  /** A part of the row above it (a tender method of the sales). */
  indent?: boolean;
  /** Printed bold: the totals a manager reads first. */
  strong?: boolean;
}

/** What a document laid out by rows is: a shift's Z report, a guest's registration card or folio slip. */
export type RowsDocumentKind = 'z_report' | 'registration_card' | 'folio';
export const ROWS_DOCUMENT_KINDS = [
  'z_report',
  'registration_card',
  'folio',
] as const satisfies readonly RowsDocumentKind[];

/** A document for the receipt printer laid out by rows like a receipt: a title, the shop, label and value rows. */
export interface RowsDocument {
  kind: RowsDocumentKind;
  language: ReceiptLanguage;
  currency: string;
  /** "RIPOTI YA Z" */
  title: string;
  store: { name: string; addressLines: string[] };
  /** Which shift, who, where and when. */
  details: ZReportRow[];
  sections: Array<{ heading?: string; rows: ZReportRow[] }>;
}

/** A shift's Z report. */
export type ZReportDocument = RowsDocument & { kind: 'z_report' };

/** What a till sends its receipt printer. */
export type PrintDocument = ReceiptDocument | RowsDocument;
