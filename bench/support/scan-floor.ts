import type { BrowserContext } from 'playwright-core';
import { typeTimed } from '../../test/support/keyboard.ts';

/**
 * The least a scan to a line on screen costs in this browser: the same keys, at a scanner's
 * pace, typed into the focused field of a bare page that appends a line at Enter and clears
 * the field. Its digits are drawn as they land, as in the till's search box, so frames are
 * running when the Enter comes; its frame time is what the display's rhythm costs alone.
 */
export async function bareScanFloor(
  context: BrowserContext,
  scans: number,
  barcode: () => string,
): Promise<{ dom: number[]; frame: number[] }> {
  const page = await context.newPage();
  await page.setContent(`<input id="field" autofocus><ul id="lines"></ul>`);
  await page.evaluate(() => {
    const w = window as unknown as { scanTimes: Array<{ dom: number; frame: number }> };
    w.scanTimes = [];
    const field = document.getElementById('field') as HTMLInputElement;
    const lines = document.getElementById('lines')!;
    window.addEventListener(
      'keydown',
      (event) => {
        if (event.key !== 'Enter') return;
        const at = performance.now();
        event.preventDefault();
        const line = document.createElement('li');
        line.textContent = field.value;
        lines.prepend(line);
        field.value = '';
        const dom = performance.now();
        requestAnimationFrame(() => w.scanTimes.push({ dom: dom - at, frame: performance.now() - at }));
      },
      true,
    );
  });
  await page.focus('#field');
  for (let i = 0; i < scans; i++) {
    await typeTimed(page, barcode(), 5);
    // The till's loop makes two round trips between scans; a similar pause here.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  const times = await page.evaluate(
    () => (window as unknown as { scanTimes: Array<{ dom: number; frame: number }> }).scanTimes,
  );
  await page.close();
  return { dom: times.map((t) => t.dom), frame: times.map((t) => t.frame) };
}
