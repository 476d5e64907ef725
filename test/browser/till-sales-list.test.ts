/**
 * The Sales list in Chromium, over the preview's sample sales (today,
 * yesterday and the day before, 7,800 twice): found by amount and by day,
 * chosen with ↑ ↓ and opened with Enter, Esc back; and on a phone-sized
 * screen in Swahili, by touch, an older sale opened and reprinted.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { previewInChromium } from '../support/till-preview.ts';

const chromium = previewInChromium();

async function openSales(page: Page, language: 'en' | 'sw'): Promise<void> {
  await page.goto(`${chromium.preview.url}?lang=${language}`);
  await page.waitForFunction(() => window.preview !== undefined, null, { timeout: 30_000 });
  await page.evaluate(() => {
    window.preview!.setPairing('paired');
    window.preview!.setCashier(true);
    window.preview!.setShift(true);
    window.preview!.addHistory();
  });
  await page.waitForSelector('[data-testid=sale-screen]', { timeout: 30_000 });
}

const numbers = (page: Page) => page.locator('[data-testid=sales-panel] .sale-row strong').allTextContents();

describe('the Sales list', () => {
  it('finds sales by amount and day, and opens one with the keyboard alone', async () => {
    const page = await chromium.browser.newPage({ viewport: { width: 1366, height: 768 } });
    await openSales(page, 'en');
    await page.keyboard.press('Alt+S');
    await expect.poll(() => numbers(page)).toHaveLength(7);
    // Typing goes to the search box; an amount finds both sales of 7,800, newest first.
    await page.keyboard.type('7,800');
    await expect.poll(() => numbers(page)).toEqual(['T01-000124', 'T01-000121']);
    // ↓ chooses the older one and Enter opens it: its lines, weights and discounts, and tenders.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const detail = page.locator('[data-testid=sale-detail]');
    await detail.waitFor();
    expect(await detail.locator('h2').textContent()).toBe('Receipt T01-000121');
    const lines = await detail.locator('[data-testid=sale-lines]').textContent();
    expect(lines).toContain('0.500 kg × TZS 2,800');
    expect(lines).toContain('Punguzo 5% −TZS 825');
    expect(await detail.locator('[data-testid=sale-tenders]').textContent()).toContain('M-Pesa QK7P2M');
    expect(await detail.textContent()).toContain('Cashier: Neema');
    // Tab reaches its actions, and stays inside the sale.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Reprint');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => window.preview!.reprinted())).toEqual(['cli_121']);
    // Esc: back to the list and its search; Esc again closes it.
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('7,800');
    // Today: the newer 7,800 alone; yesterday: none of 7,800.
    await page.click('text=/^Today$/');
    await expect.poll(() => numbers(page)).toEqual(['T01-000124']);
    await page.click('text=/^Yesterday$/');
    await expect.poll(() => page.textContent('[data-testid=sales-panel]')).toContain('No sale matches');
    await page.fill('[data-testid=sales-search]', '');
    await expect.poll(() => numbers(page)).toEqual(['T01-000123', 'T01-000122']);
    await page.fill('[data-testid=sales-day]', '2026-11-24');
    await expect.poll(() => numbers(page)).toEqual(['T01-000121']);
    // The status of each: voided, refunded in full or in part.
    await page.click('text=/^Any day$/');
    const panel = page.locator('[data-testid=sales-panel]');
    await expect.poll(() => panel.locator('.sale-row').nth(2).textContent()).toContain('Voided');
    expect(await panel.locator('.sale-row').nth(3).textContent()).toContain('Partly refunded TZS 1,400');
    expect(await panel.locator('.sale-row').nth(4).textContent()).toContain('Refunded TZS 9,100');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await page.close();
  });

  it('opens and reprints an older sale by touch on a small screen, in Swahili', async () => {
    const context = await chromium.browser.newContext({
      viewport: { width: 360, height: 740 },
      hasTouch: true,
    });
    const page = await context.newPage();
    await openSales(page, 'sw');
    await page
      .locator('button:visible', { hasText: /^Mauzo/ })
      .first()
      .tap();
    await page.tap('text=/^Jana$/');
    await expect.poll(() => numbers(page)).toEqual(['T01-000123', 'T01-000122']);
    await page.tap('[data-testid=sales-panel] .sale-open >> nth=1');
    const detail = page.locator('[data-testid=sale-detail]');
    await detail.waitFor();
    expect(await detail.locator('h2').textContent()).toBe('Risiti T01-000122');
    // The actions stay in reach under the lines.
    const reprint = detail.locator('[data-testid=reprint-sale]');
    expect(await reprint.isVisible()).toBe(true);
    await reprint.tap();
    await expect.poll(() => page.evaluate(() => window.preview!.reprinted())).toEqual(['cli_122']);
    expect(await detail.textContent()).toContain('Risiti T01-000122 imechapishwa');
    await context.close();
  });
});
