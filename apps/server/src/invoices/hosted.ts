/**
 * The hosted invoice page's side of invoices: found by an unguessable token,
 * no key; the customer sees what they owe, pays by mobile money through the
 * same charge as the API, and downloads the PDFs.
 */
import { notFound, type Currency } from '@tz/core';
import type { Actor } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { PaymentObject } from '../payments/service.ts';
import type { DocumentKind } from './documents.ts';
import type { InvoiceLanguage } from './labels.ts';
import type { InvoiceRow } from './object.ts';
import type { InvoiceCollection } from './collection.ts';
import type { InvoiceObject, InvoiceService } from './service.ts';

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
    private readonly collection: InvoiceCollection,
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
    return this.collection.charge(db, payer, row, phone, afterCommit);
  }

  async document(db: Queryable, token: string, kind: DocumentKind, language: InvoiceLanguage) {
    const row = await this.row(db, token);
    return {
      number: row.number ?? row.id,
      pdf: await this.invoices.documentOf(db, row, kind, language),
    };
  }
}
