/**
 * The door with no shift and the box office, in Chromium over the preview's
 * sample concert (the screens are the real ones; the store is a stand-in
 * that sells and judges as an offline till): door staff signed in with no
 * shift scan tickets, while the sale and the box office ask for the float;
 * the box office sells within what is left (a sold-out tier cannot be
 * chosen), takes payment in the sale's tender dialog, and the door admits a
 * ticket it sold.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { scanAtDoor } from '../support/door.ts';
import { openSaleScreen, previewInChromium } from '../support/till-preview.ts';

const chromium = previewInChromium();
let page: Page;

beforeEach(async () => {
  page = await chromium.browser.newPage({ viewport: { width: 1366, height: 768 } });
  await openSaleScreen(page, chromium.preview, 'en');
  await page.evaluate(() => window.preview!.setDoor('one'));
  await page.waitForSelector('[data-testid=mode-door]', { timeout: 30_000 });
});
afterEach(async () => {
  await page.close();
});

const codes = () => page.evaluate(() => window.preview!.doorCodes().tickets.map((ticket) => ticket.code));

describe('the door with no shift open', () => {
  it('scans tickets, while the sale and the box office ask for the float first', async () => {
    await page.evaluate(() => window.preview!.setShift(false));
    await page.waitForSelector('[data-testid=open-shift-screen]', { timeout: 30_000 });
    // The tabs are there with no shift: the door is one key away.
    await page.keyboard.press('Alt+G');
    await page.waitForSelector('[data-testid=door-screen]', { timeout: 30_000 });
    expect(await page.getAttribute('.till', 'data-screen')).toBe('door');
    const [code] = await codes();
    expect((await scanAtDoor(page, code!)).verdict).toBe('ok');

    await page.keyboard.press('F6');
    await page.waitForSelector('[data-testid=open-shift-screen]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=open-shift-screen]')).toContain(
      'The box office takes money: open a shift first.',
    );
    await page.click('[data-testid=mode-sale]');
    await page.waitForSelector('[data-testid=open-shift-screen]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=open-shift-screen]')).not.toContain('box office');
  });
});

describe('the box office', () => {
  it('sells within what is left, takes payment with the sale’s tenders, and the door admits what it sold', async () => {
    await page.keyboard.press('Alt+G');
    await page.waitForSelector('[data-testid=door-screen]', { timeout: 30_000 });
    await page.keyboard.press('F6');
    await page.waitForSelector('[data-testid=box-office-tier]', { timeout: 30_000 });
    const tiers = page.locator('[data-testid=box-office-tier]');
    expect(await tiers.count()).toBe(3);
    await expect.poll(() => tiers.nth(2).textContent()).toContain('Sold out');
    expect(await tiers.nth(2).locator('[data-testid=box-office-more]').isDisabled()).toBe(true);
    expect(await page.isDisabled('[data-testid=box-office-pay]')).toBe(true);

    await tiers.nth(0).locator('[data-testid=box-office-more]').click();
    await tiers.nth(1).locator('[data-testid=box-office-more]').click();
    await tiers.nth(1).locator('[data-testid=box-office-more]').click();
    await tiers.nth(1).locator('[data-testid=box-office-less]').click();
    expect(await page.textContent('[data-testid=box-office-total]')).toBe('TZS 65,000');

    const before = (await codes()).length;
    await page.keyboard.press('F10');
    await page.waitForSelector('[data-testid=tender-dialog]', { timeout: 30_000 });
    // No room charge at the box office, though the tabs of the shop's tenders are all there.
    expect(await page.locator('[data-testid=tender-dialog] [role=tab]').count()).toBe(3);
    await page.fill('[data-testid=cash-given]', '70000');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=change-due]')).toBe('TZS 5,000');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=sale-done]', { state: 'detached' });
    // What it sold is off what is left, and the choice is cleared for the next buyer.
    await expect.poll(() => tiers.nth(0).textContent()).toContain('11 left');
    expect(await page.textContent('[data-testid=box-office-total]')).toBe('TZS 0');

    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=door-screen]', { timeout: 30_000 });
    const sold = (await codes()).slice(before);
    expect(sold).toHaveLength(2);
    expect((await scanAtDoor(page, sold[0]!)).verdict).toBe('ok');
    expect((await scanAtDoor(page, sold[0]!)).verdict).toBe('already_redeemed');
  });
});
