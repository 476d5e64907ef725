/** A modal dialog: Esc or the close button closes it; focus starts inside it. */
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import type { CommandRefusal } from '../../data/api.ts';
import type { MessageKey } from '../../i18n/en.ts';
import { useI18n } from '../../i18n/index.tsx';

/** Open dialogs, oldest first: Esc closes only the one on top (help over payment, PIN over sales). */
const openDialogs: symbol[] = [];

export function Dialog({
  title,
  onClose,
  children,
  wide = false,
  testId,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  testId?: string;
}) {
  const { t } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  // A layout effect, so Esc and focus work from the moment the dialog is on screen: a passive
  // effect runs after paint, later still on a busy machine, and a key pressed in between was lost.
  useLayoutEffect(() => {
    // A field with autoFocus has taken focus already; otherwise the first field or the main button.
    if (!box.current?.contains(document.activeElement)) {
      box.current?.querySelector<HTMLElement>('input, select, button.primary')?.focus();
    }
    const me = Symbol('dialog');
    openDialogs.push(me);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && openDialogs.at(-1) === me) {
        event.preventDefault();
        event.stopPropagation();
        close.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      openDialogs.splice(openDialogs.indexOf(me), 1);
    };
  }, []);
  return (
    <div className="backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={box}
        className={wide ? 'dialog wide' : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        data-testid={testId}
      >
        <header className="dialog-head">
          <h2>{title}</h2>
          <button type="button" className="ghost" onClick={onClose} aria-label={t('close')}>
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

/** Why the server refused a command: its words follow the cashier's language lead; the code is for support. */
/** The server's reason, in the cashier's words when the till knows the code; its own words in the tooltip. */
export function ServerRefusal({ refusal }: { refusal: CommandRefusal }) {
  const { t } = useI18n();
  const known = SERVER_WORDS.has(refusal.code) ? t(`server_${refusal.code}` as MessageKey) : null;
  return (
    <p className="message error" title={known ? refusal.message : undefined}>
      {t('serverRefused')} {known ?? refusal.message} <code className="refusal-code">{refusal.code}</code>
    </p>
  );
}
const SERVER_WORDS = new Set(['state_transition_invalid', 'resource_missing', 'payment_not_paid']);

export function Kbd({ children }: { children: ReactNode }) {
  return <kbd>{children}</kbd>;
}
