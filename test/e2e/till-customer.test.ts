/**
 * A customer made at the till end to end, offline: the cashier adds a new
 * customer (a wrong number first, refused on the till with the reason), sells
 * to them, and back online the server holds the customer and the sale
 * recorded against them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typeTimed } from '../support/keyboard.ts';
import { eventually } from '../support/server.ts';
import {
  goOffline,
  goOnline,
  newTill,
  openTill,
  startTillShop,
  waitForUnsynced,
  type TillShop,
} from '../support/till-e2e.ts';

let shop: TillShop;

beforeAll(async () => {
  shop = await startTillShop();
}, 240_000);
afterAll(async () => {
  await shop?.close();
});

/** A person's pace: keys closer than a scanner's gap, ended by Enter, would read as a scan. */
const type = (page: Parameters<typeof typeTimed>[0], text: string) => typeTimed(page, text, 120);

describe('a customer made at the till', () => {
  it('is made offline, sold to, and reaches the server with the sale recorded against them', async () => {
    const { till, context } = await newTill(shop);
    try {
      const page = await openTill(context, till.pairing_url);
      await goOffline(shop, context);

      await page.keyboard.press('F3');
      await page.waitForSelector('[data-testid=customer-dialog] input:focus', { timeout: 30_000 });
      // Nobody by that name: Enter opens the new customer's form with the name in it, and the phone to fill.
      await type(page, 'Neema Joseph');
      await page.waitForSelector('[data-testid=customer-phone]:focus', { timeout: 30_000 });
      expect(await page.inputValue('[data-testid=customer-name]')).toBe('Neema Joseph');
      await type(page, '022 212 3456');
      const refusal = await page.waitForSelector('[data-testid=new-customer-form] .message', {
        timeout: 30_000,
      });
      expect(await refusal.textContent()).toMatch(/Tanzania/);
      await page.fill('[data-testid=customer-phone]', '');
      await type(page, '0713 456 789');
      await page.waitForSelector('[data-testid=customer-dialog]', { state: 'detached', timeout: 30_000 });
      const line = await page.waitForSelector('[data-testid=cart-customer]', { timeout: 30_000 });
      expect(await line.textContent()).toMatch(/Neema Joseph.*0713 456 789/);

      await page.keyboard.press('F9');
      await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
      await page.keyboard.press('Escape');
      await waitForUnsynced(page, 2);

      await goOnline(shop, context);
      await waitForUnsynced(page, 0, 60_000);
      const customers = await shop.api.get('/v1/customers?phone=255713456789');
      expect(customers.body.data).toEqual([
        expect.objectContaining({ name: 'Neema Joseph', phone: '255713456789', metadata: { till: till.id } }),
      ]);
      const order = await eventually(async () => {
        const listed = await shop.api.get(`/v1/orders?store=${shop.store}`);
        return listed.body.data.find((o: { till: string }) => o.till === till.id);
      }, 60_000);
      expect(order).toMatchObject({ customer: customers.body.data[0].id, flags: [] });
    } finally {
      await context.close();
    }
  }, 240_000);
});
