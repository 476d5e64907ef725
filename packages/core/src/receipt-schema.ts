/**
 * The receipt printer's documents as zod schemas, for whoever receives one
 * from outside its own process: the desktop app's main process (from the
 * renderer over IPC), the local printer bridge (over HTTP) and the API's
 * description of an order's receipt. Amounts are integers, text is bounded
 * (wide enough for every name the API takes), and the types are checked
 * against `ReceiptDocument` and `RowsDocument`.
 */
import { z } from 'zod';
import { MAX_AMOUNT } from './money.ts';
import { RECEIPT_LANGUAGES, ROWS_DOCUMENT_KINDS } from './receipt.ts';
import type { PrintDocument, ReceiptDocument, ReceiptLabels, RowsDocument, ZReportRow } from './receipt.ts';

const text = (max: number) => z.string().max(max);
const amount = z.number().int().min(0).max(MAX_AMOUNT);
/** Discounts and change are amounts too; a signed line total covers refunds printed as receipts. */
const signedAmount = z.number().int().min(-MAX_AMOUNT).max(MAX_AMOUNT);
const lines = (max: number) => z.array(text(200)).max(max);

const labelsSchema = z.object({
  receipt: text(40),
  date: text(40),
  cashier: text(40),
  till: text(40),
  customer: text(40),
  subtotal: text(40),
  discount: text(40),
  total: text(40),
  change: text(40),
  tin: text(40),
  vrn: text(40),
}) satisfies z.ZodType<ReceiptLabels>;

const discountSchema = z.object({ label: text(100), amount });

export const receiptDocumentSchema = z.object({
  language: z.enum(RECEIPT_LANGUAGES),
  currency: z.string().min(3).max(3),
  store: z.object({
    name: text(200),
    addressLines: lines(10),
    phone: text(40).exactOptional(),
    tin: text(40).exactOptional(),
    vrn: text(40).exactOptional(),
    headerLines: lines(10),
  }),
  receiptNumber: text(64),
  issuedAt: text(40),
  cashier: text(100).exactOptional(),
  till: text(100).exactOptional(),
  customer: text(200).exactOptional(),
  lines: z
    .array(
      z.object({
        // A product's name and its variant's, each up to 200.
        description: text(401),
        quantityText: text(40),
        quantityMilli: z.number().int().min(0),
        unitPrice: signedAmount,
        total: signedAmount,
        discount: discountSchema.exactOptional(),
        taxCode: text(8).exactOptional(),
      }),
    )
    .max(1000),
  subtotal: signedAmount,
  orderDiscount: discountSchema.exactOptional(),
  taxLines: z
    .array(
      z.object({
        code: text(8),
        label: text(100),
        rateBasisPoints: z.number().int().min(0).max(10_000),
        net: signedAmount,
        tax: signedAmount,
      }),
    )
    .max(20),
  total: signedAmount,
  tenders: z
    .array(z.object({ label: text(100), amount: signedAmount, reference: text(100).exactOptional() }))
    .max(20),
  change: amount,
  qrPayload: text(500).exactOptional(),
  tickets: z
    .array(z.object({ title: text(40), lines: lines(4), code: text(500) }))
    .max(50)
    .exactOptional(),
  footerLines: lines(20),
  labels: labelsSchema,
  kind: z.enum(['refund', 'void']).exactOptional(),
  title: text(40).exactOptional(),
  copyMark: text(40).exactOptional(),
  approvedBy: z.object({ label: text(40), name: text(100) }).exactOptional(),
}) satisfies z.ZodType<ReceiptDocument>;

const zReportRowSchema = z.object({
  label: text(100),
  value: z.union([
    z.object({ amount: signedAmount }),
    z.object({ text: text(100) }),
    z.object({ time: text(40) }),
  ]),
  indent: z.boolean().exactOptional(),
  strong: z.boolean().exactOptional(),
}) satisfies z.ZodType<ZReportRow>;

export const rowsDocumentSchema = z.object({
  kind: z.enum(ROWS_DOCUMENT_KINDS),
  language: z.enum(RECEIPT_LANGUAGES),
  currency: z.string().min(3).max(3),
  title: text(40),
  store: z.object({ name: text(100), addressLines: lines(10) }),
  details: z.array(zReportRowSchema).max(20),
  sections: z
    .array(z.object({ heading: text(100).exactOptional(), rows: z.array(zReportRowSchema).max(200) }))
    .max(20),
}) satisfies z.ZodType<RowsDocument>;

/** Whatever a till sends its receipt printer: a document by rows names its kind, a receipt may not. */
export const printDocumentSchema = z.discriminatedUnion('kind', [
  rowsDocumentSchema,
  receiptDocumentSchema,
]) satisfies z.ZodType<PrintDocument>;
