/**
 * Listens for scans wherever focus is. The characters a scanner typed into a
 * field are taken back out of it, so a scan into the search box or the cash
 * field leaves that field as it was.
 */
import { useEffect, useRef } from 'react';
import { WedgeDetector } from './wedge.ts';

interface Snapshot {
  field: HTMLInputElement | HTMLTextAreaElement;
  value: string;
}

/** Sets a field's value the way typing would, so React's onChange sees it. */
function restoreField({ field, value }: Snapshot): void {
  const prototype =
    field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

export function useScanner(onScan: (code: string) => void, active = true): void {
  const handler = useRef(onScan);
  handler.current = onScan;
  useEffect(() => {
    if (!active) return;
    const detector = new WedgeDetector();
    let snapshot: Snapshot | null = null;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing) {
        detector.reset();
        return;
      }
      const at = event.timeStamp;
      if (event.key.length === 1 && detector.startsBurst(at)) {
        const focused = document.activeElement;
        snapshot =
          focused instanceof HTMLInputElement || focused instanceof HTMLTextAreaElement
            ? { field: focused, value: focused.value }
            : null;
      }
      const verdict = detector.key(event.key, at);
      if (verdict.kind !== 'scan') return;
      event.preventDefault();
      event.stopImmediatePropagation();
      // The scan first: the field's input event then draws both changes in one render.
      handler.current(verdict.code);
      if (snapshot) restoreField(snapshot);
      snapshot = null;
    };
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, [active]);
}
