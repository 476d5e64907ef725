/**
 * Builds the printer-independent receipt for a paid retail order. All text is
 * chosen here in the store's receipt language, so printers hold no words.
 */
import { invalidField } from '../errors.ts';
import { RECEIPT_LABELS } from '../receipt.ts';
import type {
  ReceiptDocument,
  ReceiptLanguage,
  ReceiptLine,
  ReceiptTaxLine,
  ReceiptTender,
} from '../receipt.ts';
import { formatBasisPoints } from './integer-math.ts';
import type { Discount, PricedCart, PricedLine, QuantityUnit } from './pricing.ts';
import { parseReceiptNumber } from './receipt-number.ts';
import type { VatRegion } from './tax.ts';
import type { AllocatedTender, TenderAllocation } from './tender.ts';
import { formatEastAfricaTime } from '../time.ts';

/** The store settings a receipt needs. */
export interface StoreReceiptSettings {
  name: string;
  addressLines: readonly string[];
  phone?: string | undefined;
  /** Taxpayer Identification Number. */
  tin?: string | undefined;
  /** VAT Registration Number. */
  vrn?: string | undefined;
  vatRegion: VatRegion;
  receiptHeaderLines: readonly string[];
  receiptFooterLines: readonly string[];
  receiptLanguage: ReceiptLanguage;
}

/** Retail words beyond the shared receipt labels. */
export interface RetailReceiptText {
  cash: string;
  mobileMoney: string;
  card: string;
  /** A sale charged to a hotel guest's room (their folio). */
  room: string;
  /** Prefix of a tax line: "VAT 18%". */
  vat: string;
  lineDiscount: string;
  orderDiscount: string;
  units: Record<QuantityUnit, string>;
  /** A reprint's mark. */
  copy: string;
  /** Titles of a refund's and a void's slip, what its receipt number row says, and its total's label. */
  refund: string;
  void: string;
  originalReceipt: string;
  refunded: string;
  voided: string;
  approvedBy: string;
}

export const RETAIL_RECEIPT_TEXT: Record<ReceiptLanguage, RetailReceiptText> = {
  en: {
    cash: 'Cash',
    mobileMoney: 'Mobile money',
    card: 'Card',
    room: 'Charged to room',
    vat: 'VAT',
    lineDiscount: 'Discount',
    orderDiscount: 'Order discount',
    units: { piece: '', kg: 'kg', litre: 'l', metre: 'm' },
    copy: 'COPY',
    refund: 'REFUND',
    void: 'VOID',
    originalReceipt: 'Original receipt',
    refunded: 'REFUNDED',
    voided: 'VOIDED',
    approvedBy: 'Approved by',
  },
  sw: {
    cash: 'Taslimu',
    mobileMoney: 'Pesa kwa simu',
    card: 'Kadi',
    room: 'Kwenye bili ya chumba',
    vat: 'Kodi (VAT)',
    lineDiscount: 'Punguzo',
    orderDiscount: 'Punguzo la jumla',
    units: { piece: '', kg: 'kg', litre: 'l', metre: 'm' },
    copy: 'NAKALA',
    refund: 'MAREJESHO',
    void: 'IMEBATILISHWA',
    originalReceipt: 'Risiti ya awali',
    refunded: 'IMEREJESHWA',
    voided: 'IMEBATILISHWA',
    approvedBy: 'Imeidhinishwa na',
  },
};

/** Brand names are the same in both languages. */
export const MOBILE_NETWORK_NAMES: Record<string, string> = {
  mpesa: 'M-Pesa',
  mixx: 'Mixx by Yas',
  airtel: 'Airtel Money',
  halotel: 'HaloPesa',
  ttcl: 'T-Pesa',
};

export interface RetailReceiptInput {
  order: PricedCart;
  tenders: TenderAllocation;
  store: StoreReceiptSettings;
  /** As issued by the till, e.g. T01-000123. */
  receiptNumber: string;
  issuedAt: Date;
  cashier?: string | undefined;
  till?: string | undefined;
  customer?: string | undefined;
  qrPayload?: string | undefined;
  /** A reprint: marked as a copy at the top. */
  copy?: boolean | undefined;
}

/** "2" for pieces, "0.750 kg" for measured goods. */
export function formatQuantity(quantityMilli: number, unit: QuantityUnit, language: ReceiptLanguage): string {
  if (unit === 'piece' && quantityMilli % 1000 === 0) return String(quantityMilli / 1000);
  const whole = Math.trunc(quantityMilli / 1000);
  const thousandths = (quantityMilli % 1000).toString().padStart(3, '0');
  const symbol = RETAIL_RECEIPT_TEXT[language].units[unit];
  return symbol === '' ? `${whole}.${thousandths}` : `${whole}.${thousandths} ${symbol}`;
}

/** Tax codes are letters by rate, highest first: in the usual one-rate cart, "A". */
function taxCode(position: number): string {
  return String.fromCharCode('A'.charCodeAt(0) + position);
}

function discountLabel(word: string, rule: Discount | undefined): string {
  return rule?.type === 'percent' ? `${word} ${formatBasisPoints(rule.basisPoints)}` : word;
}

