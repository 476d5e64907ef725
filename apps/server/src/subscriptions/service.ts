import {
  AppError,
  assertResumable,
  assertTransition,
  SUBSCRIPTION_STATES,
  invalidField,
  MAX_INTERVAL_COUNT,
  newId,
  type BillingInterval,
  type Currency,
  type FinalFailureAction,
  type SubscriptionStatus,
} from '@tz/core';
import type { Actor, Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { Clock } from '../infra/clock.ts';
import { assertCustomerExists } from '../customers/service.ts';
import { recordEvent } from '../infra/events.ts';
import type { EventType } from '../infra/event-types.ts';
import { findOwned } from '../infra/owned.ts';
import { transition } from '../infra/transitions.ts';
import type { InvoiceService } from '../invoices/service.ts';
import { takeOpenInvoices, voidTakenInvoices } from './cancel-invoices.ts';
import { SUBSCRIPTIONS, subscriptionObject, type SubscriptionObject, type SubscriptionRow } from './rows.ts';

export interface CreateSubscriptionInput {
  customer: string;
  amount: number;
  currency: Currency;
  interval: BillingInterval;
  interval_count: number;
  phone: string;
  description?: string | undefined;
  metadata?: Record<string, string> | undefined;
  trial_period_days?: number | undefined;
  /** Unix seconds; now when absent. */
  start_date?: number | undefined;
  after_final_failure: FinalFailureAction;
}

/** A start date this far behind the clock counts as now (a client's clock runs a little slow). */
const START_DATE_GRACE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Writes one subscription event with the subscription as it now is. */
export async function recordSubscriptionEvent(
  db: Queryable,
  type: Extract<EventType, `subscription.${string}`>,
  row: SubscriptionRow,
): Promise<void> {
  await recordEvent(db, {
    merchantId: row.merchant_id,
    livemode: row.livemode,
    type,
    object: subscriptionObject(row),
  });
}

/**
 * Cancels: no period opens and no retry runs after this; a charge already sent
 * may still be paid. Canceling now by request also voids the open invoices
 * (`SubscriptionService.cancel`); here, at period end or after the last retry,
 * an invoice already open stays as it is.
 */
export async function cancelSubscriptionRow(
  db: Queryable,
  row: SubscriptionRow,
  at: Date,
  reason: 'requested' | 'payment_failed',
): Promise<SubscriptionRow> {
  const canceled = await transition(db, SUBSCRIPTIONS, row, 'canceled', {
    set: 'canceled_at = $1, cancellation_reason = $2, next_renewal_at = NULL, cancel_at_period_end = false',
    params: [at, reason],
  });
  await db.query(
    `UPDATE subscription_periods SET next_attempt_at = NULL
     WHERE subscription_id = $1 AND next_attempt_at IS NOT NULL`,
    [row.id],
  );
  await recordSubscriptionEvent(db, 'subscription.canceled', canceled);
  return canceled;
}

/** The merchant's side of subscriptions: create, read, cancel, resume. The scheduler does the rest. */
export class SubscriptionService {
  constructor(
    private readonly clock: Clock,
    private readonly invoices: InvoiceService,
    /** Woken after a commit that may have made a renewal due now. */
    private readonly scheduler: { wake(): void },
  ) {}

  async create(
    db: Queryable,
    actor: Actor,
    input: CreateSubscriptionInput,
    afterCommit: (task: () => Promise<void>) => void,
  ): Promise<SubscriptionObject> {
    const max = MAX_INTERVAL_COUNT[input.interval];
    if (input.interval_count > max) {
      throw invalidField(
        'parameter_invalid',
        'interval_count',
        `must be at most ${max} for a ${input.interval} interval (a period of at most one year)`,
      );
    }
    const now = this.clock.now();
    let start = now;
    if (input.start_date !== undefined) {
      const asked = new Date(input.start_date * 1000);
      if (asked.getTime() < now.getTime() - START_DATE_GRACE_MS) {
        throw invalidField('parameter_invalid', 'start_date', 'must not be in the past');
      }
      if (asked > now) start = asked;
    }
    await assertCustomerExists(db, actor, input.customer);
    const anchor = new Date(start.getTime() + (input.trial_period_days ?? 0) * DAY_MS);
    const status: SubscriptionStatus = input.trial_period_days ? 'trialing' : 'active';
    const inserted = await db.query<SubscriptionRow>(
      `INSERT INTO subscriptions (id, merchant_id, livemode, customer_id, amount, currency, interval, interval_count,
         phone, description, metadata, status, after_final_failure, start_at, billing_anchor, next_renewal_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15, $16) RETURNING *`,
      [
        newId('subscription'),
        actor.merchantId,
        actor.livemode,
        input.customer,
        input.amount,
        input.currency,
        input.interval,
        input.interval_count,
        input.phone,
        input.description ?? null,
        JSON.stringify(input.metadata ?? {}),
        status,
        input.after_final_failure,
        start,
        anchor,
        now,
      ],
    );
    const row = inserted.rows[0]!;
    await recordSubscriptionEvent(db, 'subscription.created', row);
    if (anchor <= now) afterCommit(() => Promise.resolve(this.scheduler.wake()));
    return subscriptionObject(row);
  }

  async retrieve(db: Queryable, tenant: Tenant, id: string): Promise<SubscriptionObject> {
    return subscriptionObject(
      await findOwned<SubscriptionRow>(db, 'subscriptions', 'subscription', tenant, id),
    );
  }

  listSource(
    tenant: Tenant,
    filters: { status?: SubscriptionStatus | undefined; customer?: string | undefined },
  ) {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (filters.status) where += ` AND status = $${params.push(filters.status)}`;
    if (filters.customer) where += ` AND customer_id = $${params.push(filters.customer)}`;
    return { table: 'subscriptions', where, params };
  }

  /**
   * Cancels now, or at the end of the current period (the trial's end while trialing):
   * the scheduler cancels it then instead of opening the next period. Canceling now
   * voids the open invoices in the same transaction (`voidTakenInvoices`: one whose
   * charge awaits its outcome is voided if that charge fails, and paid if it succeeds).
   * Its time is read once every lock it needs is held, so no charge that held one
   * meanwhile appears to come after it.
   */
  async cancel(db: Queryable, tenant: Tenant, id: string, atPeriodEnd: boolean): Promise<SubscriptionObject> {
    const row = await findOwned<SubscriptionRow>(db, 'subscriptions', 'subscription', tenant, id, {
      lock: true,
    });
    if (!atPeriodEnd) {
      assertTransition(SUBSCRIPTION_STATES, row.status, 'canceled');
      const fates = await takeOpenInvoices(db, row);
      const canceled = await cancelSubscriptionRow(db, row, this.clock.now(), 'requested');
      await voidTakenInvoices(db, this.invoices, canceled, fates);
      return subscriptionObject(canceled);
    }
    assertTransition(SUBSCRIPTION_STATES, row.status, 'canceled');
    if (row.next_renewal_at === null) {
      throw new AppError('state_transition_invalid', 'This subscription has no period end to cancel at', {
        details: { at_period_end: 'no further period opens; cancel now instead' },
      });
    }
    const updated = await db.query<SubscriptionRow>(
      `UPDATE subscriptions SET cancel_at_period_end = true WHERE id = $1 RETURNING *`,
      [row.id],
    );
    return subscriptionObject(updated.rows[0]!);
  }

  /**
   * Undoes a cancellation at period end before the period ends: the scheduler
   * opens the next period then, as if it had never been asked for.
   */
  async resume(db: Queryable, tenant: Tenant, id: string): Promise<SubscriptionObject> {
    const row = await findOwned<SubscriptionRow>(db, 'subscriptions', 'subscription', tenant, id, {
      lock: true,
    });
    assertResumable(
      { status: row.status, cancelAtPeriodEnd: row.cancel_at_period_end, periodEnd: row.next_renewal_at },
      this.clock.now(),
    );
    const updated = await db.query<SubscriptionRow>(
      `UPDATE subscriptions SET cancel_at_period_end = false WHERE id = $1 RETURNING *`,
      [row.id],
    );
    return subscriptionObject(updated.rows[0]!);
  }
}
