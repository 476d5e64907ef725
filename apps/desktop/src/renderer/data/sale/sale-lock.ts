/**
 * Who may sell on this till right now: one sale at a time across every tab
 * of the till (a double tap or two tabs on one cart make one sale, and no
 * receipt number is given twice).
 *
 * In the browser this is the Web Lock `till-sale`, kept while idle by the
 * tab that sold last: asking the browser for a lock is a round trip through
 * its lock manager, and its slow tail follows the host's load, so a tab that
 * sells again pays nothing. A tab that wants to sell asks for the lock and
 * says so on a BroadcastChannel; the holder lets go as soon as its own sales
 * are done. A closed, reloaded or crashed tab loses the lock with its page.
 *
 * Each time this tab gains the lock after another holder may have sold, the
 * `turn` it hands to the work changes: what the tab remembered about sales
 * (the last receipt number) is stale and must be read again from storage.
 * Without Web Locks (tests, one process), an in-process queue shared by every
 * open till plays the lock, and the turn changes when another till held it.
 */

const LOCK = 'till-sale';

type Work<T> = (turn: number) => Promise<T>;

export interface SaleLock {
  run<T>(work: Work<T>): Promise<T>;
  close(): void;
}

export function saleLock(): SaleLock {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  return locks ? new HeldWebLock(locks) : new ProcessQueue();
}

let processChain: Promise<unknown> = Promise.resolve();
/** Which queue sold last, by its token. */
let processHolder: object | null = null;
let processTurns = 0;

class ProcessQueue implements SaleLock {
  private turn = 0;
  private readonly token = {};

  run<T>(work: Work<T>): Promise<T> {
    const run = processChain.then(() => {
      if (processHolder !== this.token) {
        processHolder = this.token;
        this.turn = ++processTurns;
      }
      return work(this.turn);
    });
    processChain = run.catch(() => undefined);
    return run;
  }

  close(): void {
    if (processHolder === this.token) processHolder = null;
  }
}

class HeldWebLock implements SaleLock {
  private turn = 0;
  /** Resolves once this tab holds the lock; null while it does not hold or ask. */
  private holding: Promise<void> | null = null;
  private letGo: (() => void) | null = null;
  /** Sales of this tab queued or running: the lock is never given up under them. */
  private busy = 0;
  private wanted = false;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly channel: BroadcastChannel | null;

  constructor(private readonly locks: LockManager) {
    this.channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(LOCK);
    this.channel?.addEventListener('message', () => {
      if (!this.letGo) return;
      this.wanted = true;
      this.yieldIfIdle();
    });
  }

  run<T>(work: Work<T>): Promise<T> {
    this.busy += 1;
    const run = this.chain.then(async () => {
      await this.acquire();
      return work(this.turn);
    });
    this.chain = run.catch(() => undefined);
    void this.chain.then(() => {
      this.busy -= 1;
      this.yieldIfIdle();
    });
    return run;
  }

  private acquire(): Promise<void> {
    if (this.holding) return this.holding;
    this.holding = new Promise<void>((acquired, failed) => {
      this.locks
        .request(
          LOCK,
          () =>
            new Promise<void>((release) => {
              this.letGo = release;
              this.turn += 1;
              this.wanted = false;
              acquired();
              // A tab that asked before this one held the lock may have said so too early.
              void this.locks.query().then((state) => {
                if (state.pending?.some((lock) => lock.name === LOCK)) {
                  this.wanted = true;
                  this.yieldIfIdle();
                }
              });
            }),
        )
        .catch((error: unknown) => {
          this.holding = null;
          failed(error instanceof Error ? error : new Error(String(error)));
        });
    });
    this.channel?.postMessage('want');
    return this.holding;
  }

  private yieldIfIdle(): void {
    if (!this.wanted || this.busy > 0 || !this.letGo) return;
    this.release();
  }

  private release(): void {
    const letGo = this.letGo;
    this.letGo = null;
    this.holding = null;
    this.wanted = false;
    letGo?.();
  }

  close(): void {
    this.channel?.close();
    if (this.busy === 0) this.release();
    else this.wanted = true;
  }
}
