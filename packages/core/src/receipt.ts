/**
 * A printer-independent receipt. Retail builds it from an order; the printers
 * package renders it to ESC/POS for 58 mm or 80 mm paper. Every amount is an
 * integer in the currency's smallest unit; text is already in the receipt's
 * language.
 */
export type ReceiptLanguage = 'sw' | 'en';

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
  footerLines: string[];
  /** Labels in the receipt's language, so renderers hold no translations. */
  labels: ReceiptLabels;
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
