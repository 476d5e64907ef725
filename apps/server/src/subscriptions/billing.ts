import {
  afterFailedCharge,
  assertTransition,
  billingPeriod,
  SUBSCRIPTION_STATES,
  type FinalFailureAction,
  type SubscriptionPeriodStatus,
} from '@tz/core';
import { write, type Queryable } from '../db/database.ts';
import type { Clock } from '../infra/clock.ts';
import { transition } from '../infra/transitions.ts';
import { cycleOf, SUBSCRIPTION_PERIODS, SUBSCRIPTIONS, type SubscriptionRow } from './rows.ts';
import { cancelSubscriptionRow, recordSubscriptionEvent } from './service.ts';

/** What subscriptions need from invoices; all of it runs in the caller's transaction. */
export interface InvoicePort {
  /**
   * Drafts the periods' invoices (one line each) and returns their ids in order;
   * `finalize` numbers and opens them all. Call it last in the transaction: it
   * takes the merchant's invoice number counter, held until commit.
   */
  draftInvoices(
    db: Queryable,
    periods: ReadonlyArray<{ subscription: SubscriptionRow; period: OpeningPeriod }>,
  ): Promise<{ ids: string[]; finalize: () => Promise<void> }>;
  /** Charges each invoice to its subscription's phone; the providers are asked after commit. Returns the payment ids in order. */
  chargeInvoices(
    db: Queryable,
    charges: ReadonlyArray<{ subscription: SubscriptionRow; invoiceId: string }>,
    afterCommit: (task: () => Promise<void>) => void,
  ): Promise<string[]>;
}

export interface OpeningPeriod {
  index: number;
  start: Date;
  end: Date;
}

interface PeriodRow {
  subscription_id: string;
  period: number;
  invoice_id: string;
  status: SubscriptionPeriodStatus;
  attempts: number;
  next_attempt_at: Date | null;
  first_failed_at: Date | null;
}

/**
 * Periods, their invoices and charges, and what a charge's outcome does to the
 * subscription. Opening a period and charging it are two steps, each in a
 * transaction that holds its row (the subscription's, then the period's), so two
 * processes never open one period or make one attempt twice, and the primary
 * keys of `subscription_periods` and `subscription_charges` back that up. A
 * period opens with its first charge due at once: a process that stops between
 * the two leaves the charge due for any other.
 */
export class SubscriptionBilling {
  constructor(
    private readonly invoices: InvoicePort,
    private readonly clock: Clock,
    private readonly retryDays: readonly number[],
  ) {}

  /**
   * At due renewals: cancels those asked for at period end, and opens the next
   * period of the others, each with its invoice and its charge due now. The
   * writes are set-based (one statement each for all the invoices, their events,
   * periods and subscriptions), and the invoice numbers are taken last, so the
   * merchant's counter is held only from there to the commit.
   */
  async renew(db: Queryable, rows: readonly SubscriptionRow[]): Promise<void> {
    const now = this.clock.now();
    const opening: Array<{ subscription: SubscriptionRow; period: OpeningPeriod }> = [];
    for (const row of rows) {
      if (row.cancel_at_period_end) {
        await cancelSubscriptionRow(db, row, now, 'requested');
        continue;
      }
      if (row.status === 'trialing') assertTransition(SUBSCRIPTION_STATES, row.status, 'active');
      const index = (row.current_period ?? -1) + 1;
      opening.push({
        subscription: row,
        period: { index, ...billingPeriod(row.billing_anchor, cycleOf(row), index) },
      });
    }
    if (opening.length === 0) return;
    const invoices = await this.invoices.draftInvoices(db, opening);
    await write(
      db,
      `INSERT INTO subscription_periods (subscription_id, period, invoice_id, status, next_attempt_at)
       SELECT subscription_id, period, invoice_id, 'open', $4
       FROM unnest($1::text[], $2::integer[], $3::text[]) AS p(subscription_id, period, invoice_id)`,
      [opening.map((o) => o.subscription.id), opening.map((o) => o.period.index), invoices.ids, now],
    );
    // A trial ends with its first period.
    await transition(
      db,
      SUBSCRIPTIONS,
      opening.map((o) => o.subscription).filter((row) => row.status === 'trialing'),
      'active',
    );
    await write(
      db,
      `UPDATE subscriptions s SET current_period = o.period, next_renewal_at = o.period_end
       FROM unnest($1::text[], $2::integer[], $3::timestamptz[]) AS o(id, period, period_end)
       WHERE s.id = o.id`,
      [
        opening.map((o) => o.subscription.id),
        opening.map((o) => o.period.index),
        opening.map((o) => o.period.end),
      ],
    );
    await invoices.finalize();
  }

