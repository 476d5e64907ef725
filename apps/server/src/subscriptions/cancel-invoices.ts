import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { InvoicePaymentListener, InvoiceService } from '../invoices/service.ts';
import type { SubscriptionRow } from './rows.ts';

const tenantOf = (row: Pick<SubscriptionRow, 'merchant_id' | 'livemode'>): Tenant => ({
  merchantId: row.merchant_id,
  livemode: row.livemode,
});

const hasPendingPayment = async (db: Queryable, invoiceId: string): Promise<boolean> =>
  ((
    await db.query(`SELECT 1 FROM payments WHERE invoice_id = $1 AND status = 'pending' LIMIT 1`, [invoiceId])
  ).rowCount ?? 0) > 0;

const markVoidOnFailedCharge = (db: Queryable, subscriptionId: string, period: number) =>
  db.query(
    `UPDATE subscription_periods SET void_on_failed_charge = true WHERE subscription_id = $1 AND period = $2`,
    [subscriptionId, period],
  );

/**
 * Canceling now voids what the subscription still asks to be paid: each open
 * invoice of its periods, with `invoice.voided`, in the cancel's transaction
 * (the caller holds the subscription's row, and retries were cleared with it).
 * An invoice whose charge awaits its outcome is not voided (that payment may
 * still succeed and must pay it): its period is marked, and a failed outcome
 * voids it then (`voidAfterFailedCharge`). An invoice the merchant marked
 * uncollectible stays as they left it.
 *
 * Locks: a payment outcome takes the invoice's row, then the subscription's; so
 * the invoice is taken here without waiting (SKIP LOCKED). Held by someone
 * else while a payment is pending, it is that payment's outcome: marked. With
 * none pending, the holder is a short change to the invoice alone: waited for.
 */
export async function voidOpenInvoices(
  db: Queryable,
  invoices: InvoiceService,
  row: SubscriptionRow,
): Promise<void> {
  const open = await db.query<{ period: number; invoice_id: string }>(
    `SELECT p.period, p.invoice_id FROM subscription_periods p JOIN invoices i ON i.id = p.invoice_id
     WHERE p.subscription_id = $1 AND i.status = 'open' ORDER BY p.period`,
    [row.id],
  );
  for (const { period, invoice_id: invoiceId } of open.rows) {
    const taken = await db.query<{ status: string }>(
      `SELECT status FROM invoices WHERE id = $1 FOR UPDATE SKIP LOCKED`,
      [invoiceId],
    );
    let status = taken.rows[0]?.status;
    if (status === undefined) {
      if (await hasPendingPayment(db, invoiceId)) {
        await markVoidOnFailedCharge(db, row.id, period);
        continue;
      }
      const waited = await db.query<{ status: string }>(
        `SELECT status FROM invoices WHERE id = $1 FOR UPDATE`,
        [invoiceId],
      );
      status = waited.rows[0]!.status;
    }
    if (status !== 'open') continue;
    if (await hasPendingPayment(db, invoiceId)) await markVoidOnFailedCharge(db, row.id, period);
    else await invoices.void(db, tenantOf(row), invoiceId);
  }
}

/**
 * In a payment outcome's transaction: a failed charge of an invoice whose
 * subscription was canceled now while the charge was out voids the invoice
 * (`invoice.voided`). A paid one pays it as ever (the subscription stays canceled).
 */
export function voidAfterFailedCharge(invoices: InvoiceService): InvoicePaymentListener {
  return async (tx, invoice, outcome) => {
    if (outcome.status !== 'failed' || invoice.status !== 'open') return;
    // The subscription's row first, as every outcome takes it: a cancel under way commits before this reads.
    const owner = await tx.query<Pick<SubscriptionRow, 'merchant_id' | 'livemode' | 'status'>>(
      `SELECT s.merchant_id, s.livemode, s.status FROM subscriptions s
       WHERE s.id = (SELECT subscription_id FROM subscription_periods WHERE invoice_id = $1) FOR UPDATE`,
      [invoice.id],
    );
    const subscription = owner.rows[0];
    if (subscription?.status !== 'canceled') return;
    const marked = await tx.query(
      `SELECT 1 FROM subscription_periods WHERE invoice_id = $1 AND void_on_failed_charge`,
      [invoice.id],
    );
    if (marked.rowCount) await invoices.void(tx, tenantOf(subscription), invoice.id);
  };
}
