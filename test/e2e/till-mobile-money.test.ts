/**
 * Mobile money at the till end to end: online, a push to a sandbox number is
 * paid (in test mode within about a second) and completes the sale; offline
 * the tender is refused with the reason, and the cart stays to take in cash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typeTimed } from '../support/keyboard.ts';
import { eventually } from '../support/server.ts';
import { goOffline, newTill, openTill, startTillShop, type TillShop } from '../support/till-e2e.ts';

let shop: TillShop;
const SANDBOX_PAYS = '0700000001';

beforeAll(async () => {
  shop = await startTillShop();
}, 240_000);
afterAll(async () => {
  await shop?.close();
});

describe('mobile money at the till', () => {
  it('completes a sale paid by a sandbox number online, and refuses the tender with a reason offline', async () => {
    const { till, context } = await newTill(shop);
    try {
      const page = await openTill(context, till.pairing_url);
      await page.keyboard.press('F10');
      await page.waitForSelector('[data-testid=tender-dialog]', { timeout: 30_000 });
      await page.keyboard.press('Alt+2');
      await page.waitForSelector('input[type=tel]:focus', { timeout: 30_000 });
      await typeTimed(page, SANDBOX_PAYS, 150); // a person's pace, then Enter sends the push
      await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });

      const order = await eventually(async () => {
        const listed = await shop.api.get(`/v1/orders?store=${shop.store}`);
        return listed.body.data.find((o: { till: string }) => o.till === till.id);
      }, 60_000);
      expect(order).toMatchObject({ total: 3500, status: 'paid' });
      expect(order.tenders).toEqual([expect.objectContaining({ method: 'mobile_money', amount: 3500 })]);
      const payment = (await shop.api.get(`/v1/payments/${order.tenders[0].payment}`)).body;
      expect(payment).toMatchObject({ status: 'paid', amount: 3500 });

      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid=sale-done]', { state: 'detached', timeout: 30_000 });
      await typeTimed(page, '6201234500017', 5); // a scan
      await page.waitForFunction(
        () => document.querySelector('[data-testid=total]')?.textContent?.includes('3,500'),
        null,
        { timeout: 30_000 },
      );
      await goOffline(shop, context);
      await page.keyboard.press('F10');
      await page.waitForSelector('[data-testid=tender-dialog]', { timeout: 30_000 });
      await page.keyboard.press('Alt+2');
      const refusal = await page.waitForSelector('[data-testid=mobile-money-offline]', { timeout: 30_000 });
      expect(await refusal.textContent()).toMatch(/intaneti|internet/i);
      expect(await page.$('input[type=tel]')).toBeNull();
      // The sale is still there to take in cash.
      await page.keyboard.press('Alt+1');
      await page.keyboard.press('Escape');
      await page.keyboard.press('F9');
      await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
    } finally {
      await context.close();
    }
  }, 180_000);
});
