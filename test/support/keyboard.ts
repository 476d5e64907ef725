/**
 * Typing with the key times a test chooses: each key goes to Chromium over CDP
 * with its own timestamp, which becomes the page's `KeyboardEvent.timeStamp`.
 * A scanner's 5 ms a character stays 5 ms however busy the machine is.
 */
import type { Page } from 'playwright-core';

/** Types `text` (then Enter, unless told not to), `gapMs` apart in the page's clock. */
export async function typeTimed(
  page: Page,
  text: string,
  gapMs: number,
  { enter = true, then }: { enter?: boolean; then?: `F${number}` } = {},
): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
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
  } finally {
    await cdp.detach();
  }
}
