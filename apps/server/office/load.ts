/** A read for a page: its answer, or its error, and a way to read it again. */
import { useCallback, useEffect, useState } from 'react';

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
