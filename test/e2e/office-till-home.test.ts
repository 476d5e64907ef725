/**
 * The back office and a till together, as an owner sets up a new counter: a
 * till made on the office's Tills page, its QR code read off the screen and
 * opened as the till's pairing link, a sale made on that till, and the sale on
 * the office's Home within seconds without reloading it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE, newTillContext, openTill, startTillShop, type TillShop } from '../support/till-e2e.ts';
import { openOffice, signInInBrowser } from '../support/office.ts';
import { decodeOnScreenQr } from '../support/qr.ts';
import { ensureWebBuild } from '../../apps/desktop/scripts/ensure-web-build.ts';

let shop: TillShop;

beforeAll(async () => {
  await ensureWebBuild(() => undefined, 'office');
  shop = await startTillShop();
}, 240_000);
afterAll(async () => {
  await shop?.close();
});

/** `TZS 3,500`, as Home shows an amount. */
const tzs = (amount: number) => `TZS ${amount.toLocaleString('en-US')}`;

describe('a till set up from the back office', () => {
  it('pairs by the QR code on the Tills page, sells, and the sale shows on Home', async () => {
    const office = await openOffice(shop.browser, 'en');
    const tillContext = await newTillContext(shop);
    try {
      const { page } = office;
      await signInInBrowser(page, shop.server.url, shop.merchant);
      await page.waitForSelector('[data-testid=sales-TZS]', { timeout: 30_000 });
      expect(await page.textContent('[data-testid=sales-TZS]')).toBe(tzs(0));

      // The owner makes the till on the Tills page and the counter reads its QR code.
      await page.click('[data-testid=nav-tills]');
      await page.fill('[data-testid=till-name]', 'Kaunta ya Mlangoni');
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid=pairing-qr]', { timeout: 30_000 });
      const pairingUrl = (await decodeOnScreenQr(page, '[data-testid=pairing-qr]')).text;
      expect(pairingUrl).toMatch(new RegExp(`^${shop.server.url}/till/\\?pair=`));
      await page.keyboard.press('Escape');
      await page.click('[data-testid=nav-home]');
      await page.waitForSelector('[data-testid=sales-TZS]', { timeout: 30_000 });

      // At the counter: paired by that link, the cashier signs in and sells one item for cash.
      const till = await openTill(tillContext, pairingUrl);
      await till.keyboard.press('F9');
      await till.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });

      // Home, left open, reads again by itself: the sale is there within seconds.
      await expect
        .poll(() => page.textContent('[data-testid=sales-TZS]'), { timeout: 45_000 })
        .toBe(tzs(PRICE));
      expect(await page.textContent('[data-testid=orders-TZS]')).toBe('1');
    } finally {
      await tillContext.close();
      await office.context.close();
    }
  }, 240_000);
});
