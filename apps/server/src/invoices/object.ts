import type { Currency, InvoiceLine, InvoiceStatus, TaxBreakdownLine, TaxClass, VatRegion } from '@tz/core';
import { unixOrNull, unixSeconds } from '../infra/time.ts';

/** A line as stored (and shown): snake_case, as the API speaks. */
export interface StoredLine {
  description: string;
  quantity: number;
  unit_amount: number;
  tax_class: TaxClass;
  tax_rate_basis_points: number;
  amount: number;
  tax: number;
}

export interface InvoiceRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  customer_id: string;
  subscription_id: string | null;
  number: string | null;
  status: InvoiceStatus;
  currency: Currency;
  vat_region: VatRegion;
  lines: StoredLine[];
  tax_breakdown: Array<{ rate_basis_points: number; gross: number; net: number; tax: number }>;
  subtotal: number;
  tax: number;
  total: number;
  amount_paid: number;
  memo: string | null;
  metadata: Record<string, string>;
  due_at: Date;
  hosted_token: string;
  payment_id: string | null;
  overdue_check_at: Date | null;
  created_at: Date;
  finalized_at: Date | null;
  sent_at: Date | null;
  paid_at: Date | null;
  voided_at: Date | null;
  marked_uncollectible_at: Date | null;
  overdue_at: Date | null;
}

export const storedLine = (line: InvoiceLine): StoredLine => ({
  description: line.description,
  quantity: line.quantity,
  unit_amount: line.unitAmount,
  tax_class: line.taxClass,
  tax_rate_basis_points: line.taxRateBasisPoints,
  amount: line.amount,
  tax: line.tax,
});

export const storedBreakdown = (breakdown: TaxBreakdownLine[]): InvoiceRow['tax_breakdown'] =>
  breakdown.map((group) => ({
    rate_basis_points: group.rateBasisPoints,
    gross: group.gross,
    net: group.net,
    tax: group.tax,
  }));

/** The hosted page of an invoice; drafts have none yet. */
export const hostedInvoiceUrl = (row: InvoiceRow, publicUrl: string): string | null =>
  row.status === 'draft' ? null : `${publicUrl}/invoice/${row.hosted_token}`;

export const invoiceObject = (row: InvoiceRow, publicUrl: string) => ({
  id: row.id,
  object: 'invoice' as const,
  number: row.number,
  status: row.status,
  customer: row.customer_id,
  subscription: row.subscription_id,
  currency: row.currency,
  vat_region: row.vat_region,
  lines: row.lines,
  subtotal: row.subtotal,
  tax: row.tax,
  total: row.total,
  tax_breakdown: row.tax_breakdown,
  amount_paid: row.amount_paid,
  amount_due: row.status === 'void' ? 0 : row.total - row.amount_paid,
  memo: row.memo,
  metadata: row.metadata,
  due_date: unixSeconds(row.due_at),
  hosted_invoice_url: hostedInvoiceUrl(row, publicUrl),
  payment: row.payment_id,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  finalized_at: unixOrNull(row.finalized_at),
  sent_at: unixOrNull(row.sent_at),
  paid_at: unixOrNull(row.paid_at),
  voided_at: unixOrNull(row.voided_at),
  marked_uncollectible_at: unixOrNull(row.marked_uncollectible_at),
  overdue_at: unixOrNull(row.overdue_at),
});
export type InvoiceObject = ReturnType<typeof invoiceObject>;
