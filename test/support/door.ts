/** The till's door in Chromium: a scanner's burst and the verdict it brought. */
import type { Page } from 'playwright-core';
import { typeTimed } from './keyboard.ts';

/** Scans `code` (5 ms a character, then Enter) and waits for a new verdict (each scan has its own id). */
export async function scanAtDoor(page: Page, code: string) {
  const before = await page.getAttribute('[data-testid=door-verdict]', 'data-scan').catch(() => null);
  await typeTimed(page, code, 5);
  await page.waitForFunction(
    (previous) => {
      const shown = document.querySelector('[data-testid=door-verdict]');
      return shown?.getAttribute('data-verdict') && shown.getAttribute('data-scan') !== previous;
    },
    before,
    { timeout: 30_000 },
  );
  return {
    verdict: await page.getAttribute('[data-testid=door-verdict]', 'data-verdict'),
    source: await page.getAttribute('[data-testid=door-verdict]', 'data-source'),
    text: (await page.textContent('[data-testid=door-verdict]')) ?? '',
  };
}

/** The door's counts as shown. */
export async function doorCounts(page: Page) {
  const read = async (id: string) =>
    Number((await page.textContent(`[data-testid=${id}]`))?.replace(/\D/g, ''));
  return {
    here: await read('door-admitted-here'),
    admitted: await read('door-admitted'),
    remaining: await read('door-remaining'),
  };
}
