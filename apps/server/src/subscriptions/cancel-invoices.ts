import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { InvoicePaymentOutcome } from '../invoices/collection.ts';
import type { InvoiceObject, InvoiceService } from '../invoices/service.ts';
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

/** What canceling now does to one open invoice, decided while holding it (or its charge's outcome). */
export interface OpenInvoiceFate {
  period: number;
  invoiceId: string;
  /** `void` now, or `mark`: its charge awaits an outcome, and a failed one voids it. */
  fate: 'void' | 'mark';
}

/**
 * Takes the subscription's open invoices for canceling now, waiting for any
 * short change under way, and says what becomes of each (`voidTakenInvoices`
 * does it). The caller holds the subscription's row; the cancel reads its
 * clock only after this, so its `canceled_at` never precedes a charge that
 * held an invoice while the cancel waited.
 *
 * Locks: a payment outcome takes the invoice's row, then the subscription's; so
 * the invoice is taken here without waiting (SKIP LOCKED). Held by someone
 * else while a payment is pending, it is that payment's outcome: marked. With
 * none pending, the holder is a short change to the invoice alone: waited for.
 */
export async function takeOpenInvoices(db: Queryable, row: SubscriptionRow): Promise<OpenInvoiceFate[]> {
  const open = await db.query<{ period: number; invoice_id: string }>(
    `SELECT p.period, p.invoice_id FROM subscription_periods p JOIN invoices i ON i.id = p.invoice_id
     WHERE p.subscription_id = $1 AND i.status = 'open' ORDER BY p.period`,
    [row.id],
  );
  const fates: OpenInvoiceFate[] = [];
  for (const { period, invoice_id: invoiceId } of open.rows) {
    const taken = await db.query<{ status: string }>(
      `SELECT status FROM invoices WHERE id = $1 FOR UPDATE SKIP LOCKED`,
      [invoiceId],
    );
    let status = taken.rows[0]?.status;
    if (status === undefined) {
      if (await hasPendingPayment(db, invoiceId)) {
        fates.push({ period, invoiceId, fate: 'mark' });
        continue;
      }
      const waited = await db.query<{ status: string }>(
        `SELECT status FROM invoices WHERE id = $1 FOR UPDATE`,
        [invoiceId],
      );
      status = waited.rows[0]!.status;
    }
    if (status !== 'open') continue;
    fates.push({ period, invoiceId, fate: (await hasPendingPayment(db, invoiceId)) ? 'mark' : 'void' });
  }
  return fates;
}

/**
 * Canceling now voids what the subscription still asks to be paid: each open
 * invoice `takeOpenInvoices` took, with `invoice.voided`, in the cancel's
 * transaction (after the subscription's own change and event). An invoice
 * whose charge awaits its outcome is not voided (that payment may still
 * succeed and must pay it): its period is marked, and a failed outcome voids
 * it then (`voidAfterFailedCharge`). An invoice the merchant marked
 * uncollectible stays as they left it.
 */
export async function voidTakenInvoices(
  db: Queryable,
  invoices: InvoiceService,
  row: SubscriptionRow,
  fates: readonly OpenInvoiceFate[],
): Promise<void> {
  for (const { period, invoiceId, fate } of fates) {
    if (fate === 'mark') await markVoidOnFailedCharge(db, row.id, period);
    else await invoices.void(db, tenantOf(row), invoiceId);
  }
}

/**
 * In a payment outcome's transaction: a failed charge of an invoice whose
 * subscription was canceled now while the charge was out voids the invoice
 * (`invoice.voided`). A paid one pays it as ever (the subscription stays canceled).
 */
export async function voidAfterFailedCharge(
  tx: Queryable,
  invoices: InvoiceService,
  invoice: InvoiceObject,
  outcome: InvoicePaymentOutcome,
): Promise<void> {
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
}
