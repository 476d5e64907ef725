/**
 * Typing with the key times a test chooses: each key goes to Chromium over CDP
 * with its own timestamp, which becomes the page's `KeyboardEvent.timeStamp`.
 * A scanner's 5 ms a character stays 5 ms however busy the machine is.
 */
import type { CDPSession, Page } from 'playwright-core';

/**
 * One CDP session per page, kept while the page lives: detaching a session
 * clears the page's offline emulation (`navigator.onLine` turns true and an
 * `online` event fires while requests still fail), so a keyboard helper that
 * attached and detached for each call made an offline till look online.
 */
const sessions = new WeakMap<Page, Promise<CDPSession>>();
function session(page: Page): Promise<CDPSession> {
  let cdp = sessions.get(page);
  if (!cdp) {
    cdp = page.context().newCDPSession(page);
    sessions.set(page, cdp);
  }
  return cdp;
}

/** The page's last key time: a call that follows another never types before the keys it sent (each key's time can run ahead of the clock). */
const lastKeyAt = new WeakMap<Page, number>();

/**
 * Types `text` (then Enter, unless told not to), `gapMs` apart in the page's clock: a number, or
 * the gap before the key at each index (Enter's index is `text.length`), for a scan that pauses.
 */
export async function typeTimed(
  page: Page,
  text: string,
  gapMs: number | ((index: number) => number),
  {
    enter = true,
    then,
    continues = false,
  }: {
    enter?: boolean;
    then?: `F${number}`;
    /** The keys go on from the page's last ones, `gapMs` after them however long the test took meanwhile: the rest of a scan. */
    continues?: boolean;
  } = {},
): Promise<void> {
  const cdp = await session(page);
  const last = lastKeyAt.get(page) ?? 0;
  let at = continues ? last : Math.max(Date.now() / 1000, last);
  let index = 0;
  const press = async (key: string, code: string, keyCode: number, insert: string) => {
    at += (typeof gapMs === 'number' ? gapMs : gapMs(index++)) / 1000;
    const common = { key, code, windowsVirtualKeyCode: keyCode, timestamp: at };
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', text: insert, ...common });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...common });
  };
  for (const char of text) {
    const digit = /\d/.test(char);
    const code = char === ' ' ? 'Space' : digit ? `Digit${char}` : `Key${char.toUpperCase()}`;
    await press(char, code, char.toUpperCase().charCodeAt(0), char);
  }
  if (enter) await press('Enter', 'Enter', 13, '\r');
  // A function key straight after, the way a cashier's F9 can follow a scan before the page has caught up.
  if (then) await press(then, then, 111 + Number(then.slice(1)), '');
  lastKeyAt.set(page, at);
}
