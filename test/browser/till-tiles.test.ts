/**
 * The sale screen's product tiles in Chromium, over the preview's sample
 * shelves (Favourites, then Chakula with two pages, Muda wa maongezi, Usafi,
 * Vinywaji): by keyboard at the counter's 1366x768, by touch on a 360 px
 * phone in Swahili (where the whole sale screen must fit the width), folded
 * away and back, and absent for a store without shelves.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openSaleScreen, previewInChromium } from '../support/till-preview.ts';

const chromium = previewInChromium();

const cartNames = (page: Page) => page.locator('[data-testid=cart] .line-name').allTextContents();
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return {
      tile: element?.classList.contains('tile') ? element.querySelector('.tile-name')?.textContent : null,
      tab: element?.getAttribute('role') === 'tab' ? element.textContent : null,
      search: element?.getAttribute('data-testid') === 'search',
    };
  });

describe('the product tiles', () => {
  it('are used by keyboard alone: F5, arrows, Enter, tabs, PageDown, Esc', async () => {
    const page = await chromium.browser.newPage({ viewport: { width: 1366, height: 768 } });
    await openSaleScreen(page, chromium.preview, 'en');
    await expect
      .poll(() => page.locator('.tile-tab').allTextContents())
      .toEqual(['★ Favourites', 'Chakula', 'Muda wa maongezi', 'Usafi', 'Vinywaji']);

    await page.keyboard.press('F5');
    await expect.poll(() => focused(page)).toMatchObject({ tile: 'Mkate wa Kawaida Azam' });
    await page.keyboard.press('Enter');
    await expect.poll(() => cartNames(page)).toEqual(['Mkate wa Kawaida Azam']);
    // The tile says how many the cart holds, and keeps focus for the next.
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.tile.held .tile-held').first().textContent()).toBe('2');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => focused(page)).toMatchObject({ tile: 'Maandazi' });
    await page.keyboard.press('Enter');
    await expect.poll(() => cartNames(page)).toEqual(['Mkate wa Kawaida Azam', 'Maandazi']);

    // Up from the first row reaches the tabs; → changes shelf; ↓ goes into it.
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => focused(page)).toMatchObject({ tab: '★ Favourites' });
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => focused(page)).toMatchObject({ tab: 'Chakula' });
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await focused(page)).tile).toBe('Chapati');
    const first = 'Chapati';
    // Chakula holds more than a page: PageDown shows the next, its first tile focused.
    await expect.poll(() => page.locator('.tile-pager span').textContent()).toMatch(/^1\/\d$/);
    await page.keyboard.press('PageDown');
    await expect.poll(() => page.locator('.tile-pager span').textContent()).toMatch(/^2\/\d$/);
    // The new page's first tile takes focus.
    const pageTwoFirst = await page.locator('.tile .tile-name').first().textContent();
    expect(pageTwoFirst).not.toBe(first);
    await expect.poll(async () => (await focused(page)).tile).toBe(pageTwoFirst);

    // A weighed item asks for its weight, as when picked from a search.
    await page.keyboard.press('PageUp');
    await page.locator('.tile', { hasText: 'Maharage (kg)' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[role=dialog]').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[role=dialog]').count()).toBe(0);

    // Esc from the tiles: back to the search box, where typing searches.
    await page.keyboard.press('F5');
    await expect.poll(async () => (await focused(page)).tile).not.toBeNull();
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await focused(page)).search).toBe(true);

    // The tiles sit between the cart and the status bar, never under either.
    const tiles = (await page.locator('[data-testid=tiles]').boundingBox())!;
    const cart = (await page.locator('[data-testid=cart]').boundingBox())!;
    const status = (await page.locator('[data-testid=status-bar]').boundingBox())!;
    expect(tiles.y).toBeGreaterThanOrEqual(cart.y + cart.height);
    expect(tiles.y + tiles.height).toBeLessThanOrEqual(status.y);
    await page.close();
  });

  it('fold away to their tabs and come back with F5; a store without shelves shows none', async () => {
    const page = await chromium.browser.newPage({ viewport: { width: 1366, height: 768 } });
    await openSaleScreen(page, chromium.preview, 'en');
    await page.click('[data-testid=tiles-fold]');
    await expect.poll(() => page.locator('.tile').count()).toBe(0);
    await expect.poll(() => page.locator('.tile-tab').count()).toBe(5);
    await page.keyboard.press('F5');
    await expect.poll(async () => (await focused(page)).tile).toBe('Mkate wa Kawaida Azam');
    await page.evaluate(() => window.preview!.setTiles('none'));
    await expect.poll(() => page.locator('[data-testid=tiles]').count()).toBe(0);
    // F5 does nothing then, and the browser does not take it as a reload.
    await page.evaluate(() => Object.assign(window, { beforeF5: true }));
    await page.keyboard.press('F5');
    await page.keyboard.press('F2');
    expect(await page.evaluate(() => 'beforeF5' in window)).toBe(true);
    await page.close();
  });

  it('are used by touch on a 360 px phone in Swahili, with the sale screen inside the width', async () => {
    const page = await chromium.browser.newPage({
      viewport: { width: 360, height: 740 },
      hasTouch: true,
      isMobile: true,
    });
    await openSaleScreen(page, chromium.preview, 'sw');
    await page.evaluate(() => window.preview!.fillCart());
    await page.locator('.tile-tab', { hasText: 'Muda wa maongezi' }).tap();
    await page.locator('.tile', { hasText: 'Vocha Airtel 2,000' }).tap();
    await expect.poll(() => cartNames(page)).toContain('Vocha Airtel 2,000');

    // Nothing reaches past the right edge; the cart keeps room for its lines; the total and Pay show.
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      sale: document.querySelector('.sale')!.scrollWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(360);
    expect(widths.sale).toBeLessThanOrEqual(360);
    await page.locator('.sale').evaluate((element) => element.scrollTo(0, 0));
    const cart = (await page.locator('[data-testid=cart]').boundingBox())!;
    const total = (await page.locator('[data-testid=total]').boundingBox())!;
    const pay = (await page.locator('[data-testid=cash-exact]').boundingBox())!;
    const status = (await page.locator('[data-testid=status-bar]').boundingBox())!;
    expect(cart.height).toBeGreaterThanOrEqual(140);
    expect(cart.y + 140).toBeLessThanOrEqual(total.y);
    expect(pay.y + pay.height).toBeLessThanOrEqual(status.y);
    await page.close();
  });
});
