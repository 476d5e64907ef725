/**
 * Invoices: drafts with lines, finalisation with a gapless number, voiding,
 * writing off, sending, and payment by mobile money through the payment
 * service. Every function takes the caller's transaction, so the change and its
 * event commit together; `applyPaymentOutcome` runs inside the payment
 * outcome's own transaction.
 */
import {
  AppError,
  DEFAULT_VAT_REGION,
  assertInvoiceTransition,
  formatInvoiceNumber,
  invalidField,
  invoiceIsPayable,
  invoiceTotals,
  newId,
  normalizeTanzanianMobile,
  type Currency,
  type InvoiceLineInput,
  type InvoiceStatus,
  type InvoiceTotals,
  type VatRegion,
} from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Actor, Tenant } from '../actor.ts';
import type { Clock } from '../services/clock.ts';
import { recordEvent, recordEvents } from '../services/events.ts';
import type { EventType } from '../services/event-types.ts';
import { assertCustomerExists } from '../services/customers.ts';
import { findOwned } from '../services/owned.ts';
import type { PaymentObject, PaymentRow, PaymentService } from '../services/payments.ts';
import { randomToken } from '../services/secrets.ts';
import { chargeInvoices, createDrafts, finalizeDrafts } from './batch.ts';
import type { DocumentKind } from './documents.ts';
import type { InvoiceLanguage } from './labels.ts';
import { takeInvoiceNumbers } from './numbering.ts';
import type { InvoiceDocuments } from './stored-documents.ts';
import {
  hostedInvoiceUrl,
  invoiceObject,
  storedBreakdown,
  storedLine,
  type InvoiceObject,
  type InvoiceRow,
} from './object.ts';

export type { InvoiceObject };

const DAY_MS = 86_400_000;
export const DEFAULT_DAYS_UNTIL_DUE = 30;

export interface CreateInvoiceInput {
  customer: string;
  currency: Currency;
  vat_region?: VatRegion | undefined;
  lines?: InvoiceLineInput[] | undefined;
  memo?: string | undefined;
  /** Unix seconds; must be in the future. Default: `days_until_due` from now. */
  due_date?: number | undefined;
  days_until_due?: number | undefined;
  metadata?: Record<string, string> | undefined;
  /** Set by subscriptions for the invoice of a period. */
  subscription_id?: string | undefined;
}

export type UpdateInvoiceInput = Omit<CreateInvoiceInput, 'customer' | 'currency' | 'subscription_id'>;

/** What a payment linked to an invoice came to, as told to listeners. */
export interface InvoicePaymentOutcome {
  status: 'paid' | 'failed';
  payment: PaymentObject;
}

/**
 * Told of every outcome of a payment linked to an invoice, inside the payment
 * outcome's transaction, after the invoice moved (to `paid`) or stayed (on a
 * failure): a listener that throws rolls the whole outcome back.
 */
export type InvoicePaymentListener = (
  tx: Queryable,
  invoice: InvoiceObject,
  outcome: InvoicePaymentOutcome,
) => Promise<void>;

/** The stored columns of priced lines: lines, tax_breakdown, subtotal, tax, total. */
export const pricedColumns = (totals: InvoiceTotals) => [
  JSON.stringify(totals.lines.map(storedLine)),
  JSON.stringify(storedBreakdown(totals.taxBreakdown)),
  totals.subtotal,
  totals.tax,
  totals.total,
];

export const pendingPayment = (what: string, paymentId: string) =>
  new AppError(
    'state_transition_invalid',
    `A payment for this invoice is waiting for approval; it cannot be ${what} now`,
    { details: { payment: `${paymentId} is pending` } },
  );

export class InvoiceService {
  private readonly listeners = new Set<InvoicePaymentListener>();

  constructor(
    private readonly payments: () => PaymentService,
    private readonly publicUrl: () => string,
    private readonly clock: Clock,
    private readonly documents: InvoiceDocuments,
  ) {}

  toObject = (row: InvoiceRow): InvoiceObject => invoiceObject(row, this.publicUrl());

