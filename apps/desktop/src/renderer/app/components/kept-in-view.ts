import { type RefObject, useEffect } from 'react';

/**
 * Scrolls `element` into view whenever `key` changes. The scroll waits for the
 * next frame: a scroll needs the page laid out, and laying it out inside the
 * key's own task (a scan's Enter) made that task long enough to miss the frame
 * it would have been drawn in.
 */
export function useKeptInView(element: RefObject<HTMLElement | null>, key: string | number): void {
  useEffect(() => {
    const frame = requestAnimationFrame(() => element.current?.scrollIntoView({ block: 'nearest' }));
    return () => cancelAnimationFrame(frame);
  }, [element, key]);
}
