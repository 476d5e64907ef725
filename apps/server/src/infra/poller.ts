import type { Logger } from 'pino';

export interface PollerOptions {
  /** How often a pass runs when nothing wakes it. */
  intervalMs: number;
  /** Passes start at most this often: wakes in between are gathered into the next pass. */
  minGapMs?: number;
  logger: Logger;
  /** What the log says when a pass fails. */
  failure: string;
}

/**
 * The one loop of the server's background work (sandbox settlements, webhook
 * delivery, subscription renewals, the night audit, channels' iCal imports,
 * referral earnings, overdue invoices, the provider reconciler, the idempotency
 * purge): runs `pass` every `intervalMs`
 * and whenever woken, one pass at a time (a wake during a pass runs another
 * after it), again at once while a pass says more is due. `pass` is told
 * whether the interval (or the start) asked for it, rather than a wake. A
 * failing pass is logged once per outage, not once per poll; what it left is
 * due again at the next poll. `stop` waits for the pass under way.
 */
export class Poller {
  private interval: NodeJS.Timeout | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private gap: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private polled = false;
  private lastStart = 0;
  private failing = false;
  private stopped = true;

  constructor(
    /** One batch of due work; resolves true when more may be due at once. */
    private readonly pass: (polled: boolean) => Promise<boolean>,
    private readonly options: PollerOptions,
  ) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.interval = setInterval(() => this.poll(), this.options.intervalMs);
    this.poll(); // what a stopped process left due
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.interval);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    clearTimeout(this.gap);
    this.gap = undefined;
    await this.idle();
  }

  /** Runs a pass now, or right after the one under way (and no sooner than `minGapMs` after its start). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.gap) return;
    const wait = this.lastStart + (this.options.minGapMs ?? 0) - Date.now();
    if (wait <= 0) return this.run();
    this.gap = setTimeout(() => {
      this.gap = undefined;
      this.wake();
    }, wait);
  }

  /** Wakes after `ms` (something falls due then); forgotten when stopped. */
  wakeAfter(ms: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.wake();
    }, ms);
    this.timers.add(timer);
  }

  /** Resolves once no pass is running. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Runs passes now, one after another, until one says nothing more is due
   * (after the pass under way): for tests that move the clock.
   */
  async drain(): Promise<void> {
    await this.idle();
    while (await this.pass(false));
  }

  private poll(): void {
    this.polled = true;
    this.wake();
  }

  private run(): void {
    this.lastStart = Date.now();
    const polled = this.polled;
    this.polled = false;
    this.running = this.pass(polled)
      .then(
        (more) => {
          this.failing = false;
          if (more) this.again = true;
        },
        (error: unknown) => {
          if (!this.failing) this.options.logger.error({ err: error }, this.options.failure);
          this.failing = true;
        },
      )
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }
}