  /** One charge of each period's invoice, each recorded under its attempt number; set-based. */
  async charge(
    db: Queryable,
    charges: ReadonlyArray<{ row: SubscriptionRow; period: number; invoiceId: string; attempt: number }>,
    afterCommit: (task: () => Promise<void>) => void,
  ): Promise<void> {
    if (charges.length === 0) return;
    const paymentIds = await this.invoices.chargeInvoices(
      db,
      charges.map((c) => ({ subscription: c.row, invoiceId: c.invoiceId })),
      afterCommit,
    );
    const ids = charges.map((c) => c.row.id);
    const periods = charges.map((c) => c.period);
    const attempts = charges.map((c) => c.attempt);
    await write(
      db,
      `INSERT INTO subscription_charges (subscription_id, period, attempt, payment_id)
       SELECT * FROM unnest($1::text[], $2::integer[], $3::integer[], $4::text[])`,
      [ids, periods, attempts, paymentIds],
    );
    await write(
      db,
      `UPDATE subscription_periods p SET attempts = c.attempt, next_attempt_at = NULL
       FROM unnest($1::text[], $2::integer[], $3::integer[]) AS c(subscription_id, period, attempt)
       WHERE p.subscription_id = c.subscription_id AND p.period = c.period`,
      [ids, periods, attempts],
    );
  }

  /**
   * The outcome of a charge of `invoiceId`, in the transaction that records it.
   * Paid: the period is paid, a past-due subscription is active again, and
   * `subscription.renewed` reports it. Failed: the next retry on the dunning
   * schedule, `past_due` at the first failure, and after the last retry the
   * subscription is canceled or left past due with no retry, as configured.
   * An invoice that is not a subscription's is none of this.
   */
  async onInvoicePayment(db: Queryable, invoiceId: string, outcome: 'paid' | 'failed'): Promise<void> {
    const owner = await db.query<{ subscription_id: string }>(
      `SELECT subscription_id FROM subscription_periods WHERE invoice_id = $1`,
      [invoiceId],
    );
    const subscriptionId = owner.rows[0]?.subscription_id;
    if (subscriptionId === undefined) return;
    // The subscription first, then the period: the order cancel and renewal take them in.
    const subscription = await db.query<SubscriptionRow>(
      `SELECT * FROM subscriptions WHERE id = $1 FOR UPDATE`,
      [subscriptionId],
    );
    const periods = await db.query<PeriodRow>(
      `SELECT * FROM subscription_periods WHERE invoice_id = $1 FOR UPDATE`,
      [invoiceId],
    );
    const row = subscription.rows[0]!;
    const period = periods.rows[0]!;
    if (period.status !== 'open') return;
    if (outcome === 'paid') await this.periodPaid(db, row, period);
    else if (row.status !== 'canceled') await this.chargeFailed(db, row, period);
  }

  private async periodPaid(db: Queryable, row: SubscriptionRow, period: PeriodRow): Promise<void> {
    await transition(db, SUBSCRIPTION_PERIODS, period, 'paid', { set: 'next_attempt_at = NULL' });
    if (row.status === 'canceled') return;
    // Paid again after a failure: active once more (an active one stays so).
    const renewed = row.status === 'active' ? row : await transition(db, SUBSCRIPTIONS, row, 'active');
    await recordSubscriptionEvent(db, 'subscription.renewed', renewed);
  }

  private async chargeFailed(db: Queryable, row: SubscriptionRow, period: PeriodRow): Promise<void> {
    const now = this.clock.now();
    const firstFailedAt = period.first_failed_at ?? now;
    const next = afterFailedCharge(
      period.attempts,
      firstFailedAt,
      this.retryDays,
      row.after_final_failure satisfies FinalFailureAction,
    );
    const canceling = next.kind === 'give_up' && next.status === 'canceled';
    if (canceling) {
      await transition(db, SUBSCRIPTION_PERIODS, period, 'failed', {
        set: 'first_failed_at = $1, next_attempt_at = NULL',
        params: [firstFailedAt],
      });
      await cancelSubscriptionRow(db, row, now, 'payment_failed');
      return;
    }
    // Left unpaid, the period stays open with no retry due: paid later, it still counts.
    await db.query(
      `UPDATE subscription_periods SET first_failed_at = $3, next_attempt_at = $4
       WHERE subscription_id = $1 AND period = $2`,
      [row.id, period.period, firstFailedAt, next.kind === 'retry' ? next.at : null],
    );
    if (row.status === 'past_due') return;
    const pastDue = await transition(db, SUBSCRIPTIONS, row, 'past_due');
    await recordSubscriptionEvent(db, 'subscription.past_due', pastDue);
  }
}
