import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHORTCUTS } from './shortcuts.ts';

const doc = readFileSync(new URL('../../../../../../docs/TILL.md', import.meta.url), 'utf8');
// The shortcut table is the one under "## Keyboard".
const keyboard = doc.slice(doc.indexOf('## Keyboard'), doc.indexOf('\n## ', doc.indexOf('## Keyboard') + 1));
const documented = [...keyboard.matchAll(/^\| `([^`]+)` +\|/gm)].map((match) => match[1]);

describe('the keyboard shortcuts', () => {
  it('lists in docs/TILL.md exactly the shortcuts the help overlay shows', () => {
    expect(documented.sort()).toEqual(SHORTCUTS.map((shortcut) => shortcut.keys).sort());
  });

  it('names each shortcut once', () => {
    const keys = SHORTCUTS.map((shortcut) => shortcut.keys);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
