/**
 * Watching a page for a key's effect, the same way for the till and for the bare pages its
 * floors are measured on: the page time of the key (`recordKeys`, capture phase, before the
 * page's own handlers), of the DOM change it made, of the next animation frame, and of the
 * task after that frame.
 */
import type { Page } from 'playwright-core';
import { typeTimed } from '../../test/support/keyboard.ts';

/** In the page: the time of each keydown, before the page's own handlers see it. */
export function recordKeys(): void {
  const w = window as unknown as { benchKeys: Array<{ key: string; at: number }> };
  w.benchKeys = [];
  window.addEventListener(
    'keydown',
    (event) => w.benchKeys.push({ key: event.key, at: performance.now() }),
    true,
  );
}

interface Watched {
  dom: number;
  frame: number;
  began: number;
  painted: number;
}

/**
 * Arms a watch in the page: resolves with the page time at which `selector`
 * first matches at least `count` elements (after a DOM change), the next
 * animation frame after that (`frame`: when its callbacks run; `began`: the
 * frame's own start, the time the browser gives them), and the task after
 * that frame (`painted`: the frame's own work, its layout and paint, is done
 * by then).
 */
export async function arm(page: Page, selector: string, count: number): Promise<void> {
  await page.evaluate(
    ({ selector, count }) => {
      const w = window as unknown as { benchWatch: Promise<Watched> };
      w.benchWatch = new Promise((resolve) => {
        const check = () => {
          if (document.querySelectorAll(selector).length < count) return false;
          const dom = performance.now();
          observer.disconnect();
          requestAnimationFrame((began) => {
            const frame = performance.now();
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve({ dom, frame, began, painted: performance.now() });
            channel.port2.postMessage(null);
          });
          return true;
        };
        const observer = new MutationObserver(check);
        if (!check()) observer.observe(document.body, { childList: true, subtree: true });
      });
    },
    { selector, count },
  );
}

/** The watch's answer and the time of the last `key` pressed since the last answer (`recordKeys`). */
export async function watched(page: Page, key: string): Promise<Watched & { key: number }> {
  return page.evaluate(async (key) => {
    const w = window as unknown as {
      benchWatch: Promise<Watched>;
      benchKeys: Array<{ key: string; at: number }>;
    };
    const seen = await w.benchWatch;
    const pressed = w.benchKeys.filter((k) => k.key === key).at(-1)!;
    w.benchKeys = [];
    return { key: pressed.at, ...seen };
  }, key);
}

/** One scan timed: the watch armed for `count` matches of `selector`, `code` and Enter typed at a scanner's pace (5 ms a key). */
export async function timedScan(
  page: Page,
  selector: string,
  count: number,
  code: string,
): Promise<Watched & { key: number }> {
  await arm(page, selector, count);
  await typeTimed(page, code, 5);
  return watched(page, 'Enter');
}
