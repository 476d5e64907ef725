/**
 * Quick cash and no sale in Chromium, over the preview's sample state (the
 * screens are the real ones; the store is a stand-in): a quick-cash button
 * tapped fills the cash given and shows the change, ↑ ↓ step through them
 * from the field, Enter takes it; Alt+N opens the drawer with a reason.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { quickCashAmounts } from '@tz/core';
import { previewInChromium } from '../support/till-preview.ts';

const chromium = previewInChromium();
let page: Page;

beforeEach(async () => {
  page = await chromium.browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(`${chromium.preview.url}?lang=en`);
  await page.waitForFunction(() => window.preview !== undefined, null, { timeout: 30_000 });
  await page.evaluate(() => {
    window.preview!.setPairing('paired');
    window.preview!.setCashier(true);
    window.preview!.setShift(true);
  });
  await page.waitForSelector('[data-testid=sale-screen]', { timeout: 30_000 });
});

const shillings = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''));
const changeShown = () => page.textContent('[data-testid=change-preview]').then(shillings);

describe('quick cash', () => {
  it('fills the cash given from a tapped button, shows the change, and steps with ↑ ↓ before Enter takes it', async () => {
    await page.evaluate(() => window.preview!.fillCart());
    await page.waitForSelector('[data-testid=cart] tbody tr', { timeout: 30_000 });
    await page.keyboard.press('F10');
    await page.waitForSelector('[data-testid=cash-given]:focus', { timeout: 30_000 });
    const due = shillings(await page.textContent('[data-testid=remaining]'));
    const offered = quickCashAmounts(due, 'TZS');
    expect(offered.length).toBeGreaterThan(2);
    const buttons = page.locator('[data-testid=quick-cash] button');
    expect((await buttons.allTextContents()).map(shillings)).toEqual(offered);
    expect(await buttons.first().textContent()).toContain('Exact');

    // A tap fills the amount, shows the change, and gives focus back to the field.
    await buttons.nth(1).click();
    expect(await page.inputValue('[data-testid=cash-given]')).toBe(String(offered[1]));
    expect(await changeShown()).toBe(offered[1]! - due);
    await page.waitForSelector('[data-testid=cash-given]:focus', { timeout: 30_000 });
    expect(await buttons.nth(1).getAttribute('aria-pressed')).toBe('true');

    // ↓ to the next larger amount, ↑ back to the exact amount (and no further).
    await page.keyboard.press('ArrowDown');
    expect(await page.inputValue('[data-testid=cash-given]')).toBe(String(offered[2]));
    expect(await changeShown()).toBe(offered[2]! - due);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await page.inputValue('[data-testid=cash-given]')).toBe(String(offered[0]));
    expect(await changeShown()).toBe(0);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
    expect(shillings(await page.textContent('[data-testid=change-due]'))).toBe(offered[1]! - due);
  });
});

describe('no sale', () => {
  it('opens from Alt+N with a reason picked, says the drawer could not open without a printer, and counts it in the shift', async () => {
    await page.keyboard.press('Alt+N');
    await page.waitForSelector('[data-testid=no-sale]', { timeout: 30_000 });
    const open = page.locator('[data-testid=no-sale] button[type=submit]');
    expect(await open.isDisabled()).toBe(true);
    await page.locator('.reason-choices button', { hasText: 'Change for a customer' }).click();
    expect(await page.inputValue('[data-testid=no-sale] input')).toBe('Change for a customer');
    // Focus went back to the reason, so Enter opens the drawer.
    await page.waitForSelector('[data-testid=no-sale] input:focus', { timeout: 30_000 });
    expect(await open.isDisabled()).toBe(false);
    await page.keyboard.press('Enter');
    await page.waitForSelector('text=this till has no printer to open it', { timeout: 30_000 });
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=no-sale]', { state: 'detached', timeout: 30_000 });

    // From the shift panel too, with a reason typed; a manager's PIN when the till asks for one.
    await page.evaluate(() => window.preview!.setSettings({ noSaleNeedsManager: true }));
    await page.keyboard.press('Alt+Z');
    await page.waitForSelector('[data-testid=shift-panel]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=shift-no-sales]')).toBe('1');
    await page.click('[data-testid=shift-no-sale]');
    await page.waitForSelector('[data-testid=no-sale]', { timeout: 30_000 });
    await page.locator('[data-testid=no-sale] input').first().fill('Swap a torn note');
    await page.locator('[data-testid=no-sale] input[type=password]').fill('1111');
    await page.keyboard.press('Enter');
    await page.waitForSelector('text=That is not a manager’s PIN.', { timeout: 30_000 });
    await page.locator('[data-testid=no-sale] input[type=password]').fill('9999');
    await page.keyboard.press('Enter');
    await page.waitForSelector('text=this till has no printer to open it', { timeout: 30_000 });
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=shift-no-sales]')?.textContent === '2',
      null,
      { timeout: 30_000 },
    );
  });
});
