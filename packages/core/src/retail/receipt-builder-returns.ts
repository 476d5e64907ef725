/**
 * The slips a till prints when money goes back on a sale: a refund's (the
 * lines and amounts refunded, the tenders they leave by) and a void's (short:
 * the sale, its total and tenders). Both are receipt documents laid out like
 * the sale's receipt, in its language, naming it by its receipt number.
 */
import { RECEIPT_LABELS } from '../receipt.ts';
import type { ReceiptDocument, ReceiptLine, ReceiptTaxLine, ReceiptTender } from '../receipt.ts';
import type { QuantityUnit } from './pricing.ts';
import { RETAIL_RECEIPT_TEXT, formatQuantity, type RetailReceiptText } from './receipt-builder.ts';
import type { TenderMethod } from './tender.ts';
import { formatEastAfricaTime } from '../time.ts';
import { TENDER_METHODS, refundsByMethod, type PerMethod } from './z-report.ts';

export interface ReturnSlipInput {
  /** The sale's receipt as it printed. */
  sale: ReceiptDocument;
  /** What each method paid for the sale: cash net of the change given. */
  paid: PerMethod;
  issuedAt: Date;
  /** Who gave the money back, and the manager who approved it. */
  cashier?: string | undefined;
  approvedBy?: string | undefined;
}

export interface RefundSlipInput extends ReturnSlipInput {
  /** The refund's plan (`planRefund`): each line by its position in the sale, with the money and VAT it gives back. */
  lines: ReadonlyArray<{
    line: number;
    quantityMilli: number;
    unit: QuantityUnit;
    amount: number;
    tax: number;
  }>;
  /** What the sale's earlier refunds gave back: cash is given back first, so they used it first. */
  refundedBefore: number;
}

function methodLabel(method: TenderMethod, text: RetailReceiptText): string {
  switch (method) {
    case 'cash':
      return text.cash;
    case 'mobile_money':
      return text.mobileMoney;
    case 'card':
      return text.card;
  }
}

function tenderLines(back: PerMethod, text: RetailReceiptText): ReceiptTender[] {
  return TENDER_METHODS.filter((method) => back[method] > 0).map((method) => ({
    label: methodLabel(method, text),
    amount: back[method],
  }));
}

function slip(
  input: ReturnSlipInput,
  kind: 'refund' | 'void',
  money: { lines: ReceiptLine[]; taxLines: ReceiptTaxLine[]; total: number; back: PerMethod },
): ReceiptDocument {
  const { sale } = input;
  const text = RETAIL_RECEIPT_TEXT[sale.language];
  const document: ReceiptDocument = {
    kind,
    title: kind === 'refund' ? text.refund : text.void,
    language: sale.language,
    currency: sale.currency,
    store: sale.store,
    receiptNumber: sale.receiptNumber,
    issuedAt: formatEastAfricaTime(input.issuedAt),
    lines: money.lines,
    subtotal: money.total,
    taxLines: money.taxLines,
    total: money.total,
    tenders: tenderLines(money.back, text),
    change: 0,
    footerLines: [],
    labels: {
      ...RECEIPT_LABELS[sale.language],
      receipt: text.originalReceipt,
      total: kind === 'refund' ? text.refunded : text.voided,
    },
  };
  if (input.cashier !== undefined) document.cashier = input.cashier;
  if (input.approvedBy !== undefined)
    document.approvedBy = { label: text.approvedBy, name: input.approvedBy };
  if (sale.till !== undefined) document.till = sale.till;
  if (sale.customer !== undefined) document.customer = sale.customer;
  return document;
}

/** A refund's slip: each refunded line with what it gives back, the VAT in it, and the tenders it leaves by. */
export function buildRefundSlip(input: RefundSlipInput): ReceiptDocument {
  const { sale } = input;
  const lines: ReceiptLine[] = [];
  const taxByCode = new Map<string, { amount: number; tax: number }>();
  for (const refunded of input.lines) {
    const original = sale.lines[refunded.line];
    if (!original) continue;
    const line: ReceiptLine = {
      description: original.description,
      quantityText: formatQuantity(refunded.quantityMilli, refunded.unit, sale.language),
      quantityMilli: refunded.quantityMilli,
      unitPrice: original.unitPrice,
      total: refunded.amount,
    };
    if (original.taxCode !== undefined) {
      line.taxCode = original.taxCode;
      const sum = taxByCode.get(original.taxCode) ?? { amount: 0, tax: 0 };
      taxByCode.set(original.taxCode, { amount: sum.amount + refunded.amount, tax: sum.tax + refunded.tax });
    }
    lines.push(line);
  }
  const taxLines = sale.taxLines.flatMap((group): ReceiptTaxLine[] => {
    const sum = taxByCode.get(group.code);
    return sum ? [{ ...group, net: sum.amount - sum.tax, tax: sum.tax }] : [];
  });
  const total = lines.reduce((sum, line) => sum + line.total, 0);
  const before = refundsByMethod(input.refundedBefore, input.paid);
  const after = refundsByMethod(input.refundedBefore + total, input.paid);
  const back: PerMethod = { cash: 0, mobile_money: 0, card: 0 };
  for (const method of TENDER_METHODS) back[method] = after[method] - before[method];
  return slip(input, 'refund', { lines, taxLines, total, back });
}

/** A void's slip, short: the sale it undoes, its total and VAT, and what each tender gives back. */
export function buildVoidSlip(input: ReturnSlipInput): ReceiptDocument {
  return slip(input, 'void', {
    lines: [],
    taxLines: input.sale.taxLines,
    total: input.sale.total,
    back: input.paid,
  });
}
