/**
 * The invoice writes, a statement each for all the rows however many there
 * are: the service creates, finalises and charges one invoice as a batch of
 * one, and the subscription scheduler's batches the same way.
 */
import { write, type Queryable } from '../db/database.ts';
import type { InvoiceRow } from './object.ts';

/** A draft's columns, priced and checked. */
export interface DraftColumns {
  id: string;
  merchantId: string;
  livemode: boolean;
  customerId: string;
  subscriptionId: string | null;
  currency: string;
  vatRegion: string;
  /** lines, tax_breakdown (JSON), subtotal, tax, total: `pricedColumns`. */
  priced: unknown[];
  memo: string | null;
  metadata: string;
  dueAt: Date;
  hostedToken: string;
}

/** Inserts the drafts in one statement; returns their rows in the order given. */
export async function insertDrafts(db: Queryable, drafts: readonly DraftColumns[]): Promise<InvoiceRow[]> {
  const column = (n: number) => drafts.map((d) => d.priced[n]);
  const inserted = await db.query<InvoiceRow>(
    `INSERT INTO invoices (id, merchant_id, livemode, customer_id, subscription_id, status, currency, vat_region,
       lines, tax_breakdown, subtotal, tax, total, memo, metadata, due_at, hosted_token)
     SELECT id, merchant_id, livemode, customer_id, subscription_id, 'draft', currency, vat_region,
       lines::jsonb, tax_breakdown::jsonb, subtotal, tax, total, memo, metadata::jsonb, due_at, hosted_token
     FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::text[],
       $8::text[], $9::text[], $10::bigint[], $11::bigint[], $12::bigint[], $13::text[], $14::text[],
       $15::timestamptz[], $16::text[])
       WITH ORDINALITY AS d(id, merchant_id, livemode, customer_id, subscription_id, currency, vat_region,
         lines, tax_breakdown, subtotal, tax, total, memo, metadata, due_at, hosted_token, n)
     ORDER BY n
     RETURNING *`,
    [
      drafts.map((d) => d.id),
      drafts.map((d) => d.merchantId),
      drafts.map((d) => d.livemode),
      drafts.map((d) => d.customerId),
      drafts.map((d) => d.subscriptionId),
      drafts.map((d) => d.currency),
      drafts.map((d) => d.vatRegion),
      column(0),
      column(1),
      column(2),
      column(3),
      column(4),
      drafts.map((d) => d.memo),
      drafts.map((d) => d.metadata),
      drafts.map((d) => d.dueAt),
      drafts.map((d) => d.hostedToken),
    ],
  );
  const byId = new Map(inserted.rows.map((row) => [row.id, row]));
  return drafts.map((d) => byId.get(d.id)!);
}

/** Links each invoice to the payment that charges it, in one statement whose result nobody waits for. */
export async function linkPayments(
  db: Queryable,
  invoiceIds: readonly string[],
  paymentIds: readonly string[],
): Promise<void> {
  await write(
    db,
    `UPDATE invoices SET payment_id = c.payment_id
     FROM unnest($1::text[], $2::text[]) AS c(id, payment_id) WHERE invoices.id = c.id`,
    [invoiceIds, paymentIds],
  );
}
