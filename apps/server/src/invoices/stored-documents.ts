/**
 * An invoice's PDFs, rendered once and kept. A finalised invoice changes only
 * in its status (and the names around it rarely), so a document is stored per
 * invoice, kind and language with the fingerprint of everything it shows; a
 * fetch whose view has the same fingerprint serves the stored bytes, and one
 * whose view changed (paid, void, written off, a renamed customer) renders
 * again and replaces them. Rendering runs in the worker pool (`renderer.ts`).
 */
import { createHash } from 'node:crypto';
import { AppError } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import { shownInvoice, type DocumentKind, type DocumentView } from './documents.ts';
import type { InvoiceLanguage } from './labels.ts';
import type { InvoiceRow } from './object.ts';
import type { PdfRenderer } from './renderer.ts';

/** Raised when the layout changes, so stored documents are rendered again in the new one. */
const LAYOUT_VERSION = 1;

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
    invoice: shownInvoice(row),
    businessName: parties.business_name,
    customer: { name: parties.name, email: parties.email, phone: parties.phone },
    payment,
    hostedUrl,
  };
}

const fingerprintOf = (kind: DocumentKind, language: InvoiceLanguage, view: DocumentView): string =>
  createHash('sha256')
    .update(JSON.stringify([LAYOUT_VERSION, kind, language, view]))
    .digest('hex');

export class InvoiceDocuments {
  /** Renders under way in this process, so simultaneous first fetches render once. */
  private readonly inFlight = new Map<string, Promise<Buffer>>();

  constructor(private readonly renderer: PdfRenderer) {}

  /** The invoice's PDF; the receipt only once it is paid; drafts have none. */
  async get(
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
    const fingerprint = fingerprintOf(kind, language, view);
    const stored = await db.query<{ pdf: Buffer }>(
      `SELECT pdf FROM invoice_documents
       WHERE merchant_id = $1 AND invoice_id = $2 AND kind = $3 AND language = $4 AND fingerprint = $5`,
      [row.merchant_id, row.id, kind, language, fingerprint],
    );
    if (stored.rows[0]) return stored.rows[0].pdf;
    const key = `${row.id} ${kind} ${language} ${fingerprint}`;
    let rendering = this.inFlight.get(key);
    if (!rendering) {
      rendering = this.renderAndStore(db, row, kind, language, view, fingerprint).finally(() =>
        this.inFlight.delete(key),
      );
      this.inFlight.set(key, rendering);
    }
    return rendering;
  }

  private async renderAndStore(
    db: Queryable,
    row: InvoiceRow,
    kind: DocumentKind,
    language: InvoiceLanguage,
    view: DocumentView,
    fingerprint: string,
  ): Promise<Buffer> {
    const pdf = await this.renderer.render(kind, view, language);
    // A concurrent render elsewhere of another state may land after this one: the next fetch then
    // sees a fingerprint that differs from its view and renders again.
    await db.query(
      `INSERT INTO invoice_documents (merchant_id, invoice_id, kind, language, fingerprint, pdf)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (merchant_id, invoice_id, kind, language)
       DO UPDATE SET fingerprint = EXCLUDED.fingerprint, pdf = EXCLUDED.pdf, rendered_at = now()`,
      [row.merchant_id, row.id, kind, language, fingerprint, pdf],
    );
    return pdf;
  }
}
