/**
 * Every keyboard shortcut, once: the help overlay lists these, the screens'
 * key listeners act on them (`shortcutAction`), and docs/TILL.md lists the
 * same (a test compares them). A shortcut with no `bind` is acted on elsewhere
 * (a scan, a dialog's own Escape and arrows, the PIN field's Enter).
 */
import { useLayoutEffect } from 'react';
import type { MessageKey } from '../../i18n/en.ts';

/** Where a key is listened for: the whole till, the sale screen, front desk or door with nothing over it, the payment dialog. */
export type KeyContext = 'app' | 'sale' | 'desk' | 'door' | 'tender';

/** What must hold for a key to act; a key that does not act is left to the page. */
export type KeyCondition =
  /** Signed in, so a sale can be made. */
  | 'selling'
  | 'shiftOpen'
  | 'paired'
  /** The hospitality app's property is on this till: the front desk shows. */
  | 'hasDesk'
  /** A ticketed event is on this till: the door shows. */
  | 'hasDoor'
  /** Focus is not in a free-text field (a reason, a name): `?` is typed there. */
  | 'notFreeText'
  | 'lineSelected'
  | 'cartHasLines'
  /** A line is selected, the search box is empty and has focus (or nothing has). */
  | 'lineKeys'
  /** As `lineKeys`, and the line is counted in pieces. */
  | 'pieceLineKeys';

/**
 * Modifiers a key is pressed with: `none` (neither Alt, Ctrl nor Meta), `alt` (Alt without Ctrl or
 * Meta), `altAny` (Alt, Ctrl or Meta may be held too), `noAlt` (Ctrl or Meta may be held), `any`.
 */
export type KeyModifiers = 'none' | 'alt' | 'altAny' | 'noAlt' | 'any';

export type KeyAction =
  | 'help'
  | 'sales'
  | 'reprint'
  | 'shift'
  | 'noSale'
  | 'settings'
  | 'language'
  | 'signOut'
  | 'search'
  | 'customer'
  | 'quantity'
  | 'tiles'
  | 'lineDiscount'
  | 'orderDiscount'
  | 'park'
  | 'cashExact'
  | 'pay'
  | 'down'
  | 'up'
  | 'plus'
  | 'minus'
  | 'removeLine'
  | 'clearSearch'
  | 'cash'
  | 'mobileMoney'
  | 'card'
  | 'roomCharge'
  | 'desk'
  | 'walkIn'
  | 'checkIn'
  | 'checkOut'
  | 'moveRoom'
  | 'housekeeping'
  | 'door'
  | 'doorCode'
  | 'doorCamera'
  | 'doorEvent'
  | 'boxOffice'
  | 'boxOfficePay'
  | 'boxOfficeBack';

export interface KeyBinding {
  context: KeyContext;
  /** `KeyboardEvent.key`; with Alt, a letter or digit also matches by `KeyboardEvent.code` (Alt changes `key` on some layouts). */
  key: string;
  modifiers: KeyModifiers;
  action: KeyAction;
  when?: readonly KeyCondition[];
}

export interface Shortcut {
  /** As the help overlay shows it. */
  keys: string;
  what: MessageKey;
  bind?: readonly KeyBinding[];
  /** The screen it works on, when not found from its bindings (keys the till reads without a binding). */
  screen?: 'sale' | 'door';
  /** Shown only on a till with the front desk. */
  desk?: true;
  /** Shown only on a till with a door (a ticketed event pulled). */
  door?: true;
}

/** The bindings of one context pressed with the same modifiers. */
const binder =
  (context: KeyContext, modifiers: KeyModifiers) =>
  (key: string, action: KeyAction, when?: readonly KeyCondition[]): KeyBinding => ({
    context,
    key,
    modifiers,
    action,
    ...(when ? { when } : {}),
  });
const sale = binder('sale', 'none');
const alt = binder('app', 'alt');
const method = binder('tender', 'altAny');
const desk = binder('desk', 'none');
const door = binder('door', 'none');

