/**
 * Every keyboard shortcut, once: the help overlay lists these, and
 * docs/TILL.md lists the same (a test compares them).
 */
import type { MessageKey } from '../../i18n/en.ts';

export interface Shortcut {
  keys: string;
  what: MessageKey;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: '? / F1', what: 'keyHelp' },
  { keys: 'Scan', what: 'keyScan' },
  { keys: 'F2', what: 'keySearch' },
  { keys: '↑ ↓', what: 'keyMove' },
  { keys: 'Enter', what: 'keyAdd' },
  { keys: 'F3', what: 'keyCustomer' },
  { keys: 'F4', what: 'keyQuantity' },
  { keys: 'F5', what: 'keyTiles' },
  { keys: 'F6', what: 'keyLineDiscount' },
  { keys: 'F7', what: 'keyOrderDiscount' },
  { keys: 'F8', what: 'keyPark' },
  { keys: 'F9', what: 'keyCashExact' },
  { keys: 'F10', what: 'keyPay' },
  { keys: 'Alt+1 / 2 / 3', what: 'keyTenderMethod' },
  { keys: 'Cash: ↑ ↓', what: 'keyQuickCash' },
  { keys: '+ −', what: 'keyPlusMinus' },
  { keys: 'Delete', what: 'keyRemoveLine' },
  { keys: 'Esc', what: 'keyEscape' },
  { keys: 'Alt+S', what: 'keySales' },
  { keys: 'Alt+R', what: 'keyReprint' },
  { keys: 'Alt+Z', what: 'keyShift' },
  { keys: 'Alt+N', what: 'keyNoSale' },
  { keys: 'Alt+T', what: 'keySettings' },
  { keys: 'Alt+L', what: 'keyLanguage' },
  { keys: 'Alt+O', what: 'keySignOut' },
  { keys: 'PIN + Enter', what: 'keyPinEnter' },
];

/** True when typing goes into this element (so a letter key is text, not a command). */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLTextAreaElement || target.isContentEditable) return true;
  return (
    target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(target.type)
  );
}