/** 255712345678 -> "0712***678": the payer knows their number; the paper shows little of it. */
export function maskPhone(phone: string): string {
  const local = phone.startsWith('255') ? `0${phone.slice(3)}` : phone;
  return local.length < 8 ? local : `${local.slice(0, 4)}***${local.slice(-3)}`;
}

export function tenderLine(tender: AllocatedTender, text: RetailReceiptText): ReceiptTender {
  switch (tender.method) {
    case 'cash':
      // Cash shows what was handed over; the change line balances it.
      return { label: text.cash, amount: tender.amount };
    case 'mobile_money': {
      // The provider's reference is what the payer's SMS shows; until it is known, their number (masked).
      const network = tender.network === undefined ? undefined : MOBILE_NETWORK_NAMES[tender.network];
      const line: ReceiptTender = { label: network ?? text.mobileMoney, amount: tender.paid };
      const reference =
        tender.reference ?? (tender.phone === undefined ? undefined : maskPhone(tender.phone));
      if (reference !== undefined) line.reference = reference;
      return line;
    }
    case 'card':
      return { label: text.card, amount: tender.paid, reference: tender.reference };
    case 'room':
      return tender.room === undefined
        ? { label: text.room, amount: tender.paid }
        : { label: text.room, amount: tender.paid, reference: tender.room };
  }
}

export function buildRetailReceipt(input: RetailReceiptInput): ReceiptDocument {
  const { order, tenders, store } = input;
  const language = store.receiptLanguage;
  const text = RETAIL_RECEIPT_TEXT[language];

  if (parseReceiptNumber(input.receiptNumber) === null) {
    throw invalidField(
      'parameter_invalid',
      'receiptNumber',
      'must be a till prefix and sequence, e.g. T01-000123',
    );
  }
  if (tenders.currency !== order.currency) {
    throw invalidField(
      'currency_mismatch',
      'tenders.currency',
      `is ${tenders.currency} but the order is in ${order.currency}`,
    );
  }
  if (order.vatRegion !== undefined && order.vatRegion !== store.vatRegion) {
    throw invalidField(
      'parameter_invalid',
      'store.vatRegion',
      `is ${store.vatRegion} but the order was priced for ${order.vatRegion}`,
    );
  }
  if (tenders.amountDue !== order.total) {
    throw invalidField(
      'parameter_invalid',
      'tenders.amountDue',
      `is ${tenders.amountDue} but the order total is ${order.total}`,
    );
  }

  const codeByRate = new Map(
    order.taxBreakdown.map((group, position) => [group.rateBasisPoints, taxCode(position)]),
  );
  const taxLines = order.taxBreakdown.map((group, position): ReceiptTaxLine => ({
    code: taxCode(position),
    label: `${text.vat} ${formatBasisPoints(group.rateBasisPoints)}`,
    rateBasisPoints: group.rateBasisPoints,
    net: group.net,
    tax: group.tax,
  }));

  const lines = order.lines.map((line: PricedLine): ReceiptLine => {
    const receiptLine: ReceiptLine = {
      description: line.description,
      quantityText: formatQuantity(line.quantityMilli, line.unit, language),
      quantityMilli: line.quantityMilli,
      unitPrice: line.unitPrice,
      total: line.subtotal,
    };
    if (line.lineDiscount > 0) {
      receiptLine.discount = {
        label: discountLabel(text.lineDiscount, line.discountRule),
        amount: line.lineDiscount,
      };
    }
    const code = codeByRate.get(line.taxRateBasisPoints);
    if (code !== undefined) receiptLine.taxCode = code;
    return receiptLine;
  });

  const receipt: ReceiptDocument = {
    language,
    currency: order.currency,
    store: {
      name: store.name,
      addressLines: [...store.addressLines],
      headerLines: [...store.receiptHeaderLines],
    },
    receiptNumber: input.receiptNumber,
    issuedAt: formatEastAfricaTime(input.issuedAt),
    lines,
    subtotal: order.subtotal,
    taxLines,
    total: order.total,
    tenders: tenders.tenders.map((tender) => tenderLine(tender, text)),
    change: tenders.change,
    footerLines: [...store.receiptFooterLines],
    labels: { ...RECEIPT_LABELS[language] },
  };
  if (store.phone !== undefined) receipt.store.phone = store.phone;
  if (store.tin !== undefined) receipt.store.tin = store.tin;
  if (store.vrn !== undefined) receipt.store.vrn = store.vrn;
  if (input.cashier !== undefined) receipt.cashier = input.cashier;
  if (input.till !== undefined) receipt.till = input.till;
  if (input.customer !== undefined) receipt.customer = input.customer;
  if (input.qrPayload !== undefined) receipt.qrPayload = input.qrPayload;
  if (input.copy) receipt.copyMark = text.copy;
  if (order.orderDiscount > 0) {
    receipt.orderDiscount = {
      label: discountLabel(text.orderDiscount, order.orderDiscountRule),
      amount: order.orderDiscount,
    };
  }
  return receipt;
}

/** The receipt as a reprint prints it: the same, marked as a copy in its own language. */
export function receiptCopy(receipt: ReceiptDocument): ReceiptDocument {
  return { ...receipt, copyMark: RETAIL_RECEIPT_TEXT[receipt.language].copy };
}
