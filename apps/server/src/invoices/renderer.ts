/**
 * Renders invoice PDFs in a small pool of worker threads, so a large document
 * never holds the event loop that answers every other request. What may wait
 * is bounded: beyond `queueMax` waiting renders a request is refused at once
 * with 503 `service_unavailable` and `Retry-After`, and a render that runs past
 * `timeoutMs` has its worker ended (and replaced) and answers the same.
 */
import { Worker } from 'node:worker_threads';
import { AppError } from '@tz/core';
import type { DocumentKind, DocumentView } from './documents.ts';
import type { InvoiceLanguage } from './labels.ts';

export interface RenderJob {
  kind: DocumentKind;
  view: DocumentView;
  language: InvoiceLanguage;
}

export type RenderAnswer = { pdf: Uint8Array } | { error: string };

export interface RendererOptions {
  /** Worker threads, each rendering one document at a time. */
  workers: number;
  /** Renders that may wait for a free worker; the next one is refused. */
  queueMax: number;
  /** The longest one render may run before its worker is ended. */
  timeoutMs: number;
}

const RETRY_AFTER_SECONDS = 1;

// The server runs its TypeScript through tsx (`npm start`), and tests through
// vitest: a worker thread inherits neither's loader, so its first act is to
// register tsx's, then load the worker's module.
const WORKER_MODULE = new URL('./pdf-worker.ts', import.meta.url).href;
const BOOTSTRAP = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_MODULE)}); });`;

interface Pending extends RenderJob {
  resolve(pdf: Buffer): void;
  reject(error: Error): void;
}

/** One worker thread and the render it is running. */
class Slot {
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private running: { job: Pending; timer: NodeJS.Timeout | undefined } | null = null;

  constructor(
    private readonly options: RendererOptions,
    private readonly done: (slot: Slot) => void,
  ) {}

  get busy(): boolean {
    return this.running !== null;
  }

  /** Starts the thread on first use (and after one was ended); resolves once it can take work. */
  private start(): Promise<Worker> {
    this.ready ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(BOOTSTRAP, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 256 } });
      this.worker = worker;
      worker.on('message', (message: RenderAnswer | 'ready') => {
        if (message === 'ready') resolve(worker);
        else this.finish(worker, message);
      });
      const fail = (error: Error) => {
        if (this.worker !== worker) return;
        this.drop();
        reject(error);
        this.settle(error);
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`PDF worker stopped (exit code ${code})`)));
    });
    return this.ready;
  }

  /** Runs `job` once the thread is up; its time limit counts from then. */
  run(job: Pending): void {
    this.running = { job, timer: undefined };
    this.start().then(
      (worker) => {
        if (this.running?.job !== job) return;
        this.running.timer = setTimeout(() => {
          this.drop();
          this.settle(
            new AppError('service_unavailable', 'The document took too long to render; retry shortly', {
              retryAfter: RETRY_AFTER_SECONDS,
            }),
          );
        }, this.options.timeoutMs);
        worker.ref();
        worker.postMessage({ kind: job.kind, view: job.view, language: job.language } satisfies RenderJob);
      },
      () => undefined, // `fail` has settled the job
    );
  }

  private finish(worker: Worker, answer: RenderAnswer): void {
    if (this.worker !== worker || !this.running) return;
    const { job, timer } = this.running;
    clearTimeout(timer);
    this.running = null;
    // An idle thread does not keep the process alive; one rendering does.
    worker.unref();
    if ('pdf' in answer)
      job.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.byteLength));
    else job.reject(new Error(`PDF render failed: ${answer.error}`));
    this.done(this);
  }

  /** Ends the render under way with `error`; the slot takes the next job. */
  private settle(error: Error): void {
    if (!this.running) return;
    clearTimeout(this.running.timer);
    const { job } = this.running;
    this.running = null;
    job.reject(error);
    this.done(this);
  }

  /** Ends the thread; the next job starts a new one. */
  private drop(): void {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) void worker.terminate();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.job.reject(new AppError('service_unavailable', 'The server is stopping'));
      this.running = null;
    }
    if (worker) await worker.terminate();
  }
}

export class PdfRenderer {
  private readonly slots: Slot[];
  private readonly queue: Pending[] = [];
  private closed = false;
  /** Renders done, for tests and the benchmark: a stored document is not rendered again. */
  rendered = 0;

  constructor(private readonly options: RendererOptions) {
    this.slots = Array.from({ length: options.workers }, () => new Slot(options, (slot) => this.next(slot)));
  }

  /** Renders running or waiting. */
  get load(): number {
    return this.slots.filter((slot) => slot.busy).length + this.queue.length;
  }

  /** The document's bytes, laid out in a worker; refused at once when too many are waiting. */
  render(kind: DocumentKind, view: DocumentView, language: InvoiceLanguage): Promise<Buffer> {
    if (this.closed) return Promise.reject(new AppError('service_unavailable', 'The server is stopping'));
    const idle = this.slots.find((slot) => !slot.busy);
    if (!idle && this.queue.length >= this.options.queueMax) {
      return Promise.reject(
        new AppError('service_unavailable', 'Too many documents are being rendered; retry shortly', {
          retryAfter: RETRY_AFTER_SECONDS,
        }),
      );
    }
    return new Promise<Buffer>((resolve, reject) => {
      const job: Pending = {
        kind,
        view,
        language,
        resolve: (pdf) => {
          this.rendered += 1;
          resolve(pdf);
        },
        reject,
      };
      if (idle) idle.run(job);
      else this.queue.push(job);
    });
  }

  private next(slot: Slot): void {
    const job = this.queue.shift();
    if (job) slot.run(job);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.reject(new AppError('service_unavailable', 'The server is stopping'));
    await Promise.all(this.slots.map((slot) => slot.close()));
  }
}
