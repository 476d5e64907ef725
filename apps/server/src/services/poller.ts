/**
 * Runs `pass` every `intervalMs` and whenever woken, one pass at a time (a wake
 * during a pass runs another after it), repeating while a pass says more is due.
 * A failing pass is reported once per outage, not once per poll; what it left is
 * due again at the next poll. Used by the workers every process runs over due
 * rows in the database (sandbox settlements, subscription renewals, referral earnings, overdue invoices).
 */
export class Poller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private failing = false;
  private stopped = true;

  constructor(
    /** One batch of due work; resolves true when more may be due at once. */
    private readonly pass: () => Promise<boolean>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.intervalMs);
    this.wake(); // what a stopped process left due
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Resolves once no pass is running. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (!this.stopped && (await this.pass()));
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.onError(error);
      this.failing = true;
    }
  }
}