  /** Registers a listener for invoice payment outcomes; returns its removal. */
  onPaymentOutcome(listener: InvoicePaymentListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A due date must lie ahead of the clock. */
  /** The due date `input` asks for. */
  dueAt(input: { due_date?: number | undefined; days_until_due?: number | undefined }): Date {
    if (input.due_date !== undefined && input.days_until_due !== undefined) {
      throw invalidField('parameter_invalid', 'days_until_due', 'give due_date or days_until_due, not both');
    }
    const now = this.clock.now().getTime();
    if (input.due_date === undefined) {
      return new Date(now + (input.days_until_due ?? DEFAULT_DAYS_UNTIL_DUE) * DAY_MS);
    }
    const due = new Date(input.due_date * 1000);
    if (due.getTime() <= now) throw invalidField('parameter_invalid', 'due_date', 'is in the past');
    return due;
  }

  private async emit(db: Queryable, type: EventType, row: InvoiceRow): Promise<InvoiceObject> {
    const object = this.toObject(row);
    await recordEvent(db, { merchantId: row.merchant_id, livemode: row.livemode, type, object });
    return object;
  }

  /** Called by the overdue check in the transaction that claimed the invoice. */
  async emitOverdue(tx: Queryable, row: InvoiceRow): Promise<void> {
    await this.emit(tx, 'invoice.overdue', row);
  }

  /** A draft for a customer, with lines priced by core's VAT rules; it takes no number yet. */
  async create(db: Queryable, actor: Actor, input: CreateInvoiceInput): Promise<InvoiceObject> {
    const region = input.vat_region ?? DEFAULT_VAT_REGION;
    const totals = invoiceTotals(input.lines ?? [], region);
    const dueAt = this.dueAt(input);
    await assertCustomerExists(db, actor, input.customer);
    const inserted = await db.query<InvoiceRow>(
      `INSERT INTO invoices (id, merchant_id, livemode, customer_id, subscription_id, status, currency, vat_region,
         lines, tax_breakdown, subtotal, tax, total, memo, metadata, due_at, hosted_token)
       VALUES ($1, $2, $3, $4, $5, 'draft', $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING *`,
      [
        newId('invoice'),
        actor.merchantId,
        actor.livemode,
        input.customer,
        input.subscription_id ?? null,
        input.currency,
        region,
        ...pricedColumns(totals),
        input.memo ?? null,
        JSON.stringify(input.metadata ?? {}),
        dueAt,
        randomToken(32),
      ],
    );
    return this.emit(db, 'invoice.created', inserted.rows[0]!);
  }

  async retrieve(db: Queryable, actor: Tenant, id: string): Promise<InvoiceObject> {
    return this.toObject(await findOwned<InvoiceRow>(db, 'invoices', 'invoice', actor, id));
  }

  /** The invoice's PDF, or its receipt's once paid. */
  async document(
    db: Queryable,
    actor: Tenant,
    id: string,
    kind: DocumentKind,
    language: InvoiceLanguage,
  ): Promise<Buffer> {
    return this.documentOf(
      db,
      await findOwned<InvoiceRow>(db, 'invoices', 'invoice', actor, id),
      kind,
      language,
    );
  }

  /** The PDF of a row already found: stored once rendered, rendered again when what it shows changed. */
  documentOf(db: Queryable, row: InvoiceRow, kind: DocumentKind, language: InvoiceLanguage): Promise<Buffer> {
    return this.documents.get(db, row, kind, language, hostedInvoiceUrl(row, this.publicUrl()));
  }

  listSource(
    actor: Tenant,
    filters: {
      status?: InvoiceStatus | undefined;
      customer?: string | undefined;
      subscription?: string | undefined;
    },
  ) {
    const params: unknown[] = [actor.merchantId, actor.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
    if (filters.customer) where += ` AND customer_id = $${params.push(filters.customer)}`;
    if (filters.subscription) where += ` AND subscription_id = $${params.push(filters.subscription)}`;
    return { table: 'invoices', where, params };
  }

  private async locked(db: Queryable, actor: Tenant, id: string): Promise<InvoiceRow> {
    return findOwned<InvoiceRow>(db, 'invoices', 'invoice', actor, id, { lock: true });
  }

  /** Edits a draft: lines replace the old ones; anything not given stays. */
  async update(db: Queryable, actor: Actor, id: string, input: UpdateInvoiceInput): Promise<InvoiceObject> {
    const row = await this.locked(db, actor, id);
    if (row.status !== 'draft') {
      throw new AppError('state_transition_invalid', 'Only a draft invoice can be edited', {
        details: { status: `is '${row.status}'` },
      });
    }
    const region = input.vat_region ?? row.vat_region;
    const lines: InvoiceLineInput[] =
      input.lines ??
      row.lines.map((line) => ({
        description: line.description,
        quantity: line.quantity,
        unitAmount: line.unit_amount,
        taxClass: line.tax_class,
      }));
    const totals = invoiceTotals(lines, region);
    const dueAt =
      input.due_date !== undefined || input.days_until_due !== undefined ? this.dueAt(input) : row.due_at;
    const updated = await db.query<InvoiceRow>(
      `UPDATE invoices SET vat_region = $2, lines = $3, tax_breakdown = $4, subtotal = $5, tax = $6, total = $7,
         memo = $8, metadata = $9, due_at = $10 WHERE id = $1 RETURNING *`,
      [
        row.id,
        region,
        ...pricedColumns(totals),
        input.memo === undefined ? row.memo : input.memo,
        JSON.stringify(input.metadata ?? row.metadata),
        dueAt,
      ],
    );
    return this.emit(db, 'invoice.updated', updated.rows[0]!);
  }

  /**
   * Opens a draft and gives it the merchant's next number in this mode. The
   * counter row stays locked until this transaction ends: a rollback returns
   * the number, so numbers have no gaps.
   */
  async finalize(db: Queryable, actor: Tenant, id: string): Promise<InvoiceObject> {
    return this.emit(db, 'invoice.finalized', await this.finalizeRow(db, await this.locked(db, actor, id)));
  }

  private async finalizeRow(db: Queryable, row: InvoiceRow): Promise<InvoiceRow> {
    this.assertFinalizable(row);
    const tenant = { merchantId: row.merchant_id, livemode: row.livemode };
    const first = await takeInvoiceNumbers(db, [{ ...tenant, count: 1 }]);
    const updated = await db.query<InvoiceRow>(
      `UPDATE invoices SET status = 'open', number = $2, finalized_at = now(), overdue_check_at = due_at
       WHERE id = $1 RETURNING *`,
      [row.id, formatInvoiceNumber(first(tenant))],
    );
    return updated.rows[0]!;
  }

  /** What finalisation refuses: a total under 1, a due date not ahead of the clock. */
  assertFinalizable(row: InvoiceRow): void {
    assertInvoiceTransition(row.status, 'open');
    if (row.total < 1) {
      throw invalidField('amount_invalid', 'lines', 'an invoice needs a total of at least 1 to be finalised');
    }
    if (row.due_at.getTime() <= this.clock.now().getTime()) {
      throw invalidField('parameter_invalid', 'due_date', 'is in the past; give the draft a new due date');
    }
  }

  /** Drafts for many invoices at once, each for its actor's tenant (see batch.ts). */
  createMany(db: Queryable, items: ReadonlyArray<{ actor: Actor; input: CreateInvoiceInput }>) {
    return createDrafts(this, db, items);
  }

  /** Finalises drafts `createMany` made in this transaction; takes the numbers: call it last (see batch.ts). */
  finalizeMany(db: Queryable, drafts: readonly InvoiceRow[]) {
    return finalizeDrafts(this, db, drafts);
  }

  /** Charges many invoices at once; returns the payment ids in order (see batch.ts). */
  chargeMany(
    db: Queryable,
    items: ReadonlyArray<{ actor: Actor; invoiceId: string; phone: string }>,
    afterCommit: (task: () => Promise<void>) => void,
  ) {
    return chargeInvoices(this, this.payments(), db, items, afterCommit);
  }

  /** Records one event of `type` for each row, in one statement. */
  emitMany(db: Queryable, type: EventType, rows: readonly InvoiceRow[]): Promise<InvoiceObject[]> {
    return recordEvents(db, type, rows, this.toObject);
  }

  /** Voids a draft or an unpaid invoice; refused while a payment for it awaits approval. */
  async void(db: Queryable, actor: Tenant, id: string): Promise<InvoiceObject> {
    const row = await this.locked(db, actor, id);
    assertInvoiceTransition(row.status, 'void');
    await this.assertNoPendingPayment(db, row, 'voided');
    const updated = await db.query<InvoiceRow>(
      `UPDATE invoices SET status = 'void', voided_at = now(), overdue_check_at = NULL WHERE id = $1 RETURNING *`,
      [row.id],
    );
    return this.emit(db, 'invoice.voided', updated.rows[0]!);
  }

  /** Writes an open invoice off; a payment that still arrives pays it. */
  async markUncollectible(db: Queryable, actor: Tenant, id: string): Promise<InvoiceObject> {
    const row = await this.locked(db, actor, id);
    assertInvoiceTransition(row.status, 'uncollectible');
    const updated = await db.query<InvoiceRow>(
      `UPDATE invoices SET status = 'uncollectible', marked_uncollectible_at = now(), overdue_check_at = NULL
       WHERE id = $1 RETURNING *`,
      [row.id],
    );
    return this.emit(db, 'invoice.marked_uncollectible', updated.rows[0]!);
  }

  /**
   * Sends an invoice. There is no email or SMS provider: sending finalises a
   * draft, records `sent_at` and emits `invoice.sent` with the hosted page's
   * URL, for the merchant's own channel (a webhook handler, WhatsApp) to deliver.
   */
  async send(db: Queryable, actor: Tenant, id: string): Promise<InvoiceObject> {
    let row = await this.locked(db, actor, id);
    if (row.status === 'draft') {
      row = await this.finalizeRow(db, row);
      await this.emit(db, 'invoice.finalized', row);
    }
    this.assertPayable(row, 'sent');
    const updated = await db.query<InvoiceRow>(
      `UPDATE invoices SET sent_at = now() WHERE id = $1 RETURNING *`,
      [row.id],
    );
    return this.emit(db, 'invoice.sent', updated.rows[0]!);
  }

  assertPayable(row: InvoiceRow, what: string): void {
    if (!invoiceIsPayable(row.status)) {
      throw new AppError(
        'state_transition_invalid',
        `A ${row.status} invoice cannot be ${what}${row.status === 'draft' ? '; finalise it first' : ''}`,
        { details: { status: `is '${row.status}'` } },
      );
    }
  }

  private async assertNoPendingPayment(db: Queryable, row: InvoiceRow, what: string): Promise<void> {
    const pending = await db.query(
      `SELECT id FROM payments WHERE invoice_id = $1 AND status = 'pending' LIMIT 1`,
      [row.id],
    );
    if (pending.rowCount) throw pendingPayment(what, (pending.rows[0] as { id: string }).id);
  }

  /**
   * Charges an open (or uncollectible) invoice by mobile money: a payment for the
   * amount due, linked to the invoice, through the payment service a POST
   * /v1/payments uses. The phone defaults to the customer's. The provider is
   * asked after commit; the outcome arrives through `applyPaymentOutcome`.
   */
  async pay(
    db: Queryable,
    actor: Actor,
    id: string,
    input: { phone?: string | undefined },
    afterCommit: (task: () => Promise<void>) => void,
  ): Promise<{ invoice: InvoiceObject; payment: PaymentObject }> {
    return this.charge(db, actor, await this.locked(db, actor, id), input.phone, afterCommit);
  }

  /** Charges a locked invoice row; `payer` is the API caller or the hosted page's customer. */
  async charge(
    db: Queryable,
    payer: Actor,
    row: InvoiceRow,
    phone: string | undefined,
    afterCommit: (task: () => Promise<void>) => void,
  ): Promise<{ invoice: InvoiceObject; payment: PaymentObject }> {
    this.assertPayable(row, 'paid');
    await this.assertNoPendingPayment(db, row, 'paid again');
    const to = phone ?? (await this.customerPhone(db, row));
    const payment = await this.payments().create(
      db,
      payer,
      {
        amount: row.total - row.amount_paid,
        currency: row.currency,
        phone: to,
        description: `Invoice ${row.number}`,
        customer: row.customer_id,
        metadata: { invoice: row.id },
        invoiceId: row.id,
      },
      afterCommit,
    );
    const updated = await db.query<InvoiceRow>(
      `UPDATE invoices SET payment_id = $2 WHERE id = $1 RETURNING *`,
      [row.id, payment.id],
    );
    return { invoice: this.toObject(updated.rows[0]!), payment };
  }

  private async customerPhone(db: Queryable, row: InvoiceRow): Promise<string> {
    const found = await db.query<{ phone: string | null }>('SELECT phone FROM customers WHERE id = $1', [
      row.customer_id,
    ]);
    const normalized = normalizeTanzanianMobile(found.rows[0]?.phone ?? '');
    if (!normalized) {
      throw invalidField(
        'parameter_missing',
        'phone',
        'is required: the customer has no mobile money number',
      );
    }
    return normalized;
  }

  /**
   * Called in the payment outcome's transaction for a payment linked to an
   * invoice: a paid one pays the invoice (`invoice.paid`); then listeners hear
   * of it. A payment that lands on an invoice voided meanwhile leaves it alone.
   */
  async applyPaymentOutcome(tx: Queryable, payment: PaymentRow): Promise<void> {
    const found = await tx.query<InvoiceRow>('SELECT * FROM invoices WHERE id = $1 FOR UPDATE', [
      payment.invoice_id,
    ]);
    let row = found.rows[0];
    if (!row) return;
    if (payment.status === 'paid') {
      if (!invoiceIsPayable(row.status)) return;
      assertInvoiceTransition(row.status, 'paid');
      const updated = await tx.query<InvoiceRow>(
        `UPDATE invoices SET status = 'paid', amount_paid = amount_paid + $2, paid_at = now(), payment_id = $3,
           overdue_check_at = NULL
         WHERE id = $1 RETURNING *`,
        [row.id, payment.amount, payment.id],
      );
      row = updated.rows[0]!;
      await this.emit(tx, 'invoice.paid', row);
    } else if (payment.status !== 'failed') {
      return;
    }
    const outcome: InvoicePaymentOutcome = {
      status: payment.status,
      payment: this.payments().toObject(payment),
    };
    const invoice = this.toObject(row);
    for (const listener of this.listeners) await listener(tx, invoice, outcome);
  }
}
