/**
 * Invoices many at a time, for the subscription scheduler's batches: created,
 * finalised and charged as the service's `create`, `finalize` and `pay` do one,
 * with a statement each for all the rows (drafts, numbers, openings, events,
 * payments), whatever the batch's size.
 */
import { DEFAULT_VAT_REGION, formatInvoiceNumber, invoiceTotals, newId, notFound } from '@tz/core';
import { write, type Queryable } from '../db/database.ts';
import type { Actor } from '../actor.ts';
import { assertCustomersExist } from '../services/customers.ts';
import type { PaymentService } from '../services/payments.ts';
import { randomToken } from '../services/secrets.ts';
import type { InvoiceObject, InvoiceRow } from './object.ts';
import { takeInvoiceNumbers } from './numbering.ts';
import { pendingPayment, pricedColumns, type CreateInvoiceInput, type InvoiceService } from './service.ts';

/** A draft's columns, priced and checked. */
interface DraftColumns {
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
async function insertDrafts(db: Queryable, drafts: readonly DraftColumns[]): Promise<InvoiceRow[]> {
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

/**
 * Opens drafts with the numbers given, in one statement whose result nobody
 * waits for (in a transaction it leaves with the commit). The opened rows are
 * returned as the statement writes them: the drafts were inserted in this
 * transaction, so their `created_at` is the transaction's `now()`, the
 * `finalized_at` written.
 */
async function openDrafts(
  db: Queryable,
  drafts: readonly InvoiceRow[],
  numbers: readonly string[],
): Promise<InvoiceRow[]> {
  await write(
    db,
    `UPDATE invoices SET status = 'open', number = o.number, finalized_at = now(), overdue_check_at = due_at
     FROM unnest($1::text[], $2::text[]) AS o(id, number) WHERE invoices.id = o.id`,
    [drafts.map((d) => d.id), numbers],
  );
  return drafts.map((draft, i) => ({
    ...draft,
    status: 'open',
    number: numbers[i]!,
    finalized_at: draft.created_at,
    overdue_check_at: draft.due_at,
  }));
}

/**
 * Drafts for many invoices at once, each for its actor's tenant, as `create`
 * makes one: one insert for all and one for their `invoice.created` events.
 * Returns the rows, for `finalizeMany` in the same transaction.
 */
export async function createDrafts(
  invoices: InvoiceService,
  db: Queryable,
  items: ReadonlyArray<{ actor: Actor; input: CreateInvoiceInput }>,
): Promise<InvoiceRow[]> {
  const drafts: DraftColumns[] = items.map(({ actor, input }) => {
    const region = input.vat_region ?? DEFAULT_VAT_REGION;
    return {
      id: newId('invoice'),
      merchantId: actor.merchantId,
      livemode: actor.livemode,
      customerId: input.customer,
      subscriptionId: input.subscription_id ?? null,
      currency: input.currency,
      vatRegion: region,
      priced: pricedColumns(invoiceTotals(input.lines ?? [], region)),
      memo: input.memo ?? null,
      metadata: JSON.stringify(input.metadata ?? {}),
      dueAt: invoices.dueAt(input),
      hostedToken: randomToken(32),
    };
  });
  await assertCustomersExist(
    db,
    items.map(({ actor, input }) => ({ ...actor, customerId: input.customer })),
  );
  const rows = await insertDrafts(db, drafts);
  await invoices.emitMany(db, 'invoice.created', rows);
  return rows;
}

/**
 * Finalises drafts that `createMany` made in this transaction (so no one else
 * can see or lock them): each tenant's numbers come from one counter update,
 * taken here, so call it last in the transaction to hold the counter briefly.
 * Numbers follow the drafts' order. Emits `invoice.finalized` for each.
 */
export async function finalizeDrafts(
  invoices: InvoiceService,
  db: Queryable,
  drafts: readonly InvoiceRow[],
): Promise<InvoiceObject[]> {
  for (const draft of drafts) invoices.assertFinalizable(draft);
  const tenantOf = (row: InvoiceRow) => ({ merchantId: row.merchant_id, livemode: row.livemode });
  const first = await takeInvoiceNumbers(
    db,
    drafts.map((row) => ({ ...tenantOf(row), count: 1 })),
  );
  const next = new Map<string, number>();
  const numbers = drafts.map((row) => {
    const key = `${row.merchant_id}/${String(row.livemode)}`;
    const number = next.get(key) ?? first(tenantOf(row));
    next.set(key, number + 1);
    return formatInvoiceNumber(number);
  });
  return invoices.emitMany(db, 'invoice.finalized', await openDrafts(db, drafts, numbers));
}

/**
 * Charges many invoices at once, each to the phone given, as `pay` charges one:
 * one query locks them all (in id order), one looks for pending payments, and
 * the payments, their events and the invoices' `payment_id` are written with a
 * statement each. Fails on the first invoice that cannot be charged. Returns
 * the payment ids in the order given.
 */
export async function chargeInvoices(
  invoices: InvoiceService,
  payments: PaymentService,
  db: Queryable,
  items: ReadonlyArray<{ actor: Actor; invoiceId: string; phone: string }>,
  afterCommit: (task: () => Promise<void>) => void,
): Promise<string[]> {
  const ids = items.map((item) => item.invoiceId);
  const locked = await db.query<InvoiceRow>(
    `SELECT * FROM invoices WHERE id = ANY($1) ORDER BY id FOR UPDATE`,
    [ids],
  );
  const byId = new Map(locked.rows.map((row) => [row.id, row]));
  const rows = items.map(({ actor, invoiceId }) => {
    const row = byId.get(invoiceId);
    if (!row || row.merchant_id !== actor.merchantId || row.livemode !== actor.livemode) {
      throw notFound('invoice', invoiceId);
    }
    invoices.assertPayable(row, 'paid');
    return row;
  });
  const pending = await db.query<{ id: string }>(
    `SELECT id FROM payments WHERE invoice_id = ANY($1) AND status = 'pending' LIMIT 1`,
    [ids],
  );
  if (pending.rows[0]) throw pendingPayment('paid again', pending.rows[0].id);
  const created = await payments.createMany(
    db,
    items.map(({ actor, phone }, i) => {
      const row = rows[i]!;
      return {
        actor,
        input: {
          amount: row.total - row.amount_paid,
          currency: row.currency,
          phone,
          description: `Invoice ${row.number}`,
          customer: row.customer_id,
          metadata: { invoice: row.id },
          invoiceId: row.id,
        },
      };
    }),
    afterCommit,
  );
  await write(
    db,
    `UPDATE invoices SET payment_id = c.payment_id
     FROM unnest($1::text[], $2::text[]) AS c(id, payment_id) WHERE invoices.id = c.id`,
    [ids, created.map((p) => p.id)],
  );
  return created.map((p) => p.id);
}
