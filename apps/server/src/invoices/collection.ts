/**
 * Collecting an invoice: a payment by mobile money for what is due, through the
 * payment service a POST /v1/payments uses, one invoice or many at once, and
 * the payment's outcome applied to the invoice in the outcome's transaction.
 */
import { invalidField, INVOICE_STATES, invoiceIsPayable, normalizeTanzanianMobile, notFound } from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Actor } from '../actor.ts';
import type { PaymentObject, PaymentRow, PaymentService } from '../payments/service.ts';
import { storedStates, transition } from '../infra/transitions.ts';
import { linkPayments } from './batch.ts';
import type { InvoiceObject, InvoiceRow } from './object.ts';
import { pendingPayment, type InvoiceService } from './service.ts';

const INVOICES = storedStates(INVOICE_STATES, 'invoices');

export interface InvoicePaymentOutcome {
  status: 'paid' | 'failed';
  payment: PaymentObject;
}

/**
 * What an invoice was made for (a subscription's period), told of every
 * outcome of a payment linked to it, inside the payment outcome's transaction,
 * after the invoice moved (to `paid`) or stayed (on a failure): one that
 * throws rolls the whole outcome back.
 */
export interface InvoicePurposes {
  paymentOutcome(tx: Queryable, invoice: InvoiceObject, outcome: InvoicePaymentOutcome): Promise<void>;
}

export class InvoiceCollection {
  constructor(
    private readonly invoices: InvoiceService,
    private readonly payments: PaymentService,
    private readonly purposes: InvoicePurposes,
  ) {}

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
    return this.charge(db, actor, await this.invoices.locked(db, actor, id), input.phone, afterCommit);
  }

  /** Charges a locked invoice row; `payer` is the API caller or the hosted page's customer. */
  async charge(
    db: Queryable,
    payer: Actor,
    row: InvoiceRow,
    phone: string | undefined,
    afterCommit: (task: () => Promise<void>) => void,
  ): Promise<{ invoice: InvoiceObject; payment: PaymentObject }> {
    const [charged] = await this.chargeMany(db, [{ actor: payer, invoiceId: row.id, phone }], afterCommit);
    return { invoice: this.invoices.toObject(charged!.invoice), payment: charged!.payment };
  }

  /**
   * Charges many invoices at once, each to the phone given or else its
   * customer's: one query locks them all (in id order), one looks for pending
   * payments, and the payments, their events and the invoices' `payment_id` are
   * written with a statement each. Fails on the first invoice that cannot be
   * charged. Returns the invoices and their payments in the order given.
   */
  async chargeMany(
    db: Queryable,
    items: ReadonlyArray<{ actor: Actor; invoiceId: string; phone: string | undefined }>,
    afterCommit: (task: () => Promise<void>) => void,
  ): Promise<Array<{ invoice: InvoiceRow; payment: PaymentObject }>> {
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
      this.invoices.assertPayable(row, 'paid');
      return row;
    });
    const pending = await db.query<{ id: string }>(
      `SELECT id FROM payments WHERE invoice_id = ANY($1) AND status = 'pending' LIMIT 1`,
      [ids],
    );
    if (pending.rows[0]) throw pendingPayment('paid again', pending.rows[0].id);
    const phones: string[] = [];
    for (const [i, item] of items.entries())
      phones.push(item.phone ?? (await this.customerPhone(db, rows[i]!)));
    const payments = await this.payments.createMany(
      db,
      items.map(({ actor }, i) => {
        const row = rows[i]!;
        return {
          actor,
          input: {
            amount: row.total - row.amount_paid,
            currency: row.currency,
            phone: phones[i]!,
            description: `Invoice ${row.number}`,
            customer: row.customer_id,
            metadata: { invoice: row.id },
            invoiceId: row.id,
          },
        };
      }),
      afterCommit,
    );
    await linkPayments(
      db,
      ids,
      payments.map((p) => p.id),
    );
    return rows.map((row, i) => ({
      invoice: { ...row, payment_id: payments[i]!.id },
      payment: payments[i]!,
    }));
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
      row = await transition(tx, INVOICES, row, 'paid', {
        set: 'amount_paid = amount_paid + $1, paid_at = now(), payment_id = $2, overdue_check_at = NULL',
        params: [payment.amount, payment.id],
      });
      await this.invoices.emit(tx, 'invoice.paid', row);
    } else if (payment.status !== 'failed') {
      return;
    }
    const outcome: InvoicePaymentOutcome = {
      status: payment.status,
      payment: this.payments.toObject(payment),
    };
    const invoice = this.invoices.toObject(row);
    await this.purposes.paymentOutcome(tx, invoice, outcome);
  }
}
