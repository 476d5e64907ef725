/**
 * Invoices: drafts with lines, finalisation with a gapless number, voiding,
 * writing off and sending (their payment by mobile money is `collection.ts`).
 * Every function takes the caller's transaction, so the change and its event
 * commit together.
 */
import {
  AppError,
  DEFAULT_VAT_REGION,
  assertTransition,
  INVOICE_STATES,
  formatInvoiceNumber,
  invalidField,
  invoiceIsPayable,
  invoiceTotals,
  newId,
  type Currency,
  type InvoiceLineInput,
  type InvoiceStatus,
  type InvoiceTotals,
  type VatRegion,
} from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Actor, Tenant } from '../actor.ts';
import type { Clock } from '../infra/clock.ts';
import { recordEvent, recordEvents } from '../infra/events.ts';
import type { EventType } from '../infra/event-types.ts';
import { assertCustomersExist } from '../customers/service.ts';
import { findOwned } from '../infra/owned.ts';
import { randomToken } from '../infra/secrets.ts';
import { storedStates, transition } from '../infra/transitions.ts';
import { insertDrafts, type DraftColumns } from './batch.ts';
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

const INVOICES = storedStates(INVOICE_STATES, 'invoices');
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
/** The stored columns of priced lines: lines, tax_breakdown, subtotal, tax, total. */
const pricedColumns = (totals: InvoiceTotals) => [
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
  constructor(
    private readonly publicUrl: string,
    private readonly clock: Clock,
    private readonly documents: InvoiceDocuments,
  ) {}

  toObject = (row: InvoiceRow): InvoiceObject => invoiceObject(row, this.publicUrl);

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

  /** Records `type` for the invoice as it now is, in the change's transaction. */
  async emit(db: Queryable, type: EventType, row: InvoiceRow): Promise<InvoiceObject> {
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
    const [row] = await this.createMany(db, [{ actor, input }]);
    return this.toObject(row!);
  }

  /**
   * Drafts for many invoices at once, each for its actor's tenant: one insert
   * for all and one for their `invoice.created` events. Returns the rows, for
   * `finalizeMany` in the same transaction.
   */
  async createMany(
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
        dueAt: this.dueAt(input),
        hostedToken: randomToken(32),
      };
    });
    await assertCustomersExist(
      db,
      items.map(({ actor, input }) => ({ ...actor, customerId: input.customer })),
    );
    const rows = await insertDrafts(db, drafts);
    await this.emitMany(db, 'invoice.created', rows);
    return rows;
  }

  async retrieve(db: Queryable, tenant: Tenant, id: string): Promise<InvoiceObject> {
    return this.toObject(await findOwned<InvoiceRow>(db, 'invoices', 'invoice', tenant, id));
  }

  /** The invoice's PDF, or its receipt's once paid. */
  async document(
    db: Queryable,
    tenant: Tenant,
    id: string,
    kind: DocumentKind,
    language: InvoiceLanguage,
  ): Promise<Buffer> {
    return this.documentOf(
      db,
      await findOwned<InvoiceRow>(db, 'invoices', 'invoice', tenant, id),
      kind,
      language,
    );
  }

  /** The PDF of a row already found: stored once rendered, rendered again when what it shows changed. */
  documentOf(db: Queryable, row: InvoiceRow, kind: DocumentKind, language: InvoiceLanguage): Promise<Buffer> {
    return this.documents.get(db, row, kind, language, hostedInvoiceUrl(row, this.publicUrl));
  }

  listSource(
    tenant: Tenant,
    filters: {
      status?: InvoiceStatus | undefined;
      customer?: string | undefined;
      subscription?: string | undefined;
    },
  ) {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
    if (filters.customer) where += ` AND customer_id = $${params.push(filters.customer)}`;
    if (filters.subscription) where += ` AND subscription_id = $${params.push(filters.subscription)}`;
    return { table: 'invoices', where, params };
  }

  async locked(db: Queryable, tenant: Tenant, id: string): Promise<InvoiceRow> {
    return findOwned<InvoiceRow>(db, 'invoices', 'invoice', tenant, id, { lock: true });
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
  async finalize(db: Queryable, tenant: Tenant, id: string): Promise<InvoiceObject> {
    const [row] = await this.finalizeMany(db, [await this.locked(db, tenant, id)]);
    return this.toObject(row!);
  }

  /**
   * Finalises drafts the caller holds (locked, or made in this transaction):
   * each tenant's numbers come from one counter update, taken here, so call it
   * last in the transaction to hold the counter briefly. Numbers follow the
   * drafts' order. Emits `invoice.finalized` for each; returns the opened rows.
   */
  async finalizeMany(db: Queryable, drafts: readonly InvoiceRow[]): Promise<InvoiceRow[]> {
    for (const draft of drafts) this.assertFinalizable(draft);
    const tenantOf = (row: InvoiceRow): Tenant => ({ merchantId: row.merchant_id, livemode: row.livemode });
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
    const opened = await transition(db, INVOICES, drafts, 'open', {
      set: 'number = m.number, finalized_at = now(), overdue_check_at = due_at',
      perRow: { number: ['text', numbers] },
    });
    await this.emitMany(db, 'invoice.finalized', opened);
    return opened;
  }

  /** What finalisation refuses: a total under 1, a due date not ahead of the clock. */
  assertFinalizable(row: InvoiceRow): void {
    assertTransition(INVOICE_STATES, row.status, 'open');
    if (row.total < 1) {
      throw invalidField('amount_invalid', 'lines', 'an invoice needs a total of at least 1 to be finalised');
    }
    if (row.due_at.getTime() <= this.clock.now().getTime()) {
      throw invalidField('parameter_invalid', 'due_date', 'is in the past; give the draft a new due date');
    }
  }

  /** Records one event of `type` for each row, in one statement. */
  emitMany(db: Queryable, type: EventType, rows: readonly InvoiceRow[]): Promise<InvoiceObject[]> {
    return recordEvents(db, type, rows, this.toObject);
  }

  /** Voids a draft or an unpaid invoice; refused while a payment for it awaits approval. */
  async void(db: Queryable, tenant: Tenant, id: string): Promise<InvoiceObject> {
    const row = await this.locked(db, tenant, id);
    assertTransition(INVOICE_STATES, row.status, 'void');
    await this.assertNoPendingPayment(db, row, 'voided');
    const voided = await transition(db, INVOICES, row, 'void', {
      set: 'voided_at = now(), overdue_check_at = NULL',
    });
    return this.emit(db, 'invoice.voided', voided);
  }

  /** Writes an open invoice off; a payment that still arrives pays it. */
  async markUncollectible(db: Queryable, tenant: Tenant, id: string): Promise<InvoiceObject> {
    const row = await this.locked(db, tenant, id);
    const written = await transition(db, INVOICES, row, 'uncollectible', {
      set: 'marked_uncollectible_at = now(), overdue_check_at = NULL',
    });
    return this.emit(db, 'invoice.marked_uncollectible', written);
  }

  /**
   * Sends an invoice. There is no email or SMS provider: sending finalises a
   * draft, records `sent_at` and emits `invoice.sent` with the hosted page's
   * URL, for the merchant's own channel (a webhook handler, WhatsApp) to deliver.
   */
  async send(db: Queryable, tenant: Tenant, id: string): Promise<InvoiceObject> {
    const found = await this.locked(db, tenant, id);
    const row = found.status === 'draft' ? (await this.finalizeMany(db, [found]))[0]! : found;
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
}
