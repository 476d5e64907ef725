/**
 * A till revoked while it holds sales, end to end: two sales sold with the
 * network cut, the till revoked on the server, the network back. The till says
 * it was removed, the server's till shows the two as its backlog, the till's
 * export (a file downloaded from the page) is imported by the merchant and
 * each sale recorded once, flagged recovered; then the same browser is paired
 * as another till by opening that till's pairing URL.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { eventually } from '../support/server.ts';
import {
  goOffline,
  goOnline,
  newTill,
  openTill,
  scan,
  startTillShop,
  waitForUnsynced,
  type TillShop,
} from '../support/till-e2e.ts';

let shop: TillShop;

beforeAll(async () => {
  shop = await startTillShop();
}, 240_000);
afterAll(() => shop?.close());

async function sellInCash(page: Page): Promise<void> {
  await page.keyboard.press('F9');
  await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=sale-done]', { state: 'detached', timeout: 30_000 });
}

const ordersOf = async (till: string) =>
  (
    (await shop.api.get(`/v1/orders?store=${shop.store}&limit=100`)).body.data as Array<{
      id: string;
      till: string;
      flags: string[];
    }>
  ).filter((order) => order.till === till);

describe('a till revoked with unsynced sales', () => {
  it('reports them, exports them signed for the merchant to import once each, then pairs as another till', async () => {
    const { till, context } = await newTill(shop);
    try {
      const errors: string[] = [];
      const page = await openTill(context, till.pairing_url, errors);
      await waitForUnsynced(page, 0);

      await goOffline(shop, context);
      await sellInCash(page);
      await scan(page);
      await page.waitForFunction(() =>
        document.querySelector('[data-testid=total]')?.textContent?.includes('3,500'),
      );
      await sellInCash(page);
      await waitForUnsynced(page, 2, 10_000);

      expect((await shop.api.delete(`/v1/tills/${till.id}`)).body.status).toBe('revoked');
      await goOnline(shop, context);

      // The till says it was removed and offers the way out; the server knows what it holds.
      await page.waitForSelector('[data-testid=ended-screen][data-unsynced="2"]', { timeout: 60_000 });
      await eventually(
        async () => (await shop.api.get(`/v1/tills/${till.id}`)).body.backlog === 2 || undefined,
        30_000,
      );
      expect(await ordersOf(till.id)).toHaveLength(0);

      const downloading = page.waitForEvent('download', { timeout: 30_000 });
      await page.click('[data-testid=export-unsynced]');
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(new RegExp(`^${till.id}-unsynced-.*\\.json$`));
      const file = JSON.parse(await readFile(await download.path(), 'utf8'));
      expect(file).toMatchObject({ object: 'till_export', till: till.id });

      const imported = await shop.api.post(`/v1/tills/${till.id}/recover`, file);
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(imported.body).toMatchObject({ recovered: 2, already_applied: 0, refused: 0 });
      expect((await shop.api.post(`/v1/tills/${till.id}/recover`, file)).body).toMatchObject({
        recovered: 0,
        already_applied: 2,
      });
      const orders = await ordersOf(till.id);
      expect(orders).toHaveLength(2);
      expect(orders.every((order) => order.flags.includes('recovered'))).toBe(true);

      // Nothing is left on the till: it says so, and tells the server.
      await page.waitForSelector('[data-testid=ended-screen][data-unsynced="0"] [data-testid=pair-screen]', {
        timeout: 30_000,
      });
      await eventually(
        async () => (await shop.api.get(`/v1/tills/${till.id}`)).body.backlog === 0 || undefined,
        30_000,
      );

      // Another till's pairing URL, opened in the same browser, pairs it.
      const next = (await shop.api.post('/v1/tills', { name: 'Kaunta 2', store: shop.store })).body;
      await page.goto(next.pairing_url);
      await page.waitForSelector('[data-testid=sign-in-screen]', { timeout: 30_000 });
      await eventually(
        async () => (await shop.api.get(`/v1/tills/${next.id}`)).body.status === 'paired' || undefined,
        30_000,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);
});
