import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { typeTimed } from '../../test/support/keyboard.ts';
import { arm, recordKeys, timedScan, watched } from './page-watch.ts';

/**
 * A bare page with a focused field that adds a line at Enter and clears the field: on top of
 * the list, or (`scrolling`) at the end of a list in a box of fixed height, scrolled into view.
 */
async function barePage(context: BrowserContext, scrolling: boolean): Promise<Page> {
  const page = await context.newPage();
  const box = scrolling ? ' style="height: 400px; overflow: auto; margin: 0"' : '';
  await page.setContent(`<input id="field" autofocus><ul id="lines"${box}></ul>`);
  // tsx names inner functions with esbuild's `__name`, which functions sent to the page need too.
  await page.evaluate('globalThis.__name = (fn) => fn');
  await page.evaluate(recordKeys);
  await page.evaluate((scrolling) => {
    const field = document.getElementById('field') as HTMLInputElement;
    const lines = document.getElementById('lines')!;
    window.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      const line = document.createElement('li');
      line.textContent = field.value;
      if (scrolling) {
        line.style.padding = '12px';
        lines.append(line);
        line.scrollIntoView({ block: 'nearest' });
      } else lines.prepend(line);
      field.value = '';
    });
  }, scrolling);
  await page.focus('#field');
  return page;
}

/**
 * The least a scan to a line on screen costs in this browser: the same keys, at a scanner's
 * pace, typed into the focused field of a bare page that adds a line at Enter and clears
 * the field, watched as the till's scans are (`arm`, the keys, `watched`: a key's wait for
 * its frame depends on when it lands in the frame, and so on the harness's round trips).
 * Its digits are drawn as they land, as in the till's search box, so frames are running
 * when the Enter comes; its frame time is what the display's rhythm costs alone.
 * Then `lone`: an Enter alone, at a random moment of the frame, into the same page.
 */
export async function bareScanFloor(
  context: BrowserContext,
  scans: number,
  barcode: () => string,
): Promise<{ dom: number[]; frame: number[]; began: number[]; painted: number[]; lone: number[] }> {
  const page = await barePage(context, false);
  const result = {
    dom: [] as number[],
    frame: [] as number[],
    began: [] as number[],
    painted: [] as number[],
    lone: [] as number[],
  };
  let count = 0;
  for (let i = 0; i < scans; i++) {
    const seen = await timedScan(page, '#lines li', ++count, barcode());
    result.dom.push(seen.dom - seen.key);
    result.frame.push(seen.frame - seen.key);
    result.began.push(seen.began - seen.key);
    result.painted.push(seen.painted - seen.key);
  }
  for (let i = 0; i < scans; i++) {
    await arm(page, '#lines li', ++count);
    await sleep(Math.random() * 17);
    await typeTimed(page, '', 5);
    const seen = await watched(page, 'Enter');
    result.lone.push(seen.frame - seen.key);
  }
  await page.close();
  return result;
}

/**
 * The same scans with the mouse resting over a list that scrolls: lines appended to a box of
 * fixed height and scrolled into view, a fresh list every `perList` lines, as carts are. As
 * the list scrolls under it, Chromium hit-tests the pointer at the start of the next frame,
 * before the frame's callbacks.
 */
export async function barePointerFloor(
  context: BrowserContext,
  scans: number,
  perList: number,
  barcode: () => string,
): Promise<{ frame: number[]; began: number[] }> {
  const page = await barePage(context, true);
  const box = (await page.locator('#lines').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.75);
  const result = { frame: [] as number[], began: [] as number[] };
  for (let i = 0; i < scans; i++) {
    if (i % perList === 0) await page.evaluate(() => document.getElementById('lines')!.replaceChildren());
    const seen = await timedScan(page, '#lines li', (i % perList) + 1, barcode());
    result.frame.push(seen.frame - seen.key);
    result.began.push(seen.began - seen.key);
  }
  await page.close();
  return result;
}
