/**
 * Keeps looking for the printer bridge the till could not find. The first
 * look at start is short (opening never waits on it) and can miss a bridge
 * that is slow under load or started after the till; so while there is none,
 * it looks again with growing backoff, and at once when a print is attempted.
 * Whoever follows it (the status bar, the print worker) hears when it is found.
 * Runs in the renderer: no Node modules.
 */
import type { TillBridge } from './bridge.ts';
import type { DetectedBridge } from './detect-bridge.ts';

/** What the till's printing asks of it: the bridge now, and a fresh look when there is none. */
export interface BridgeSource {
  current(): TillBridge | null;
  /** The bridge, looking for it first when there is none; never rejects. */
  recheck(): Promise<TillBridge | null>;
  /** Calls `listener` with each change of what was found; returns what stops it. */
  subscribe(listener: (found: DetectedBridge) => void): () => void;
}

export interface BridgeWatchOptions {
  /** Looks once, the health check given `timeoutMs`. */
  look: (timeoutMs: number) => Promise<DetectedBridge>;
  /** False when looking again cannot help (no bridge set up in this browser). */
  retry: boolean;
  /** The first look again after this; doubling up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** The health check of each look after the first: longer, as a busy machine answers slowly. */
  timeoutMs?: number;
}

export const WATCH_FIRST_DELAY_MS = 1000;
export const WATCH_MAX_DELAY_MS = 30_000;
export const WATCH_TIMEOUT_MS = 2000;

export class BridgeWatch implements BridgeSource {
  private found: DetectedBridge;
  private readonly listeners = new Set<(found: DetectedBridge) => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private delayMs: number;
  private looking: Promise<DetectedBridge> | null = null;
  private running = false;

  constructor(
    first: DetectedBridge,
    private readonly options: BridgeWatchOptions,
  ) {
    this.found = first;
    this.delayMs = options.firstDelayMs ?? WATCH_FIRST_DELAY_MS;
  }

  /** A watch that never looks: what was found is all there is (the desktop app's IPC, previews). */
  static fixed(found: DetectedBridge): BridgeWatch {
    return new BridgeWatch(found, { look: () => Promise.resolve(found), retry: false });
  }

  get state(): DetectedBridge {
    return this.found;
  }

  current(): TillBridge | null {
    return this.found.bridge ?? null;
  }

  subscribe(listener: (found: DetectedBridge) => void): () => void {
    this.listeners.add(listener);
    listener(this.found);
    return () => this.listeners.delete(listener);
  }

  /** Starts looking again in the background while there is no bridge. */
  start(): void {
    this.running = true;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  async recheck(): Promise<TillBridge | null> {
    if (this.found.bridge || !this.options.retry) return this.current();
    await this.lookNow();
    return this.current();
  }

  private schedule(): void {
    if (!this.running || !this.options.retry || this.found.bridge || this.timer) return;
    const delay = this.delayMs;
    this.delayMs = Math.min(this.options.maxDelayMs ?? WATCH_MAX_DELAY_MS, delay * 2);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.lookNow().finally(() => this.schedule());
    }, delay);
  }

  /** One look at a time: a print's recheck joins a background look under way. */
  private lookNow(): Promise<DetectedBridge> {
    this.looking ??= this.options
      .look(this.options.timeoutMs ?? WATCH_TIMEOUT_MS)
      .catch((error: unknown): DetectedBridge => ({ kind: 'none', detail: `No printer: ${String(error)}` }))
      .then((found) => {
        this.set(found);
        return found;
      })
      .finally(() => {
        this.looking = null;
      });
    return this.looking;
  }

  private set(found: DetectedBridge): void {
    const changed = found.kind !== this.found.kind || found.detail !== this.found.detail;
    this.found = found;
    if (found.bridge && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (changed) for (const listener of this.listeners) listener(found);
  }
}
