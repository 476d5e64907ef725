import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en.ts';
import { sw } from '../../i18n/sw.ts';
import { KEY_BINDINGS, SHORTCUTS, shortcutAction } from './shortcuts.ts';

const doc = readFileSync(new URL('../../../../../../docs/TILL.md', import.meta.url), 'utf8');
// The shortcut table is the one under "## Keyboard".
const keyboard = doc.slice(doc.indexOf('## Keyboard'), doc.indexOf('\n## ', doc.indexOf('## Keyboard') + 1));
const documented = [...keyboard.matchAll(/^\| `([^`]+)` +\|/gm)].map((match) => match[1]);

/** A keydown as the listeners see it: only the fields they read. */
function press(key: string, more: Partial<KeyboardEvent> = {}): KeyboardEvent {
  return {
    key,
    code: '',
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    defaultPrevented: false,
    ...more,
  } as KeyboardEvent;
}

describe('the keyboard shortcuts', () => {
  it('lists in docs/TILL.md exactly the shortcuts the help overlay shows', () => {
    expect(documented.sort()).toEqual(SHORTCUTS.map((shortcut) => shortcut.keys).sort());
  });

  it('names each shortcut once', () => {
    const keys = SHORTCUTS.map((shortcut) => shortcut.keys);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives every bound key its help text in English and Swahili', () => {
    const bound = SHORTCUTS.filter((shortcut) => (shortcut.bind ?? []).length > 0);
    expect(bound.length).toBeGreaterThan(20);
    for (const shortcut of bound) {
      expect(en[shortcut.what], shortcut.keys).toMatch(/\S/);
      expect(sw[shortcut.what], shortcut.keys).toMatch(/\S/);
    }
  });

  it('binds no key twice where it is listened for', () => {
    const bindings = KEY_BINDINGS.map((binding) => `${binding.context} ${binding.key.toLowerCase()}`);
    expect(bindings.filter((binding, index) => bindings.indexOf(binding) !== index)).toEqual([]);
  });

  it('acts on a key only in its context, with its modifiers, when its conditions hold', () => {
    expect(shortcutAction('sale', press('F9'))).toBe('cashExact');
    expect(shortcutAction('app', press('F9'))).toBeUndefined();
    expect(shortcutAction('sale', press('F9', { ctrlKey: true }))).toBeUndefined();
    expect(shortcutAction('sale', press('F9', { defaultPrevented: true }))).toBeUndefined();
    expect(shortcutAction('sale', press('F4'))).toBeUndefined();
    expect(shortcutAction('sale', press('F4'), { lineSelected: true })).toBe('quantity');
    expect(shortcutAction('sale', press('+'), { lineKeys: true })).toBeUndefined();
    expect(shortcutAction('sale', press('+'), { pieceLineKeys: true })).toBe('plus');
    expect(shortcutAction('app', press('z', { altKey: true }), { selling: true })).toBeUndefined();
    expect(shortcutAction('app', press('z', { altKey: true }), { selling: true, shiftOpen: true })).toBe(
      'shift',
    );
    // Alt changes the character on some layouts: the physical key still counts.
    expect(shortcutAction('app', press('ß', { altKey: true, code: 'KeyS' }), { selling: true })).toBe(
      'sales',
    );
    expect(shortcutAction('app', press('S', { altKey: true }), { selling: true })).toBe('sales');
    expect(shortcutAction('app', press('s'), { selling: true })).toBeUndefined();
    expect(shortcutAction('tender', press('2', { altKey: true, code: 'Digit2' }))).toBe('mobileMoney');
    expect(shortcutAction('app', press('F1', { ctrlKey: true }))).toBe('help');
    expect(shortcutAction('app', press('?', { shiftKey: true }), { notFreeText: true })).toBe('help');
    expect(shortcutAction('app', press('?', { shiftKey: true }), { notFreeText: false })).toBeUndefined();
  });
});
