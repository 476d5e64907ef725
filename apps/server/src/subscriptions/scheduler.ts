import type { Database, Queryable } from '../db/database.ts';
import type { Clock } from '../services/clock.ts';
import { notifyEventsWritten } from '../services/events.ts';
import type { SubscriptionBilling } from './billing.ts';
import { Poller } from '../services/poller.ts';
import type { SubscriptionRow } from './rows.ts';

const BATCH = 50;

/**
 * Opens and charges each subscription's periods when due, and retries failed
 * charges on the dunning schedule. The work lives in two due columns,
 * `subscriptions.next_renewal_at` and `subscription_periods.next_attempt_at`,
 * read against an injected clock. Every pass claims a batch with FOR UPDATE
 * SKIP LOCKED in one short transaction that also does the batch's work (the
 * invoice, the payment, the next due time), so the claim and its effect
 * commit together: a process that dies mid-batch rolls back and leaves the
 * rows due, and two processes never take one row. Nothing in the transaction
 * waits on anything but its own statements (the embedded database has one
 * session); providers are asked after commit. Any number of processes run
 * one; each polls, and a write that makes something due now wakes its own.
 */
export class SubscriptionScheduler {
  private readonly poller: Poller;

  constructor(
    private readonly database: Database,
    private readonly billing: SubscriptionBilling,
    private readonly clock: Clock,
    pollIntervalMs: number,
    private readonly log: (error: unknown, message: string) => void,
  ) {
    this.poller = new Poller(
      () => this.pass(),
      pollIntervalMs,
      (error) => log(error, 'subscription scheduling failed'),
    );
  }

  start(): void {
    this.poller.start();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** Something may be due now (a subscription was created): look at once. */
  wake(): void {
    this.poller.wake();
  }

  /** Runs passes until nothing is due at the clock's time, failing loudly: for tests that move the clock. */
  async runDue(): Promise<void> {
    await this.poller.idle();
    while (await this.pass());
  }

  /** A batch of renewals and one of retries; true when either found work (more may be due). */
  private async pass(): Promise<boolean> {
    return (await this.renewDue()) + (await this.retryDue()) > 0;
  }

  /** One batch of due renewals (and cancellations at period end), oldest due first. */
  private async renewDue(): Promise<number> {
    return this.inTransaction(async (tx, afterCommit) => {
      const due = await tx.query<SubscriptionRow>(
        `SELECT * FROM subscriptions
         WHERE next_renewal_at <= $1 AND (status IN ('trialing', 'active') OR cancel_at_period_end)
         ORDER BY next_renewal_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [this.clock.now(), BATCH],
      );
      for (const row of due.rows) await this.billing.renew(tx, row, afterCommit);
      return due.rows.length;
    });
  }

  /** One batch of due retries: the period's invoice charged again. */
  private async retryDue(): Promise<number> {
    return this.inTransaction(async (tx, afterCommit) => {
      const due = await tx.query<{ period: number; invoice_id: string; attempts: number } & SubscriptionRow>(
        `WITH claimed AS (
           SELECT subscription_id, period, invoice_id, attempts FROM subscription_periods
           WHERE next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         SELECT s.*, c.period, c.invoice_id, c.attempts FROM claimed c JOIN subscriptions s ON s.id = c.subscription_id`,
        [this.clock.now(), BATCH],
      );
      for (const row of due.rows) {
        await this.billing.charge(
          tx,
          row,
          { period: row.period, invoiceId: row.invoice_id, attempt: row.attempts + 1 },
          afterCommit,
        );
      }
      return due.rows.length;
    });
  }

  private async inTransaction(
    work: (tx: Queryable, afterCommit: (task: () => Promise<void>) => void) => Promise<number>,
  ): Promise<number> {
    const tasks: Array<() => Promise<void>> = [];
    const count = await this.database.transaction((tx) => work(tx, (task) => tasks.push(task)));
    if (count > 0) notifyEventsWritten();
    for (const task of tasks) {
      task().catch((error: unknown) => this.log(error, 'subscription charge could not start'));
    }
    return count;
  }
}
