/** A read for a page: its answer, or its error, and a way to read it again. */
import { useCallback, useEffect, useRef, useState } from 'react';

export type Loaded<T> = { kind: 'loading' } | { kind: 'done'; value: T } | { kind: 'failed'; error: unknown };

export function useLoad<T>(read: () => Promise<T>, key: string): [Loaded<T>, () => void] {
  const [state, setState] = useState<Loaded<T>>({ kind: 'loading' });
  const [round, setRound] = useState(0);
  // `read` is keyed by `key`: a new key reads again, a new closure alone does not.
  const stable = useCallback(read, [key]);
  useEffect(() => {
    let current = true;
    stable().then(
      (value) => current && setState({ kind: 'done', value }),
      (error: unknown) => current && setState({ kind: 'failed', error }),
    );
    return () => {
      current = false;
    };
  }, [stable, round]);
  return [state, () => setRound((n) => n + 1)];
}

/**
 * Calls `readAgain` every `ms` while the page is in view, and at once when it comes back into view
 * (a phone unlocked, a tab chosen): a read's old answer stays on screen until the new one replaces it.
 */
export function useReadAgainEvery(ms: number, readAgain: () => void): void {
  const latest = useRef(readAgain);
  latest.current = readAgain;
  useEffect(() => {
    const tick = () => {
      if (document.visibilityState === 'visible') latest.current();
    };
    const timer = setInterval(tick, ms);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [ms]);
}
