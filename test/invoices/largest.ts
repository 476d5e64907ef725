/** The most an invoice may hold, as a document: for tests and the benchmark. */
import { MAX_INVOICE_DESCRIPTION, MAX_INVOICE_LINES, MAX_INVOICE_MEMO } from '@tz/core';
import type { DocumentView } from '../../apps/server/src/invoices/documents.ts';

/**
 * An open invoice at every bound: the most lines, each description the longest
 * allowed and one unbroken word of the widest letter, and the longest memo.
 */
export function largestInvoiceView(): DocumentView {
  const at = new Date('2026-11-27T09:00:00Z');
  return {
    invoice: {
      number: 'INV-000001',
      status: 'open',
      currency: 'TZS',
      lines: Array.from({ length: MAX_INVOICE_LINES }, () => ({
        description: 'W'.repeat(MAX_INVOICE_DESCRIPTION),
        quantity: 1,
        unit_amount: 1_180,
        tax_class: 'standard' as const,
        tax_rate_basis_points: 1_800,
        amount: 1_180,
        tax: 180,
      })),
      tax_breakdown: [{ rate_basis_points: 1_800, gross: 118_000, net: 100_000, tax: 18_000 }],
      subtotal: 100_000,
      total: 118_000,
      amount_paid: 0,
      memo: 'M'.repeat(MAX_INVOICE_MEMO),
      due_at: at,
      created_at: at,
      finalized_at: at,
    },
    businessName: 'Duka la Bi Mwanaisha',
    customer: { name: 'Asha Mussa', email: null, phone: '255700000001' },
    payment: null,
    hostedUrl: 'http://127.0.0.1:4000/invoice/token',
  };
}

/** The same invoice with its text in short words, which wrap at spaces: the cost of the text alone. */
export function spacedInvoiceView(): DocumentView {
  const view = largestInvoiceView();
  view.invoice.lines = view.invoice.lines.map((line) => ({
    ...line,
    description: 'Wa '.repeat(MAX_INVOICE_DESCRIPTION).slice(0, MAX_INVOICE_DESCRIPTION),
  }));
  view.invoice.memo = 'Ma '.repeat(MAX_INVOICE_MEMO).slice(0, MAX_INVOICE_MEMO);
  return view;
}
