/**
 * The sale screen's search: what is typed, its results and the highlighted one. A
 * search runs on every key a person types; a stale answer never replaces a newer one.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { CatalogueItem, TillStore } from '../../data/api.ts';
import { DEFAULT_WEDGE_OPTIONS } from '../keyboard/wedge.ts';

const SEARCH_LIMIT = 30;
/** Keys closer together than a scanner's gap may be a scan typed into the box: search once they pause. */
const BURST_GAP_MS = DEFAULT_WEDGE_OPTIONS.maxGapMs;

export function useSaleSearch(store: TillStore, fail: (error: unknown) => void) {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<CatalogueItem[] | null>(null);
  const [resultIndex, setResultIndex] = useState(0);
  const asked = useRef(0);
  // When the last two keys were pressed (the keyboard's clock, not when the page got round to them).
  const keyTimes = useRef({ previous: -Infinity, last: -Infinity });
  useEffect(() => {
    const text = query.trim();
    const ask = ++asked.current;
    const burst = keyTimes.current.last - keyTimes.current.previous < BURST_GAP_MS;
    if (text === '') {
      setResults(null);
      return;
    }
    const run = () => {
      store.search(text, SEARCH_LIMIT).then((found) => {
        if (ask !== asked.current) return;
        setResults(found);
        setResultIndex(0);
      }, fail);
    };
    // A first character may be a scan starting: its search waits to see whether more keys follow fast.
    if (!burst && text.length > 1) return run();
    const timer = setTimeout(run, BURST_GAP_MS);
    return () => clearTimeout(timer);
  }, [query, store, fail]);

  /** The search box's keydown: when each key was pressed. */
  const noteKey = (event: KeyboardEvent) => {
    keyTimes.current = { previous: keyTimes.current.last, last: event.timeStamp };
  };
  /** Moves the highlight through the results, stopping at either end. */
  const moveResult = (step: 1 | -1) =>
    setResultIndex((index) =>
      step > 0 ? Math.min((results?.length ?? 0) - 1, index + 1) : Math.max(0, index - 1),
    );

  return { query, setQuery, results, setResults, resultIndex, setResultIndex, noteKey, moveResult };
}
