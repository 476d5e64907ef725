/**
 * The invoice and its receipt as PDFs, laid out on the small writer in `pdf.ts`.
 * Runs in the PDF workers (`renderer.ts`): it imports only the parts of core the
 * layout needs, so a worker starts quickly.
 */
import { formatAmount } from '@tz/core/money';
import { formatBasisPoints } from '@tz/core/retail/integer-math';
import { eastAfricaDate } from '@tz/core/time';
import { INVOICE_LABELS, statusLabel, type InvoiceLanguage } from './labels.ts';
import type { InvoiceRow } from './object.ts';
import { PAGE, PdfDocument, wrap } from './pdf.ts';

export type DocumentKind = 'invoice' | 'receipt';

/**
 * The invoice's fields a document may show. The view holds these and nothing
 * else, so its fingerprint changes exactly when a stored copy would look
 * different (`stored-documents.ts`); a field the layout starts to use is added here.
 */
const SHOWN = [
  'number',
  'status',
  'currency',
  'lines',
  'tax_breakdown',
  'subtotal',
  'total',
  'amount_paid',
  'memo',
  'due_at',
  'created_at',
  'finalized_at',
] as const satisfies ReadonlyArray<keyof InvoiceRow>;

export type ShownInvoice = Pick<InvoiceRow, (typeof SHOWN)[number]>;

export const shownInvoice = (row: InvoiceRow): ShownInvoice =>
  Object.fromEntries(SHOWN.map((field) => [field, row[field]])) as ShownInvoice;

/** Everything a document shows. */
export interface DocumentView {
  invoice: ShownInvoice;
  businessName: string;
  customer: { name: string | null; email: string | null; phone: string | null };
  /** The payment that paid it, once paid. */
  payment: { id: string; phone: string; paidAt: Date; reference: string | null } | null;
  hostedUrl: string | null;
}

const LEFT = PAGE.margin;
const RIGHT = PAGE.width - PAGE.margin;
const COLUMNS = { quantity: 330, unitPrice: 410, vat: 460, amount: RIGHT };

function header(pdf: PdfDocument, view: DocumentView, title: string, language: InvoiceLanguage): void {
  const labels = INVOICE_LABELS[language];
  const { invoice } = view;
  pdf.text(LEFT, pdf.y, view.businessName, { size: 18, face: 'bold' });
  pdf.text(RIGHT, pdf.y, title.toUpperCase(), { size: 18, face: 'bold', align: 'right' });
  pdf.y -= 22;
  pdf.text(RIGHT, pdf.y, invoice.number ?? '', { size: 12, face: 'bold', align: 'right' });
  pdf.y -= 28;
  const facts: Array<[string, string]> = [
    [labels.number, invoice.number ?? ''],
    [labels.issued, eastAfricaDate(invoice.finalized_at ?? invoice.created_at)],
    [labels.due, eastAfricaDate(invoice.due_at)],
  ];
  const billTo = [view.customer.name, view.customer.phone, view.customer.email].filter(
    (line): line is string => Boolean(line),
  );
  pdf.text(LEFT, pdf.y, labels.billTo, { face: 'bold' });
  let left = pdf.y - 14;
  for (const line of billTo) {
    pdf.text(LEFT, left, line);
    left -= 13;
  }
  let right = pdf.y;
  for (const [label, value] of facts) {
    pdf.text(380, right, label, { face: 'bold' });
    pdf.text(RIGHT, right, value, { align: 'right' });
    right -= 14;
  }
  pdf.y = Math.min(left, right) - 16;
}