export const SHORTCUTS: readonly Shortcut[] = [
  {
    keys: '? / F1',
    what: 'keyHelp',
    bind: [
      { context: 'app', key: 'F1', modifiers: 'any', action: 'help' },
      { context: 'app', key: '?', modifiers: 'noAlt', action: 'help', when: ['notFreeText'] },
    ],
  },
  { keys: 'Scan', what: 'keyScan', screen: 'sale' },
  { keys: 'F2', what: 'keySearch', bind: [sale('F2', 'search')] },
  // The results while there are some, else the cart's lines; dialogs move through their own lists.
  { keys: '↑ ↓', what: 'keyMove', bind: [sale('ArrowUp', 'up'), sale('ArrowDown', 'down')] },
  { keys: 'Enter', what: 'keyAdd', screen: 'sale' },
  { keys: 'F3', what: 'keyCustomer', bind: [sale('F3', 'customer')] },
  { keys: 'F4', what: 'keyQuantity', bind: [sale('F4', 'quantity', ['lineSelected'])] },
  // Always taken, tiles or not: a browser would reload the page on it.
  { keys: 'F5', what: 'keyTiles', bind: [sale('F5', 'tiles')] },
  { keys: 'F6', what: 'keyLineDiscount', bind: [sale('F6', 'lineDiscount', ['lineSelected'])] },
  { keys: 'F7', what: 'keyOrderDiscount', bind: [sale('F7', 'orderDiscount', ['cartHasLines'])] },
  { keys: 'F8', what: 'keyPark', bind: [sale('F8', 'park')] },
  { keys: 'F9', what: 'keyCashExact', bind: [sale('F9', 'cashExact')] },
  { keys: 'F10', what: 'keyPay', bind: [sale('F10', 'pay')] },
  {
    keys: 'Alt+1 / 2 / 3',
    what: 'keyTenderMethod',
    bind: [method('1', 'cash'), method('2', 'mobileMoney'), method('3', 'card')],
  },
  {
    keys: 'Alt+4',
    what: 'keyRoomCharge',
    bind: [method('4', 'roomCharge', ['hasDesk'])],
    desk: true,
  },
  { keys: 'Cash: ↑ ↓', what: 'keyQuickCash', screen: 'sale' },
  {
    keys: '+ −',
    what: 'keyPlusMinus',
    bind: [sale('+', 'plus', ['pieceLineKeys']), sale('-', 'minus', ['pieceLineKeys'])],
  },
  { keys: 'Delete', what: 'keyRemoveLine', bind: [sale('Delete', 'removeLine', ['lineKeys'])] },
  // Dialogs close on Escape themselves; with none open it clears the search.
  { keys: 'Esc', what: 'keyEscape', bind: [sale('Escape', 'clearSearch')] },
  { keys: 'Alt+S', what: 'keySales', bind: [alt('s', 'sales', ['selling'])] },
  { keys: 'Alt+R', what: 'keyReprint', bind: [alt('r', 'reprint', ['selling'])] },
  { keys: 'Alt+Z', what: 'keyShift', bind: [alt('z', 'shift', ['selling', 'shiftOpen'])] },
  { keys: 'Alt+N', what: 'keyNoSale', bind: [alt('n', 'noSale', ['selling', 'shiftOpen'])] },
  { keys: 'Alt+T', what: 'keySettings', bind: [alt('t', 'settings', ['paired'])] },
  { keys: 'Alt+L', what: 'keyLanguage', bind: [alt('l', 'language')] },
  {
    keys: 'Alt+D',
    what: 'keyDesk',
    bind: [alt('d', 'desk', ['selling', 'shiftOpen', 'hasDesk'])],
    desk: true,
  },
  { keys: 'Desk: F2', what: 'keyWalkIn', bind: [desk('F2', 'walkIn')], desk: true },
  { keys: 'Desk: F3', what: 'keyCheckIn', bind: [desk('F3', 'checkIn')], desk: true },
  { keys: 'Desk: F4', what: 'keyCheckOut', bind: [desk('F4', 'checkOut')], desk: true },
  { keys: 'Desk: F6', what: 'keyMoveRoom', bind: [desk('F6', 'moveRoom')], desk: true },
  { keys: 'Desk: F7', what: 'keyHousekeeping', bind: [desk('F7', 'housekeeping')], desk: true },
  {
    keys: 'Alt+G',
    what: 'keyDoor',
    // Door staff who only check tickets need no shift; the box office, which takes money, does.
    bind: [alt('g', 'door', ['selling', 'hasDoor'])],
    door: true,
  },
  { keys: 'Door: Scan', what: 'keyDoorScan', screen: 'door', door: true },
  { keys: 'Door: F2', what: 'keyDoorCode', bind: [door('F2', 'doorCode')], door: true },
  { keys: 'Door: F3', what: 'keyDoorCamera', bind: [door('F3', 'doorCamera')], door: true },
  { keys: 'Door: F4', what: 'keyDoorEvent', bind: [door('F4', 'doorEvent')], door: true },
  { keys: 'Door: F6', what: 'keyBoxOffice', bind: [door('F6', 'boxOffice')], door: true },
  { keys: 'Box office: F10', what: 'keyBoxOfficePay', bind: [door('F10', 'boxOfficePay')], door: true },
  { keys: 'Box office: Esc', what: 'keyBoxOfficeBack', bind: [door('Escape', 'boxOfficeBack')], door: true },
  { keys: 'Alt+O', what: 'keySignOut', bind: [alt('o', 'signOut', ['selling'])] },
  { keys: 'PIN + Enter', what: 'keyPinEnter' },
];

