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

/** Types `text` (then Enter, unless told not to), `gapMs` apart in the page's clock. */
export async function typeTimed(
  page: Page,
  text: string,
  gapMs: number,
  { enter = true, then }: { enter?: boolean; then?: `F${number}` } = {},
): Promise<void> {
  const cdp = await session(page);
  let at = Date.now() / 1000;
  const press = async (key: string, code: string, keyCode: number, insert: string) => {
    at += gapMs / 1000;
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
}
