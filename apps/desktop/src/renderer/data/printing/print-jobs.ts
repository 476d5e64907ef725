/**
 * Print jobs the server queued for this till's printers. Each is tried once:
 * the attempt is claimed in `kv` (an insert, which only one writer wins)
 * before anything reaches the printer, so a reload or a second tab never
 * prints it twice. The outcome goes back as a `print_job.result` command.
 * An order's receipt prints marked as a copy: it was issued with the sale.
 */
import { BehaviorSubject, combineLatest, map } from 'rxjs';
import type { Observable, Subscription } from 'rxjs';
import { receiptCopy } from '@tz/core';
import type { PullDocument, ReceiptDocument } from '@tz/core';
import type { PrintOutcome } from '../../../shared/bridge.ts';
import type { PrintJobView } from '../api.ts';
import type { Context } from '../store/context.ts';
import { printerTarget, safePrint } from '../store/hardware.ts';
import { KV } from '../store/kv.ts';
import { tillPrinters } from './printing.ts';
import { queueCommand } from '../shifts/shifts.ts';

type Job = PullDocument<'print_jobs'>;

interface Attempt {
  at: number;
  outcome: 'printing' | 'printed' | 'failed';
  message: string | null;
}

export class PrintJobWorker {
  private subscription: Subscription | null = null;
  private queue: Promise<void> = Promise.resolve();
  private readonly bridgeFound$ = new BehaviorSubject(0);

  constructor(private readonly ctx: Context) {}

  /** A bridge was found: the jobs left pending for want of one are tried now. */
  bridgeFound(): void {
    this.bridgeFound$.next(this.bridgeFound$.value + 1);
  }

  start(): void {
    if (this.subscription) return;
    // Printers too: a job pulled before its printer is tried again once the printer arrives.
    this.subscription = combineLatest([
      this.ctx.db.print_jobs.find({ selector: { status: 'pending' } }).$,
      this.ctx.db.printers.find().$,
      this.bridgeFound$,
    ]).subscribe(([docs]) => {
      for (const doc of docs) {
        const job = doc.toJSON() as unknown as Job;
        this.queue = this.queue.then(() => this.run(job)).catch(() => undefined);
      }
    });
  }

  async stop(): Promise<void> {
    this.subscription?.unsubscribe();
    this.subscription = null;
    await this.queue;
  }

  /** Prints one job unless it was ever tried here or belongs to another till's printer. */
  async run(job: Job): Promise<void> {
    const bridge = this.ctx.bridge();
    if (!bridge) return; // Left pending for a till that can print.
    const printer = (await tillPrinters(this.ctx)).find((candidate) => candidate.id === job.printer);
    if (!printer) return;
    const claimed = await this.ctx.kv.claim(KV.printAttempt(job.id), {
      at: this.ctx.now(),
      outcome: 'printing',
      message: null,
    } satisfies Attempt);
    if (!claimed) return;
    const target = printerTarget(printer);
    const outcome: PrintOutcome = await safePrint(() =>
      // An order's receipt from the server is its stored receipt printed again: a copy.
      job.receipt !== null
        ? bridge.printReceipt(target, receiptCopy(job.receipt as ReceiptDocument))
        : bridge.printText(target, job.text ?? ''),
    );
    await this.ctx.kv.set(KV.printAttempt(job.id), {
      at: this.ctx.now(),
      outcome: outcome.ok ? 'printed' : 'failed',
      message: outcome.ok ? null : outcome.message,
    } satisfies Attempt);
    await queueCommand(
      this.ctx,
      'print_job.result',
      outcome.ok
        ? { print_job: job.id, status: 'printed' }
        : {
            print_job: job.id,
            status: 'failed',
            failure_reason: outcome.reason,
            message: outcome.message.slice(0, 500),
          },
    );
  }
}

export function watchPrintJobs(ctx: Context): Observable<PrintJobView[]> {
  const jobs$ = ctx.db.print_jobs.find({ sort: [{ id: 'desc' }], limit: 50 }).$;
  const attempts$ = ctx.kv.watchPrefix<Attempt>(KV.printAttempt(''));
  return combineLatest([jobs$, attempts$]).pipe(
    map(([jobs, attempts]) => {
      const byJob = new Map(attempts.map(({ id, value }) => [id.slice(KV.printAttempt('').length), value]));
      return jobs.map((doc): PrintJobView => {
        const job = doc.toJSON() as unknown as Job;
        const attempt = byJob.get(job.id);
        return {
          id: job.id,
          printer: job.printer,
          status: job.status,
          attempt:
            attempt && attempt.outcome !== 'printing'
              ? { at: attempt.at, outcome: attempt.outcome, message: attempt.message }
              : null,
        };
      });
    }),
  );
}
