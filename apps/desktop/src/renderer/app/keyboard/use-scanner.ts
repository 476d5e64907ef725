/**
 * Listens for scans wherever focus is. The characters a scanner typed into a
 * field are taken back out of it, so a scan into the search box or the cash
 * field leaves that field as it was.
 */
import { useEffect, useRef } from 'react';
import { DEFAULT_WEDGE_OPTIONS, WedgeDetector } from './wedge.ts';

type TextField = HTMLInputElement | HTMLTextAreaElement;

function textField(element: Element | null): TextField | null {
  return element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? element : null;
}

/** Sets a field's value the way typing would, so React's onChange sees it. */
function restoreField(field: TextField, value: string): void {
  if (!field.isConnected || field.value === value) return;
  const prototype =
    field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

export interface ScannerOptions {
  active?: boolean;
  /**
   * Whether the catalogue in memory has this barcode. With it, an Enter also ends a scan that
   * reached the page in pieces (a loaded machine, a slow or wireless scanner): when the text in
   * the field before the last quick burst, joined to the burst, or the field's whole text, is a
   * known barcode, that is the scan. Asked only then, never for a scan into an empty field.
   */
  known?: (code: string) => boolean;
  /** Shortest code taken as a scan, where a person's quick keys may be longer than usual (a PIN). */
  minLength?: number;
}

export function useScanner(
  onScan: (code: string) => void,
  { active = true, known, minLength = DEFAULT_WEDGE_OPTIONS.minLength }: ScannerOptions = {},
): void {
  const handler = useRef(onScan);
  handler.current = onScan;
  const isKnown = useRef(known);
  isKnown.current = known;
  useEffect(() => {
    if (!active) return;
    const detector = new WedgeDetector({ ...DEFAULT_WEDGE_OPTIONS, minLength });
    // Each field the burst typed into, with its text before the burst reached it: focus can move
    // mid-scan (a dialog closed by the Enter just before gives the search box focus).
    const before = new Map<TextField, string>();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing) {
        detector.reset();
        before.clear();
        return;
      }
      const at = event.timeStamp;
      if (event.key.length === 1) {
        if (detector.startsBurst(at)) before.clear();
        const field = textField(document.activeElement);
        if (field && !before.has(field)) before.set(field, field.value);
      }
      const verdict = detector.key(event.key, at);
      if (event.key !== 'Enter') return;
      const field = textField(document.activeElement);
      let code: string | null = null;
      if (verdict.kind === 'scan') {
        code = verdict.code;
        const typed = field ? before.get(field) : undefined;
        if (field && typed && isKnown.current?.(typed + code)) {
          code = typed + code;
          before.set(field, '');
        }
      } else if (field && field.value.trim() !== '' && isKnown.current?.(field.value.trim())) {
        code = field.value.trim();
        before.clear();
        before.set(field, '');
      }
      if (code === null) {
        before.clear();
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
      // The scan first: the field's input event then draws both changes in one render.
      handler.current(code);
      for (const [typedInto, text] of before) restoreField(typedInto, text);
      before.clear();
    };
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, [active, minLength]);
}
