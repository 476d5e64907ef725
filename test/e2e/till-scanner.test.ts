/**
 * The scanner at a real counter, end to end on the real till (server, till
 * build, Chromium): a scan while the last sale's change is on screen, a scan
 * split by a loaded machine or a pausing scanner, a scan on the sign-in and
 * opening-float screens, and the first sync of a till just paired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ean13CheckDigit } from '@tz/core';
import { typeTimed } from '../support/keyboard.ts';
import { client, signUp } from '../support/server.ts';
import {
  BARCODE,
  CASHIER_PIN,
  newTill,
  openTill,
  pulledCount,
  scan,
  scanUntilAdded,
  startTillShop,
  type TillShop,
} from '../support/till-e2e.ts';

let shop: TillShop;

beforeAll(async () => {
  shop = await startTillShop();
}, 240_000);
afterAll(async () => {
  await shop?.close();
});

/** A paired till signed in with its shift open and one Sukari (3,500) in the cart. */
async function withTill(test: (page: Page) => Promise<void>): Promise<void> {
  const { till, context } = await newTill(shop);
  try {
    await test(await openTill(context, till.pairing_url));
  } finally {
    await context.close();
  }
}

const totalReads = (page: Page, amount: string) =>
  page.waitForSelector(`[data-testid=total] >> text=${amount}`, { timeout: 30_000 });
const search = (page: Page) => page.inputValue('[data-testid=search]');

