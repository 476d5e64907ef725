import type { Logger } from 'pino';
import { AppError } from '@tz/core';
import type { Database, Queryable, Transaction } from '../db/database.ts';
import type { Clock } from '../infra/clock.ts';
import type { EventSignal } from '../infra/events.ts';
import type { SubscriptionBilling } from './billing.ts';
import { Poller } from '../infra/poller.ts';
import type { SubscriptionRow } from './rows.ts';

/**
 * Rows per transaction. A batch of openings writes its invoices, events, periods
 * and subscriptions with one statement each and takes its invoice numbers last,
 * in one counter update held only until the commit, so a large batch costs the
 * other process little wait (sizes chosen by bench/subscriptions.ts).
 */
const OPEN_BATCH = 250;
const CHARGE_BATCH = 250;
/** A row refused by a rule (an AppError) is looked at again an hour later (by the scheduler's clock)… */
const REFUSED_ROW_DELAY_MS = 60 * 60 * 1000;
/** …and one that met a database failure (a lock or statement timeout), a few seconds later. */
const FAILED_ROW_DELAY_MS = 5_000;

type DueCharge = SubscriptionRow & {
  period: number;
  invoice_id: string;
  attempts: number;
  invoice_status: string;
};

/**
 * Opens and charges each subscription's periods when due, and retries failed
 * charges on the dunning schedule. The work lives in two due columns,
 * `subscriptions.next_renewal_at` and `subscription_periods.next_attempt_at`,
 * read against an injected clock. A pass claims a batch of due renewals with
 * FOR UPDATE SKIP LOCKED in one short transaction that also opens their
 * periods (the invoice, the next renewal, a charge due now), then a batch of
 * due charges likewise (the payment, the charge's record): the claim and its
 * effect commit together, so a process that dies mid-batch rolls back and
 * leaves the rows due, and two processes never take one row. A batch's work
 * is set-based, and opening takes its invoice numbers last, so the invoice
 * number counter, a row lock per merchant, is held only from there to the
 * commit; opening and charging are separate transactions so that charges
 * never hold it. Nothing in the transaction waits on anything but its own
 * statements (the embedded database has one session); providers are asked
 * after commit. Any number of processes run
 * one; each polls, and a write that makes something due now wakes its own.
 */
export class SubscriptionScheduler {
  private readonly poller: Poller;

  constructor(
    private readonly database: Database,
    private readonly billing: SubscriptionBilling,
    private readonly clock: Clock,
    pollIntervalMs: number,
    private readonly events: EventSignal,
    private readonly logger: Logger,
  ) {
    this.poller = new Poller(() => this.pass(), {
      intervalMs: pollIntervalMs,
      logger,
      failure: 'subscription scheduling failed',
    });
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

  /** A batch of renewals and one of charges; true when either found work (more may be due). */
  private async pass(): Promise<boolean> {
    return (await this.renewDue()) + (await this.chargeDue()) > 0;
  }

  /** One batch of due renewals (and cancellations at period end), oldest due first, opened together. */
  private renewDue(): Promise<number> {
    return this.batch<SubscriptionRow>(
      `SELECT * FROM subscriptions
       WHERE next_renewal_at <= $1 AND (status IN ('trialing', 'active') OR cancel_at_period_end)
       ORDER BY next_renewal_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      OPEN_BATCH,
      (tx, rows) => this.billing.renew(tx, rows),
      (tx, row, until) =>
        tx.query(`UPDATE subscriptions SET next_renewal_at = $2 WHERE id = $1`, [row.id, until]),
    );
  }

  /** One batch of due charges (a new period's first, or a retry), while the invoice can still be paid. */
  private chargeDue(): Promise<number> {
    return this.batch<DueCharge>(
      `WITH claimed AS (
         SELECT subscription_id, period, invoice_id, attempts FROM subscription_periods
         WHERE next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       SELECT s.*, c.period, c.invoice_id, c.attempts, i.status AS invoice_status
       FROM claimed c JOIN subscriptions s ON s.id = c.subscription_id JOIN invoices i ON i.id = c.invoice_id`,
      CHARGE_BATCH,
      async (tx, rows, afterCommit) => {
        const payable = (row: DueCharge) =>
          row.invoice_status === 'open' || row.invoice_status === 'uncollectible';
        // Voided (or paid some other way) meanwhile: nothing left to retry.
        for (const row of rows.filter((r) => !payable(r))) await this.postponeCharge(tx, row, null);
        const charges = rows
          .filter(payable)
          .map((row) => ({ row, period: row.period, invoiceId: row.invoice_id, attempt: row.attempts + 1 }));
        await this.billing.charge(tx, charges, afterCommit);
      },
      (tx, row, until) => this.postponeCharge(tx, row, until),
    );
  }

  private postponeCharge(tx: Queryable, row: DueCharge, until: Date | null) {
    return tx.query(
      `UPDATE subscription_periods SET next_attempt_at = $3 WHERE subscription_id = $1 AND period = $2`,
      [row.id, row.period, until],
    );
  }

  /**
   * Claims a batch with `claim` and runs `work` on all its rows in one
   * transaction, under a savepoint. When that fails, the batch is rolled back
   * to the savepoint and each row runs alone under its own: a row whose work
   * fails (an invoice the merchant changed meanwhile, a lock wait past the
   * statement timeout) is rolled back alone, logged, and put off by `postpone`,
   * so it cannot hold up the rest. After-commit tasks run only for work that stood.
   */
  private async batch<Row extends { id: string }>(
    claim: string,
    size: number,
    work: (tx: Queryable, rows: Row[], afterCommit: (task: () => Promise<void>) => void) => Promise<void>,
    postpone: (tx: Queryable, row: Row, until: Date) => Promise<unknown>,
  ): Promise<number> {
    const now = this.clock.now();
    const tasks: Array<() => Promise<void>> = [];
    /** Runs `rows` under a savepoint; on failure, rolls them back and returns the error. */
    const attempt = async (tx: Transaction, rows: Row[]): Promise<{ error: unknown } | undefined> => {
      const rowTasks: Array<() => Promise<void>> = [];
      tx.defer('SAVEPOINT due_rows');
      try {
        await work(tx, rows, (task) => rowTasks.push(task));
        // Waited for: a deferred write of the work that fails, fails here, inside the savepoint.
        await tx.query('RELEASE SAVEPOINT due_rows');
        tasks.push(...rowTasks);
        return undefined;
      } catch (error) {
        await tx.rollbackTo('due_rows');
        tx.defer('RELEASE SAVEPOINT due_rows');
        return { error };
      }
    };
    const count = await this.database.transaction(async (tx) => {
      const due = await tx.query<Row>(claim, [now, size]);
      if (due.rows.length === 0 || !(await attempt(tx, due.rows))) return due.rows.length;
      for (const row of due.rows) {
        const failed = await attempt(tx, [row]);
        if (!failed) continue;
        const delay = failed.error instanceof AppError ? REFUSED_ROW_DELAY_MS : FAILED_ROW_DELAY_MS;
        await postpone(tx, row, new Date(now.getTime() + delay));
        this.logger.error(
          { err: failed.error },
          `subscription ${row.id} could not be billed; trying again later`,
        );
      }
      return due.rows.length;
    });
    if (count > 0) this.events.notify();
    for (const task of tasks) {
      task().catch((error: unknown) =>
        this.logger.error({ err: error }, 'subscription charge could not start'),
      );
    }
    return count;
  }
}
