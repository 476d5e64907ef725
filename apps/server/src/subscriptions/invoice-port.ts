import { BILLING_UTC_OFFSET_MS } from '@tz/core';
import type { Actor } from '../actor.ts';
import type { InvoiceService } from '../invoices/service.ts';
import type { InvoicePort } from './billing.ts';
import type { SubscriptionRow } from './rows.ts';

/** The scheduler acting for the subscription's merchant, in its mode. */
const billingActor = (row: SubscriptionRow): Actor => ({
  kind: 'subscription',
  merchantId: row.merchant_id,
  livemode: row.livemode,
  keyType: 'secret',
  credentialId: row.id,
});

/** A date as it reads in Dar es Salaam. */
const eastAfricaDate = (date: Date) =>
  new Date(date.getTime() + BILLING_UTC_OFFSET_MS).toISOString().slice(0, 10);

/**
 * Subscriptions' invoices through the invoice service: a draft with the period's
 * one line (tax included, standard rate), finalized at once, due a day after the
 * last retry; charged to the subscription's phone.
 */
export function invoicePortOver(invoices: InvoiceService, retryDays: readonly number[]): InvoicePort {
  const daysUntilDue = (retryDays.at(-1) ?? 0) + 1;
  return {
    async openInvoice(db, row, period) {
      const actor = billingActor(row);
      const draft = await invoices.create(db, actor, {
        customer: row.customer_id,
        currency: row.currency,
        lines: [
          {
            description: `${row.description ?? 'Subscription'}, ${eastAfricaDate(period.start)} to ${eastAfricaDate(period.end)}`,
            quantity: 1,
            unitAmount: row.amount,
            taxClass: 'standard',
          },
        ],
        days_until_due: daysUntilDue,
        subscription_id: row.id,
        metadata: { subscription: row.id, period: String(period.index) },
      });
      return (await invoices.finalize(db, actor, draft.id)).id;
    },
    async chargeInvoice(db, row, invoiceId, afterCommit) {
      const { payment } = await invoices.pay(
        db,
        billingActor(row),
        invoiceId,
        { phone: row.phone },
        afterCommit,
      );
      return payment.id;
    },
  };
}
