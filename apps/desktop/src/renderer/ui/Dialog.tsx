/**
 * A modal dialog: Esc or the close button closes it. Focus starts inside it,
 * stays inside it (Tab goes round its own fields and buttons, never the screen
 * behind), and goes back where it was when it closes.
 */
import { useLayoutEffect, useRef, type ReactNode } from 'react';

/** Open dialogs, oldest first: Esc closes only the one on top (help over payment, PIN over sales). */
const openDialogs: symbol[] = [];

const FOCUSABLE =
  'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/** What Tab reaches inside `root`, in order (hidden ones left out). */
function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
}

/** Where typing goes when a dialog opens: a field with autoFocus has it already; else the first field or the main button, else the first thing in its body, else the dialog itself. */
function focusInside(root: HTMLElement): void {
  if (root.contains(document.activeElement)) return;
  const body = root.querySelector<HTMLElement>('.dialog-body');
  const target =
    root.querySelector<HTMLElement>(
      'input:not([disabled]), select:not([disabled]), button.primary:not([disabled])',
    ) ??
    (body && focusables(body)[0]) ??
    root;
  target.focus();
}

/** The screen's own first field (the search box, the float, the PIN): where typing goes when nothing else is focused. */
function screenField(): HTMLElement | undefined {
  return [...document.querySelectorAll<HTMLElement>('.screen input:not([disabled])')].find(
    (field) => !field.closest('.backdrop'),
  );
}

export interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  testId?: string;
}

/** The dialog in each app's words: `closeLabel` names the close button for a screen reader. */
export function Dialog({
  title,
  onClose,
  children,
  wide = false,
  testId,
  closeLabel,
}: DialogProps & { closeLabel: string }) {
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  // A layout effect, so Esc and focus work from the moment the dialog is on screen: a passive
  // effect runs after paint, later still on a busy machine, and a key pressed in between was lost.
  useLayoutEffect(() => {
    const root = box.current;
    if (!root) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const me = Symbol('dialog');
    // On top before it takes focus, so the dialog under it lets the focus go.
    openDialogs.push(me);
    focusInside(root);
    const onKey = (event: KeyboardEvent) => {
      if (openDialogs.at(-1) !== me) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        close.current();
      } else if (event.key === 'Tab') {
        const items = focusables(root);
        const first = items[0];
        const last = items.at(-1);
        const at = document.activeElement;
        const wrap = event.shiftKey ? (at === first ? last : undefined) : at === last ? first : undefined;
        if (!first || !root.contains(at) || wrap) {
          event.preventDefault();
          (wrap ?? (event.shiftKey ? last : first) ?? root).focus();
        }
      }
    };
    // Focus taken behind the dialog (a screen focusing its own field) comes back into it.
    const onFocusIn = (event: FocusEvent) => {
      if (openDialogs.at(-1) === me && event.target instanceof Node && !root.contains(event.target)) {
        focusInside(root);
      }
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocusIn);
      openDialogs.splice(openDialogs.indexOf(me), 1);
      // Back where it was, or, when that is gone (the shift closed under the Z report), to the screen's field.
      const at = document.activeElement;
      if (at === null || at === document.body || root.contains(at)) {
        (before?.isConnected && !root.contains(before) && before !== document.body
          ? before
          : screenField()
        )?.focus();
      }
    };
  }, []);
  return (
    <div className="backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={box}
        className={wide ? 'dialog wide' : 'dialog'}
        role="dialog"
        aria-modal="true"
        tabIndex={-1}
        aria-label={title}
        data-testid={testId}
      >
        <header className="dialog-head">
          <h2>{title}</h2>
          <button type="button" className="ghost" onClick={onClose} aria-label={closeLabel}>
            ✕
          </button>
        </header>
        <div className="dialog-body">{children}</div>
      </div>
    </div>
  );
}

/** One line of feedback under a form: an error in red, a confirmation in green, or a plain note. */
export function Message({ text, kind = 'error' }: { text: string | null; kind?: 'error' | 'ok' | 'info' }) {
  if (!text) return null;
  return (
    <p className={`message ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {text}
    </p>
  );
}

export function Kbd({ children }: { children: ReactNode }) {
  return <kbd>{children}</kbd>;
}
