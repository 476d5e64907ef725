/**
 * The Sales list end to end, all real: the till's browser build in Chromium,
 * the server, the local printer bridge and a virtual network printer over TCP.
 * Three sales are made; the first is found by its receipt number's digits,
 * opened with its lines, and its receipt printed again, not the last one's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newTill, openTill, scan, startTillShop, type TillShop } from '../support/till-e2e.ts';

let shop: TillShop;

beforeAll(async () => {
  shop = await startTillShop();
}, 240_000);
afterAll(async () => {
  await shop?.close();
});

/** Completes the cart with F9, waits for its receipt on the printer, and starts the next sale. */
async function sellAndPrint(page: Page, printed: number): Promise<void> {
  await page.keyboard.press('F9');
  await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
  await shop.printer.waitForJobs(printed, 30_000);
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=sale-done]', { state: 'detached' });
}

const rows = (page: Page) => page.locator('[data-testid=sales-panel] .sale-row strong');

describe('the Sales list at the till', () => {
  it('finds an older sale by its receipt number, opens it with its lines and reprints it on the printer', async () => {
    const { till, context } = await newTill(shop);
    try {
      const errors: string[] = [];
      const page = await openTill(context, till.pairing_url, errors);
      const before = shop.printer.jobs.length;
      await sellAndPrint(page, before + 1); // 3,500
      await scan(page);
      await scan(page);
      await page.waitForSelector('[data-testid=total] >> text=7,000');
      await sellAndPrint(page, before + 2); // 7,000
      await scan(page);
      await page.waitForSelector('[data-testid=total] >> text=3,500');
      await sellAndPrint(page, before + 3); // 3,500

      await page.keyboard.press('Alt+S');
      await page.waitForSelector('[data-testid=sales-panel]');
      await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBe(3);
      const [third, , first] = await rows(page).allTextContents();
      expect(first).toMatch(/^T\d{2}-000001$/);
      expect(third).toMatch(/-000003$/);

      // The amount finds the one sale of 7,000.
      await page.keyboard.type('7,000');
      await expect.poll(() => rows(page).allTextContents()).toEqual([first!.replace(/1$/, '2')]);
      // Its number's digits alone find the first sale; a tap opens it (Enter is covered over the
      // preview, test/browser/till-sales-list.test.ts).
      await page.fill('[data-testid=sales-search]', '1');
      await expect.poll(() => rows(page).allTextContents()).toEqual([first]);
      await page.locator('[data-testid=sales-panel] .sale-open').first().click();
      const detail = page.locator('[data-testid=sale-detail]');
      await expect
        .poll(() => detail.locator('[data-testid=sale-lines]').textContent())
        .toContain('Sukari Kilombero');
      expect(await detail.locator('[data-testid=sale-total]').textContent()).toContain('3,500');

      await detail.locator('[data-testid=reprint-sale]').click();
      const jobs = await shop.printer.waitForJobs(before + 4, 30_000);
      const reprinted = jobs[before + 3]!.text;
      expect(reprinted).toContain(first);
      expect(reprinted).not.toContain(third);
      expect(reprinted).toContain('Sukari Kilombero');
      // Esc goes back to the list, where the search still stands; Esc again closes it.
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid=sale-detail]', { state: 'detached' });
      expect(await page.inputValue('[data-testid=sales-search]')).toBe('1');
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid=sales-panel]', { state: 'detached' });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});
