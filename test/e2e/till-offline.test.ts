/**
 * The till offline end to end: with the network cut (`setOffline` and a severed
 * loopback proxy) a cashier sells 20 sales, the page is reloaded in the middle
 * (the service worker serves it), a second tab of the same till stays open, and
 * the page is closed with its first push in flight and opened again. Back
 * online, the server holds exactly those 20 orders, once each; stock went down
 * by 20, and `order.created` reached a real webhook receiver once per order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { stockOf } from '../support/retail.ts';
import { eventually, until } from '../support/server.ts';
import {
  goOffline,
  goOnline,
  newTill,
  openTill,
  PRICE,
  scan,
  startTillShop,
  STOCK,
  waitForUnsynced,
  type TillShop,
} from '../support/till-e2e.ts';
import { startReceiver, startWebhookServer, type Receiver } from '../webhooks/support.ts';

let shop: TillShop;
let hook: Receiver;
const SALES = 20;

beforeAll(async () => {
  hook = await startReceiver();
  shop = await startTillShop({ startServer: (env) => startWebhookServer(env) });
  const created = await shop.api.post('/v1/webhooks', { url: hook.url, events: ['order.created'] });
  expect(created.status).toBe(201);
}, 240_000);
afterAll(async () => {
  await shop?.close();
  await hook?.close();
});

const totalShows = (page: Page, text: string) =>
  page.waitForFunction((t) => document.querySelector('[data-testid=total]')?.textContent?.includes(t), text, {
    timeout: 30_000,
  });

/** The cart holds one item: F9, then the next scan. */
/** Sales made in the second tab. */
const OTHER_TAB_SALES = new Set([6, 7, 15, 16]);

async function sellOne(page: Page, next: boolean): Promise<void> {
  await page.keyboard.press('F9');
  await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=sale-done]', { state: 'detached', timeout: 30_000 });
  if (!next) return;
  await scan(page);
  await totalShows(page, '3,500');
}

describe('the till offline', () => {
  it('sells 20 sales offline across a reload, a second tab and a page closed mid-push; the server gets each once', async () => {
    const { till, context } = await newTill(shop);
    try {
      const errors: string[] = [];
      let page = await openTill(context, till.pairing_url, errors);
      await waitForUnsynced(page, 0); // the opened shift is on the server
      const other = await context.newPage(); // a second tab of the same till
      await other.goto(new URL('/till/', shop.server.url).toString());
      await other.waitForSelector('[data-testid=unsynced]', { timeout: 30_000 });

      await goOffline(shop, context);
      for (let sold = 1; sold <= SALES; sold++) {
        // A few sales are made in the second tab, on the cart the first one scanned (and back):
        // the sale lock and the receipt numbers pass between the tabs.
        const tab = OTHER_TAB_SALES.has(sold) ? other : page;
        await totalShows(tab, '3,500');
        await sellOne(tab, sold < SALES);
        if (sold === SALES / 2) {
          // Reloaded the moment the scan shows, its cart write maybe not landed: the line is kept
          // (edit-journal.ts). The service worker serves the page with the network cut; the cart and the session stay.
          await page.reload();
          await page.waitForSelector('[data-testid=sale-screen]', { timeout: 30_000 });
          await totalShows(page, '3,500');
        }
      }
      await waitForUnsynced(page, SALES, 10_000);
      await page.keyboard.press('Alt+s');
      await page.waitForSelector('[data-testid=sales-panel]', { timeout: 30_000 });
      // Every sale shows in the Sales panel, waiting to sync.
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid=sales-panel] .sale-row.status-pending').length === n,
        SALES,
        { timeout: 30_000 },
      );
      await page.keyboard.press('Escape');
      expect((await shop.api.get(`/v1/orders?store=${shop.store}&limit=100`)).body.data).toHaveLength(0);

      // Back online, the first push is on its way when the tab that sent it (the till's leader) closes;
      // a page of the till opens again.
      const pushing = context.waitForEvent('request', {
        predicate: (request) => request.url().includes('sync.push'),
        timeout: 60_000,
      });
      await goOnline(shop, context);
      const pusher = (await pushing).frame().page();
      const pages = [page, other];
      await pusher.close();
      const survivor = pages.find((p) => p !== pusher)!;
      page = await context.newPage();
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(new URL('/till/', shop.server.url).toString());
      await page.waitForSelector('[data-testid=unsynced]', { timeout: 30_000 });

      const orders = await eventually(async () => {
        const listed = (await shop.api.get(`/v1/orders?store=${shop.store}&limit=100`)).body.data;
        return listed.length >= SALES ? listed : undefined;
      }, 60_000);
      await waitForUnsynced(page, 0, 60_000);
      await waitForUnsynced(survivor, 0, 60_000);
      // Nothing more arrives late. Proving it needs a moment: the closed tab's push may still be on its way.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const final = (await shop.api.get(`/v1/orders?store=${shop.store}&limit=100`)).body.data;
      expect(final).toHaveLength(SALES);
      expect(new Set(final.map((o: { client_order_id: string }) => o.client_order_id)).size).toBe(SALES);
      // Receipt numbers from both tabs: each once, none skipped.
      const numbers = final.map((o: { receipt_number: string }) => o.receipt_number).sort();
      const prefix = numbers[0]!.split('-')[0]!;
      expect(numbers).toEqual(
        Array.from({ length: SALES }, (_, i) => `${prefix}-${String(i + 1).padStart(6, '0')}`),
      );
      expect(
        orders.every((o: { total: number; till: string }) => o.total === PRICE && o.till === till.id),
      ).toBe(true);
      expect((await stockOf(shop.api, shop.store, shop.product)).on_hand_milli).toBe((STOCK - SALES) * 1000);

      const ids = final.map((o: { id: string }) => o.id).sort();
      const deliveredIds = () => hook.ofType('order.created').map((r) => r.json.data.object.id as string);
      await until(() => new Set(deliveredIds()).size >= SALES, 60_000);
      // Every delivery settled, none left to send: a second one would have been sent by now.
      await eventually(
        async () => (await shop.api.get('/v1/webhook-deliveries?status=pending')).body.data.length === 0,
        60_000,
        'no delivery pending',
      );
      const perOrder = new Map<string, number>();
      for (const id of deliveredIds()) perOrder.set(id, (perOrder.get(id) ?? 0) + 1);
      expect([...perOrder.keys()].sort()).toEqual(ids);
      expect([...perOrder.values()].every((count) => count === 1)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);
});
