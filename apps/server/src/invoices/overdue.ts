import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { Clock } from '../infra/clock.ts';
import type { EventSignal } from '../infra/events.ts';
import { Poller } from '../infra/poller.ts';
import type { InvoiceService } from './service.ts';
import type { InvoiceRow } from './object.ts';

const POLL_INTERVAL_MS = 1_000;
const BATCH = 100;

/**
 * Emits `invoice.overdue` once per invoice still open past its due date. The
 * due time is a column (`overdue_check_at`, set at finalisation and cleared by
 * payment, voiding and writing off); every process polls, and a batch is
 * claimed with FOR UPDATE SKIP LOCKED and cleared in the transaction that
 * records its events, so two processes never emit one invoice's event twice.
 */
export class OverdueInvoices {
  private readonly poller: Poller;

  constructor(
    private readonly database: Database,
    private readonly invoices: InvoiceService,
    private readonly clock: Clock,
    private readonly events: EventSignal,
    logger: Logger,
  ) {
    this.poller = new Poller(async () => (await this.check(), false), {
      intervalMs: POLL_INTERVAL_MS,
      logger,
      failure: 'overdue invoice check failed',
    });
  }

  start(): void {
    this.poller.start();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** Emits the events now due; answers how many. */
  async check(): Promise<number> {
    let emitted = 0;
    for (;;) {
      const batch = await this.database.transaction(async (tx) => {
        const claimed = await tx.query<InvoiceRow>(
          `UPDATE invoices SET overdue_check_at = NULL, overdue_at = $1
           WHERE id IN (SELECT id FROM invoices WHERE overdue_check_at <= $1 AND status = 'open'
                        ORDER BY overdue_check_at LIMIT $2 FOR UPDATE SKIP LOCKED)
           RETURNING *`,
          [this.clock.now(), BATCH],
        );
        for (const row of claimed.rows) await this.invoices.emitOverdue(tx, row);
        return claimed.rows.length;
      });
      emitted += batch;
      if (batch > 0) this.events.notify();
      if (batch < BATCH) return emitted;
    }
  }
}
