/**
 * The hosted invoice page's side of invoices: found by an unguessable token,
 * no key; the customer sees what they owe, pays by mobile money through the
 * same charge as the API, and downloads the PDFs.
 */
import { AppError, notFound, type Currency } from '@tz/core';
import type { Actor } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { PaymentObject } from '../services/payments.ts';
import { invoicePdf, receiptPdf, type DocumentView } from './documents.ts';
import type { InvoiceLanguage } from './labels.ts';
import { hostedInvoiceUrl, type InvoiceRow } from './object.ts';
import type { InvoiceObject, InvoiceService } from './service.ts';

export type DocumentKind = 'invoice' | 'receipt';

/** What the documents show besides the invoice: the business, the customer, the paying payment. */
async function documentView(db: Queryable, row: InvoiceRow, hostedUrl: string | null): Promise<DocumentView> {
  const found = await db.query<{
    business_name: string;
    name: string | null;
    email: string | null;
    phone: string | null;
  }>(
    `SELECT m.business_name, c.name, c.email, c.phone FROM merchants m JOIN customers c ON c.id = $2
     WHERE m.id = $1`,
    [row.merchant_id, row.customer_id],
  );
  const parties = found.rows[0]!;
  let payment: DocumentView['payment'] = null;
  if (row.status === 'paid' && row.payment_id) {
    const paid = await db.query<{
      id: string;
      phone: string;
      paid_at: Date;
      provider_reference: string | null;
    }>('SELECT id, phone, paid_at, provider_reference FROM payments WHERE id = $1', [row.payment_id]);
    const p = paid.rows[0];
    if (p) payment = { id: p.id, phone: p.phone, paidAt: p.paid_at, reference: p.provider_reference };
  }
  return {
    invoice: row,
    businessName: parties.business_name,
    customer: { name: parties.name, email: parties.email, phone: parties.phone },
    payment,
    hostedUrl,
  };
}

/** The invoice's PDF; the receipt only once it is paid. */
export async function renderDocument(
  db: Queryable,
  row: InvoiceRow,
  kind: DocumentKind,
  language: InvoiceLanguage,
  hostedUrl: string | null,
): Promise<Buffer> {
  if (kind === 'receipt' && row.status !== 'paid') {
    throw new AppError('payment_not_paid', 'An invoice has a receipt only once it is paid', {
      details: { status: `is '${row.status}'` },
    });
  }
  if (kind === 'invoice' && row.status === 'draft') {
    throw new AppError('state_transition_invalid', 'A draft has no PDF yet; finalise it first', {
      details: { status: "is 'draft'" },
    });
  }
  const view = await documentView(db, row, hostedUrl);
  return kind === 'receipt' ? receiptPdf(view, language) : invoicePdf(view, language);
}

/** What the hosted page shows and polls. */
export interface HostedView {
  token: string;
  business_name: string;
  number: string;
  status: InvoiceRow['status'];
  currency: Currency;
  lines: InvoiceRow['lines'];
  subtotal: number;
  tax: number;
  total: number;
  amount_due: number;
  memo: string | null;
  due_at: Date;
  overdue: boolean;
  livemode: boolean;
  payment_status: string | null;
  failure_message: string | null;
}

export class HostedInvoices {
  constructor(
    private readonly invoices: InvoiceService,
    private readonly publicUrl: () => string,
  ) {}

  private async row(db: Queryable, token: string, lock = false): Promise<InvoiceRow> {
    const found = await db.query<InvoiceRow>(
      `SELECT * FROM invoices WHERE hosted_token = $1 AND status <> 'draft'${lock ? ' FOR UPDATE' : ''}`,
      [token],
    );
    const row = found.rows[0];
    if (!row) throw notFound('invoice', token);
    return row;
  }

  /** One read: the page polls it while the customer approves. */
  async view(db: Queryable, token: string): Promise<HostedView> {
    const row = await this.row(db, token);
    const extra = await db.query<{
      business_name: string;
      payment_status: string | null;
      failure_message: string | null;
    }>(
      `SELECT m.business_name, p.status AS payment_status, p.failure_message
       FROM merchants m LEFT JOIN payments p ON p.id = $2 WHERE m.id = $1`,
      [row.merchant_id, row.payment_id],
    );
    const { business_name, payment_status, failure_message } = extra.rows[0]!;
    const object = this.invoices.toObject(row);
    return {
      token,
      business_name,
      number: row.number ?? '',
      status: row.status,
      currency: row.currency,
      lines: row.lines,
      subtotal: row.subtotal,
      tax: row.tax,
      total: row.total,
      amount_due: object.amount_due,
      memo: row.memo,
      due_at: row.due_at,
      overdue: row.overdue_at !== null && row.status === 'open',
      livemode: row.livemode,
      payment_status,
      failure_message,
    };
  }

  /** The customer pays on the page: the API's charge, with the invoice's customer as payer. */
  async pay(
    db: Queryable,
    token: string,
    phone: string,
    afterCommit: (task: () => Promise<void>) => void,
  ): Promise<{ invoice: InvoiceObject; payment: PaymentObject }> {
    const row = await this.row(db, token, true);
    const payer: Actor = {
      kind: 'invoice',
      merchantId: row.merchant_id,
      livemode: row.livemode,
      keyType: 'secret',
      credentialId: row.id,
    };
    return this.invoices.charge(db, payer, row, phone, afterCommit);
  }

  async document(db: Queryable, token: string, kind: DocumentKind, language: InvoiceLanguage) {
    const row = await this.row(db, token);
    return {
      number: row.number ?? row.id,
      pdf: await renderDocument(db, row, kind, language, hostedInvoiceUrl(row, this.publicUrl())),
    };
  }
}