describe('the scanner at the till', () => {
  it('starts the next sale with an item scanned while the sale-done dialog is open', async () => {
    await withTill(async (page) => {
      await page.keyboard.press('F9');
      await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
      await scan(page);
      await page.waitForSelector('[data-testid=sale-done]', { state: 'detached', timeout: 30_000 });
      await totalReads(page, '3,500');
      expect(await page.textContent('[data-testid=cart]')).toContain('Sukari Kilombero');
      expect(await search(page)).toBe('');
    });
  }, 180_000);

  it('leaves nothing in the search box when a scan starts right after the Enter that closed sale-done', async () => {
    await withTill(async (page) => {
      // A loaded machine: what the page puts off to a timer runs late, after a scan's first keys.
      await page.evaluate(() => {
        const real = window.setTimeout.bind(window);
        const late = (run: () => void, ms?: number) => real(run, Math.max(ms ?? 0, 100));
        window.setTimeout = late as typeof window.setTimeout;
      });
      for (let sale = 1; sale <= 3; sale++) {
        await page.keyboard.press('F9');
        await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
        await page.keyboard.press('Enter');
        await typeTimed(page, BARCODE.slice(0, 6), 5, { enter: false });
        // The rest of the scan once the search box has focus, as when focus reached it mid-scan.
        await page.waitForSelector('[data-testid=search]:focus', { timeout: 30_000 });
        await typeTimed(page, BARCODE.slice(6), 5, { continues: true });
        await totalReads(page, '3,500');
        expect(await search(page)).toBe('');
      }
    });
  }, 180_000);

  it('adds a scan a loaded machine split in two, and one whose last keys or Enter came late', async () => {
    await withTill(async (page) => {
      // The first eight digits, a pause past a scanner's gap, the last five and Enter.
      await typeTimed(page, BARCODE, (index) => (index === 8 ? 120 : 5));
      await totalReads(page, '7,000');
      expect(await search(page)).toBe('');
      // Ten digits, a pause, three (too few to be a scan alone) and Enter.
      await typeTimed(page, BARCODE, (index) => (index === 10 ? 120 : 5));
      await totalReads(page, '10,500');
      expect(await search(page)).toBe('');
      // A wireless scanner whose Enter came late, into the cash field of the payment dialog.
      await page.keyboard.press('F10');
      await page.waitForSelector('[data-testid=tender-dialog]', { timeout: 30_000 });
      await typeTimed(page, BARCODE, (index) => (index === BARCODE.length ? 250 : 5));
      await page.waitForSelector('[data-testid=remaining] >> text=14,000', { timeout: 30_000 });
      expect(await page.inputValue('[data-testid=cash-given]')).toBe('');
      expect(await page.isVisible('[data-testid=tender-dialog]')).toBe(true);
    });
  }, 180_000);

  it('keeps a scan out of the PIN and the opening float, and adds it to the sale to come', async () => {
    const { till, context } = await newTill(shop);
    try {
      const page = await context.newPage();
      await page.goto(till.pairing_url);
      await page.waitForFunction(pulledCount, 'products', { timeout: 30_000 });
      await page.waitForSelector('[data-testid=sign-in-screen] input:focus', { timeout: 30_000 });
      // On the PIN: not a wrong PIN, and nothing left in the field.
      await scan(page);
      await page.waitForSelector('.notice >> text=Ingia kwanza', { timeout: 30_000 });
      expect(await page.inputValue('[data-testid=sign-in-screen] input')).toBe('');
      await typeTimed(page, CASHIER_PIN, 150);
      await page.waitForSelector('[data-testid=open-shift-screen] input:focus', { timeout: 30_000 });
      // On the float, over what the cashier had counted so far; the scan a moment later.
      await typeTimed(page, '20', 150, { enter: false });
      await typeTimed(page, BARCODE, (index) => (index === 0 ? 800 : 5));
      await page.waitForSelector('.notice >> text=Sukari Kilombero', { timeout: 30_000 });
      expect(await page.inputValue('[data-testid=open-shift-screen] input')).toBe('20');
      expect(await page.isVisible('[data-testid=open-shift-screen]')).toBe(true);
      await typeTimed(page, '000', 150);
      await page.waitForSelector('[data-testid=sale-screen]', { timeout: 30_000 });
      await totalReads(page, '3,500');
      await page.keyboard.press('Alt+Z');
      await page.waitForSelector('[data-testid=shift-panel] >> text=20,000', { timeout: 30_000 });
    } finally {
      await context.close();
    }
  }, 180_000);

  it('shows the first sync’s progress on a till paired before its shop has cashiers, then the PIN pad', async () => {
    const merchant = await signUp(shop.server.url, { business_name: 'Duka Jipya' });
    const api = client(shop.server.url, merchant.keys.secretTest);
    const store = (await api.patch('/v1/retail/store', { name: 'Duka Jipya' })).body.id;
    const till = (await api.post('/v1/tills', { name: 'Kaunta 1', store })).body;
    const context = await shop.browser.newContext({ proxy: { server: shop.proxy.url } });
    try {
      const page = await context.newPage();
      await page.goto(till.pairing_url);
      const progress = await page.waitForSelector('[data-testid=first-sync-screen]', { timeout: 30_000 });
      await page.waitForSelector('[data-testid=first-sync-screen] li.step-arrived', { timeout: 30_000 });
      expect(await progress.textContent()).toContain('Wafanyakazi');
      expect(await page.$('[data-testid=sign-in-screen]')).toBeNull();
      // The shop takes on a cashier: the live stream brings them, and the PIN pad with them.
      const hired = await api.post('/v1/employees', {
        name: 'Asha',
        role: 'cashier',
        stores: [store],
        pin: '2468',
      });
      expect(hired.status).toBe(201);
      await page.waitForSelector('[data-testid=sign-in-screen] input:focus', { timeout: 30_000 });
      expect(await page.$('[data-testid=first-sync-screen]')).toBeNull();
      await typeTimed(page, '2468', 150);
      await page.waitForSelector('[data-testid=open-shift-screen]', { timeout: 30_000 });
    } finally {
      await context.close();
    }
  }, 180_000);

  it('adds a weighed item from its scale label with the weight it carries, and shows the stock left', async () => {
    // A scale printing "21 PPPPP WWWWW C": the store's default format, nothing to set.
    const beef = await shop.api.post('/v1/retail/products', {
      name: 'Nyama ya Ng’ombe',
      price: 12_000,
      unit: 'kg',
      plu: '00123',
      barcodes: ['6200000000777'],
    });
    expect(beef.status).toBe(201);
    await shop.api.post('/v1/retail/stock-adjustments', {
      product: beef.body.id,
      set_on_hand_milli: 1_000,
      reason: 'count',
    });
    const first12 = '210012301250';
    const label = first12 + String(ean13CheckDigit(first12));
    await withTill(async (page) => {
      // The till has the product once the label finds it.
      await scanUntilAdded(page, label, 'Nyama');
      // 1.250 kg at 12,000 a kg is 15,000, with the Sukari already in the cart.
      await totalReads(page, '18,500');
      const row = page.locator('[data-testid=cart] tr', { hasText: 'Nyama' });
      expect(await row.textContent()).toContain('1.250 kg');
      // 1 kg in stock, 1.250 kg in the cart: said, and the sale is not blocked.
      await page.waitForSelector('[data-testid=cart] .line-stock.short', { timeout: 30_000 });
      expect(await row.locator('.line-stock').textContent()).toMatch(/1\.000 kg/);
      expect(await search(page)).toBe('');
      // Its own barcode carries no weight: the weight is asked for.
      await scan(page, '6200000000777');
      await page.waitForSelector('[data-testid=quantity-dialog]', { timeout: 30_000 });
    });
  }, 180_000);
});
