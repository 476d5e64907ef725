/**
 * The refund form in Chromium, over the preview's sample state: a 0 keeps a
 * line (it is not an invalid quantity), and the amount shown is what the
 * picked lines give back, not the sale's total.
 */
import { describe, expect, it } from 'vitest';

import { openSaleScreen, previewInChromium } from '../support/till-preview.ts';

const chromium = previewInChromium();

describe('the refund form', () => {
  it('keeps a line given 0, and shows what the picked lines give back', async () => {
    const page = await chromium.browser.newPage({ viewport: { width: 1366, height: 768 } });
    await openSaleScreen(page, chromium.preview, 'en');
    await page.evaluate(() => window.preview!.addSales(1, 'applied'));
    await page.keyboard.press('Alt+S');
    // The refund is asked of the sale opened from the list.
    await page.click('[data-testid=sales-panel] .sale-open');
    await page.click('[data-testid=sale-detail] >> text=/^Refund$/');
    const form = page.locator('[data-testid=manager-action]');
    const amount = form.locator('[data-testid=action-amount]');
    const button = form.locator('button[type=submit]');
    const fields = form.locator('.refund-line input');
    // Both lines, all of each: 6,400 + 1,400.
    await expect.poll(() => amount.textContent()).toContain('7,800');
    await expect.poll(() => fields.first().inputValue()).toBe('2');

    await fields.first().fill('0');
    expect(await fields.first().getAttribute('aria-invalid')).toBe('false');
    await expect.poll(() => amount.textContent()).toContain('1,400');
    await form.getByLabel('Manager PIN').fill('987654');
    expect(await button.isEnabled()).toBe(true);

    // Nothing picked at all refunds nothing: the button waits.
    await fields.nth(1).fill('0');
    await expect.poll(() => button.isEnabled()).toBe(false);
    // More than was sold is marked, and refunds nothing.
    await fields.first().fill('3');
    await expect.poll(() => fields.first().getAttribute('aria-invalid')).toBe('true');
    expect(await button.isEnabled()).toBe(false);
    await page.close();
  });
});