/** The screens a mode of the till shows. */
export type TillMode = 'sale' | 'desk' | 'door';

/** Which screen a shortcut works on: the sale's, the front desk's, the door's, or any (none). */
function screenOf(shortcut: Shortcut): TillMode | null {
  if (shortcut.screen) return shortcut.screen;
  const contexts = new Set((shortcut.bind ?? []).map((binding) => binding.context));
  if (contexts.size === 0 || contexts.has('app')) return null;
  if (contexts.has('desk')) return 'desk';
  if (contexts.has('door')) return 'door';
  return [...contexts].every((context) => context === 'sale' || context === 'tender') ? 'sale' : null;
}

/**
 * The shortcuts the help shows where the cashier is: the screen's own and the
 * till's, the front desk's and the door's only on a till that has them (the
 * sale screen's F-keys mean other things there).
 */
export function helpShortcuts(where: {
  atDesk: boolean;
  hasDesk: boolean;
  atDoor?: boolean;
  hasDoor?: boolean;
}): Shortcut[] {
  const here: TillMode = where.atDoor ? 'door' : where.atDesk ? 'desk' : 'sale';
  return SHORTCUTS.filter((shortcut) => {
    if (shortcut.desk && !where.hasDesk) return false;
    if (shortcut.door && !where.hasDoor) return false;
    const screen = screenOf(shortcut);
    return screen === null || screen === here;
  });
}

export const KEY_BINDINGS: readonly KeyBinding[] = SHORTCUTS.flatMap((shortcut) => shortcut.bind ?? []);

function modifiersMatch(event: KeyboardEvent, modifiers: KeyModifiers): boolean {
  const other = event.ctrlKey || event.metaKey;
  if (modifiers === 'none') return !event.altKey && !other;
  if (modifiers === 'alt') return event.altKey && !other;
  if (modifiers === 'altAny') return event.altKey;
  if (modifiers === 'noAlt') return !event.altKey;
  return true;
}

function keyMatches(event: KeyboardEvent, binding: KeyBinding): boolean {
  if (binding.modifiers !== 'alt' && binding.modifiers !== 'altAny') return event.key === binding.key;
  return (
    event.key.toLowerCase() === binding.key ||
    event.code.replace(/^(Key|Digit)/, '').toLowerCase() === binding.key
  );
}

/**
 * What the key pressed does in `context` now, given which conditions hold; none when it does not
 * act there (the listener leaves it alone). A key the page already handled does nothing.
 */
export function shortcutAction(
  context: KeyContext,
  event: KeyboardEvent,
  holds: Partial<Record<KeyCondition, boolean>> = {},
): KeyAction | undefined {
  if (event.defaultPrevented) return undefined;
  const binding = KEY_BINDINGS.find(
    (one) =>
      one.context === context &&
      modifiersMatch(event, one.modifiers) &&
      keyMatches(event, one) &&
      (one.when ?? []).every((condition) => holds[condition] === true),
  );
  return binding?.action;
}

/** True when typing goes into this element (so a letter key is text, not a command). */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLTextAreaElement || target.isContentEditable) return true;
  return (
    target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(target.type)
  );
}

/**
 * Acts on `context`'s shortcuts while `active`: a key whose action is in `actions` runs it, and the
 * page does nothing else with that key. A layout effect, like the dialogs' keys: the keys that act
 * are always those of what is on screen.
 */
export function useShortcuts(
  context: KeyContext,
  active: boolean,
  holds: (event: KeyboardEvent) => Partial<Record<KeyCondition, boolean>>,
  actions: Partial<Record<KeyAction, () => void>>,
): void {
  useLayoutEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      const action = shortcutAction(context, event, holds(event));
      const run = action && actions[action];
      if (run) {
        event.preventDefault();
        run();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
}
