import { type RefObject, useEffect } from 'react';

/**
 * Scrolls `element` into view whenever `key` changes. The scroll stays in the
 * task of the key that changed it (a scan's Enter): moved into the next frame,
 * it left the line in the DOM sooner but drawn later, since the frame then
 * did the layout the task had done while waiting for it (docs/BENCHMARKS.md).
 */
export function useKeptInView(element: RefObject<HTMLElement | null>, key: string | number): void {
  useEffect(() => {
    element.current?.scrollIntoView({ block: 'nearest' });
  }, [element, key]);
}
