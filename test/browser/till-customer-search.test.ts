/**
 * The customer dialog (F3) on a slow till, over the preview's sample state:
 * an Enter typed before the search has answered waits for that answer and then
 * acts on it, the way it would on a fast till, instead of being lost.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { typeTimed } from '../support/keyboard.ts';
import { openSaleScreen, previewInChromium } from '../support/till-preview.ts';

const chromium = previewInChromium();
let page: Page;

beforeEach(async () => {
  page = await chromium.browser.newPage({ viewport: { width: 1366, height: 768 } });
  await openSaleScreen(page, chromium.preview, 'en');
  await page.evaluate(() => window.preview!.holdCustomerSearches(true));
  await page.keyboard.press('F3');
  await page.waitForSelector('[data-testid=customer-dialog] input:focus');
});

/** Types `text` and Enter while the searches are held, then lets them answer. */
async function typeAndEnterBeforeTheAnswer(text: string) {
  // A person's pace: keys closer than a scanner's, ended by Enter, would read as a scan.
  await typeTimed(page, text, 120);
  // Nothing has answered yet: the dialog is still at the search, with no list.
  expect(await page.$('[data-testid=customer-results]')).toBeNull();
  expect(await page.$('[data-testid=new-customer-form]')).toBeNull();
  await page.evaluate(() => window.preview!.holdCustomerSearches(false));
}

describe('Enter in the customer search before the answer', () => {
  it('opens the new customer form with the name when nobody matches', { timeout: 60_000 }, async () => {
    await typeAndEnterBeforeTheAnswer('Neema Joseph');
    await expect.poll(() => page.$('[data-testid=customer-phone]:focus'), { timeout: 10_000 }).not.toBeNull();
    expect(await page.inputValue('[data-testid=customer-name]')).toBe('Neema Joseph');
  });

  it('puts the customer who matches the whole text on the sale', { timeout: 60_000 }, async () => {
    await typeAndEnterBeforeTheAnswer('Juma');
    await page.waitForSelector('[data-testid=customer-dialog]', { state: 'detached', timeout: 10_000 });
    expect(await page.textContent('[data-testid=cart-customer]')).toMatch(/Juma Kassim/);
  });
});
