import { eastAfricaDate } from '@tz/core';
import type { Actor } from '../actor.ts';
import type { InvoiceCollection } from '../invoices/collection.ts';
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

/**
 * Subscriptions' invoices through the invoice service: a batch of drafts, each with
 * its period's one line (tax included, standard rate), finalized together, due a day after the
 * last retry; charged to the subscription's phone.
 */
export function invoicePortOver(
  invoices: InvoiceService,
  collection: InvoiceCollection,
  retryDays: readonly number[],
): InvoicePort {
  const daysUntilDue = (retryDays.at(-1) ?? 0) + 1;
  return {
    async draftInvoices(db, periods) {
      const drafts = await invoices.createMany(
        db,
        periods.map(({ subscription: row, period }) => ({
          actor: billingActor(row),
          input: {
            customer: row.customer_id,
            currency: row.currency,
            lines: [
              {
                description: `${row.description ?? 'Subscription'}, ${eastAfricaDate(period.start)} to ${eastAfricaDate(period.end)}`,
                quantity: 1,
                unitAmount: row.amount,
                taxClass: 'standard' as const,
              },
            ],
            days_until_due: daysUntilDue,
            subscription_id: row.id,
            metadata: { subscription: row.id, period: String(period.index) },
          },
        })),
      );
      return {
        ids: drafts.map((draft) => draft.id),
        finalize: async () => {
          await invoices.finalizeMany(db, drafts);
        },
      };
    },
    async chargeInvoices(db, charges, afterCommit) {
      const charged = await collection.chargeMany(
        db,
        charges.map(({ subscription, invoiceId }) => ({
          actor: billingActor(subscription),
          invoiceId,
          phone: subscription.phone,
        })),
        afterCommit,
      );
      return charged.map((c) => c.payment.id);
    },
  };
}
