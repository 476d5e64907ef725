import { newId, type Id } from '@tz/core/ids';
import type { CommandSet } from './config.ts';
import { PrinterError, jobFailureReason, type JobFailureReason } from './errors.ts';
import { printJob } from './print.ts';
import type { PrinterTransport } from './transport.ts';

export type PrintJobId = Id<'printJob'>;

export type PrintJobState = 'queued' | 'printing' | 'printed' | 'failed';

export interface PrintJobFailure {
  reason: JobFailureReason;
  message: string;
  /**
   * Bytes may have reached the printer before the failure, so the receipt may
   * be on paper. Such a job is only printed again when someone confirms it.
   */
  mayHavePrinted: boolean;
}

export interface PrintJob {
  readonly id: PrintJobId;
  readonly label: string;
  readonly state: PrintJobState;
  /** Times the job was sent (or tried). */
  readonly attempts: number;
  readonly failure?: PrintJobFailure;
  /** The printer reported the paper roll nearly finished when it printed this job. */
  readonly paperNearEnd: boolean;
  readonly createdAt: Date;
  readonly finishedAt?: Date;
}

/** The one table of allowed moves; `printed` is final. */
const TRANSITIONS: Readonly<Record<PrintJobState, readonly PrintJobState[]>> = {
  queued: ['printing'],
  printing: ['printed', 'failed'],
  printed: [],
  failed: ['queued'],
};

function move(job: PrintJob, to: PrintJobState, changes: Partial<PrintJob> = {}): PrintJob {
  if (!TRANSITIONS[job.state].includes(to)) {
    throw new Error(`Print job ${job.id} cannot move from ${job.state} to ${to}.`);
  }
  return { ...job, ...changes, state: to };
}

export type RetryResult =
  | { ok: true; job: PrintJob }
  | { ok: false; reason: 'unknown_job' | 'not_failed' | 'confirmation_required'; job?: PrintJob };

export interface PrintQueueOptions {
  transport: PrinterTransport;
  commandSet: CommandSet;
  statusTimeoutMs?: number;
  writeTimeoutMs?: number;
}

interface Entry {
  job: PrintJob;
  bytes: Uint8Array;
  settled: Array<(job: PrintJob) => void>;
}

/**
 * The print queue of one printer. Jobs print one at a time in the order they
 * were added. A job id is printed at most once: adding an id again returns the
 * existing job, and a job that failed after its bytes may have reached the
 * printer is only retried with an explicit confirmation. Every job ends
 * `printed` or `failed` with a reason.
 */
export class PrintQueue {
  private readonly entries = new Map<PrintJobId, Entry>();
  private readonly order: PrintJobId[] = [];
  private readonly listeners = new Set<(job: PrintJob) => void>();
  private draining = false;
  private running: Promise<void> | undefined;

  constructor(private readonly options: PrintQueueOptions) {}

  /** Adds a rendered job. With the id of a job already known, returns that job and prints nothing. */
  enqueue(bytes: Uint8Array, options: { id?: PrintJobId; label?: string } = {}): PrintJob {
    const existing = options.id ? this.entries.get(options.id) : undefined;
    if (existing) return existing.job;
    const job: PrintJob = {
      id: options.id ?? newId('printJob'),
      label: options.label ?? 'job',
      state: 'queued',
      attempts: 0,
      paperNearEnd: false,
      createdAt: new Date(),
    };
    this.entries.set(job.id, { job, bytes, settled: [] });
    this.order.push(job.id);
    this.emit(job);
    this.kick();
    return job;
  }

  get(id: PrintJobId): PrintJob | undefined {
    return this.entries.get(id)?.job;
  }

  list(): PrintJob[] {
    return [...this.entries.values()].map((entry) => entry.job);
  }

  /** Resolves with the job once it is `printed` or `failed`. */
  settled(id: PrintJobId): Promise<PrintJob> {
    const entry = this.entries.get(id);
    if (!entry) return Promise.reject(new Error(`Unknown print job ${id}.`));
    if (entry.job.state === 'printed' || entry.job.state === 'failed') return Promise.resolve(entry.job);
    return new Promise((resolve) => entry.settled.push(resolve));
  }

  /**
   * Queues a failed job again. A job that may already be on paper needs
   * `confirmReprint: true`, given after asking the cashier.
   */
  retry(id: PrintJobId, options: { confirmReprint?: boolean } = {}): RetryResult {
    const entry = this.entries.get(id);
    if (!entry) return { ok: false, reason: 'unknown_job' };
    if (entry.job.state !== 'failed') return { ok: false, reason: 'not_failed', job: entry.job };
    if (entry.job.failure?.mayHavePrinted && !options.confirmReprint) {
      return { ok: false, reason: 'confirmation_required', job: entry.job };
    }
    const { failure: _failure, finishedAt: _finishedAt, ...waiting } = entry.job;
    this.update(entry, move(waiting, 'queued'));
    this.order.push(id);
    this.kick();
    return { ok: true, job: entry.job };
  }

  /** Subscribes to every job change; returns the unsubscribe function. */
  onChange(listener: (job: PrintJob) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once no job is waiting or printing. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private kick(): void {
    if (this.draining) return;
    this.draining = true;
    this.running = this.drain();
  }

  private async drain(): Promise<void> {
    try {
      for (let id = this.order.shift(); id !== undefined; id = this.order.shift()) {
        const entry = this.entries.get(id);
        if (entry?.job.state === 'queued') await this.run(entry);
      }
    } finally {
      // Cleared in the same step that found the queue empty: a job added any
      // later starts a new drain, one added earlier is picked up by the loop.
      this.draining = false;
      this.running = undefined;
    }
  }

  private async run(entry: Entry): Promise<void> {
    this.update(entry, move(entry.job, 'printing', { attempts: entry.job.attempts + 1 }));
    try {
      const result = await printJob(this.options.transport, entry.bytes, {
        commandSet: this.options.commandSet,
        ...(this.options.statusTimeoutMs === undefined
          ? {}
          : { statusTimeoutMs: this.options.statusTimeoutMs }),
        ...(this.options.writeTimeoutMs === undefined ? {} : { writeTimeoutMs: this.options.writeTimeoutMs }),
      });
      this.update(
        entry,
        move(entry.job, 'printed', { paperNearEnd: result.paperNearEnd, finishedAt: new Date() }),
      );
    } catch (error) {
      const failure: PrintJobFailure =
        error instanceof PrinterError
          ? {
              reason: jobFailureReason(error.reason),
              message: error.message,
              mayHavePrinted: error.mayHaveReachedPrinter,
            }
          : { reason: 'offline', message: `Printing failed: ${String(error)}`, mayHavePrinted: true };
      this.update(entry, move(entry.job, 'failed', { failure, finishedAt: new Date() }));
    }
    if (entry.job.state === 'printed' || entry.job.state === 'failed') {
      for (const resolve of entry.settled.splice(0)) resolve(entry.job);
    }
  }

  private update(entry: Entry, job: PrintJob): void {
    entry.job = job;
    this.emit(job);
  }

  private emit(job: PrintJob): void {
    for (const listener of this.listeners) listener(job);
  }
}