function lineTable(pdf: PdfDocument, view: DocumentView, language: InvoiceLanguage): void {
  const labels = INVOICE_LABELS[language];
  const { invoice } = view;
  const money = (amount: number) => formatAmount(amount, invoice.currency);
  const columnHeads = () => {
    pdf.text(LEFT, pdf.y, labels.description, { face: 'bold' });
    pdf.text(COLUMNS.quantity, pdf.y, labels.quantity, { face: 'bold', align: 'right' });
    pdf.text(COLUMNS.unitPrice, pdf.y, labels.unitPrice, { face: 'bold', align: 'right' });
    pdf.text(COLUMNS.vat, pdf.y, labels.vat, { face: 'bold', align: 'right' });
    pdf.text(COLUMNS.amount, pdf.y, labels.amount, { face: 'bold', align: 'right' });
    pdf.rule(pdf.y - 5);
    pdf.y -= 20;
  };
  columnHeads();
  for (const line of invoice.lines) {
    const description = wrap(line.description, 10, COLUMNS.quantity - LEFT - 40);
    const before = pdf.y;
    pdf.ensureRoom(description.length * 13 + 6);
    if (pdf.y > before) columnHeads();
    pdf.text(COLUMNS.quantity, pdf.y, String(line.quantity), { align: 'right' });
    pdf.text(COLUMNS.unitPrice, pdf.y, money(line.unit_amount), { align: 'right' });
    pdf.text(COLUMNS.vat, pdf.y, formatBasisPoints(line.tax_rate_basis_points), { align: 'right' });
    pdf.text(COLUMNS.amount, pdf.y, money(line.amount), { align: 'right' });
    for (const text of description) {
      pdf.text(LEFT, pdf.y, text);
      pdf.y -= 13;
    }
    pdf.y -= 4;
  }
  pdf.rule(pdf.y + 8);
  pdf.y -= 8;
}

function totals(pdf: PdfDocument, view: DocumentView, language: InvoiceLanguage): void {
  const labels = INVOICE_LABELS[language];
  const { invoice } = view;
  const money = (amount: number) => formatAmount(amount, invoice.currency);
  const rows: Array<[string, string, boolean]> = [
    [labels.subtotal, money(invoice.subtotal), false],
    ...invoice.tax_breakdown
      .filter((group) => group.rate_basis_points > 0)
      .map((group): [string, string, boolean] => [
        `${labels.vat} ${formatBasisPoints(group.rate_basis_points)}`,
        money(group.tax),
        false,
      ]),
    [labels.total, money(invoice.total), true],
    [labels.amountPaid, money(invoice.amount_paid), false],
    [labels.amountDue, money(invoice.status === 'void' ? 0 : invoice.total - invoice.amount_paid), true],
  ];
  pdf.ensureRoom(rows.length * 16 + 40);
  for (const [label, value, strong] of rows) {
    const face = strong ? 'bold' : 'regular';
    pdf.text(COLUMNS.vat - 60, pdf.y, label, { face });
    pdf.text(RIGHT, pdf.y, value, { face, align: 'right' });
    pdf.y -= 16;
  }
}

function footer(pdf: PdfDocument, lines: string[]): void {
  for (const text of lines) {
    for (const part of wrap(text, 10, RIGHT - LEFT)) {
      pdf.ensureRoom(14);
      pdf.text(LEFT, pdf.y, part);
      pdf.y -= 14;
    }
  }
}

/** Header, lines and totals, then the notes under them. */
function render(view: DocumentView, language: InvoiceLanguage, title: string, notes: string[]): Buffer {
  const pdf = new PdfDocument();
  header(pdf, view, title, language);
  lineTable(pdf, view, language);
  totals(pdf, view, language);
  pdf.y -= 12;
  footer(pdf, notes);
  return pdf.toBuffer(`${title} ${view.invoice.number ?? ''}`);
}

function invoicePdf(view: DocumentView, language: InvoiceLanguage): Buffer {
  const labels = INVOICE_LABELS[language];
  const { invoice } = view;
  const notes = [statusLabel(labels, invoice.status)];
  if (invoice.memo) notes.push(`${labels.memo}: ${invoice.memo}`);
  if (view.hostedUrl && invoice.status !== 'paid' && invoice.status !== 'void') {
    notes.push(`${labels.payOnline}: ${view.hostedUrl}`);
  }
  return render(view, language, labels.invoice, notes);
}

function receiptPdf(view: DocumentView, language: InvoiceLanguage): Buffer {
  const labels = INVOICE_LABELS[language];
  const { payment } = view;
  return render(view, language, labels.receipt, [
    labels.receivedWithThanks,
    ...(payment
      ? [
          `${labels.paidOn}: ${eastAfricaDate(payment.paidAt)}`,
          `${labels.payment}: ${payment.id} (${payment.phone})`,
          ...(payment.reference ? [`${labels.reference}: ${payment.reference}`] : []),
        ]
      : []),
  ]);
}

/** The document of `kind` in `language`. */
export const documentPdf = (kind: DocumentKind, view: DocumentView, language: InvoiceLanguage): Buffer =>
  kind === 'receipt' ? receiptPdf(view, language) : invoicePdf(view, language);
