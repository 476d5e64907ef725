/**
 * A barcode scanner is a keyboard wedge: it "types" the code far faster than
 * a person and ends it with Enter. This tells the two apart from key timings
 * alone, so a scan works wherever focus is and a person's typing is left be.
 */
export interface WedgeOptions {
  /** Shortest code taken as a scan (shorter bursts are a person's quick keys). */
  minLength: number;
  /** Longest gap between two characters of one scan, in ms. */
  maxGapMs: number;
  /** Longest gap from the last character to Enter, in ms. */
  maxEnterGapMs: number;
}

/** Scanners send a character every 1–30 ms; a person leaves 80 ms or more between most keys, and never keeps four or more under 50 ms then Enter. */
export const DEFAULT_WEDGE_OPTIONS: WedgeOptions = { minLength: 4, maxGapMs: 50, maxEnterGapMs: 100 };

export type WedgeVerdict =
  /** Not Enter, or an Enter that ends a person's typing: let it through. */
  | { kind: 'pass' }
  /** Enter that ends a scan: the code, and how many characters to take back from where they landed. */
  | { kind: 'scan'; code: string };

export class WedgeDetector {
  private buffer = '';
  private lastAt = -Infinity;

  constructor(private readonly options: WedgeOptions = DEFAULT_WEDGE_OPTIONS) {}

  /** True when this key starts a new burst (the screen remembers the field's text before it). */
  startsBurst(at: number): boolean {
    return this.buffer === '' || at - this.lastAt > this.options.maxGapMs;
  }

  /**
   * Feed every keydown: `key` is KeyboardEvent.key, `at` a millisecond clock.
   * Printable single characters build the burst; Enter judges it.
   */
  key(key: string, at: number): WedgeVerdict {
    if (key === 'Enter') {
      const code = this.buffer;
      const quick = at - this.lastAt <= this.options.maxEnterGapMs;
      this.reset();
      return quick && code.length >= this.options.minLength ? { kind: 'scan', code } : { kind: 'pass' };
    }
    if (key.length !== 1) {
      // Shift and other modifiers come between a scanner's characters; anything else ends the burst.
      if (key !== 'Shift') this.reset();
      return { kind: 'pass' };
    }
    if (this.startsBurst(at)) this.buffer = '';
    this.buffer += key;
    this.lastAt = at;
    return { kind: 'pass' };
  }

  reset(): void {
    this.buffer = '';
    this.lastAt = -Infinity;
  }
}
