/**
 * The till end to end, all real: the server (PGlite or PostgreSQL), the till's
 * browser build in Debian's Chromium, the local printer bridge and a virtual
 * network printer. A till is paired from its pairing URL, a cashier signs in
 * with a PIN, scans a barcode (typed keys and Enter) and completes the sale
 * with F9; the receipt is read back from the printer, the order from the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typeTimed } from '../support/keyboard.ts';
import { eventually } from '../support/server.ts';
import {
  BARCODE,
  PRICE,
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
afterAll(async () => {
  await shop?.close();
});

const ordersOf = (till: string) =>
  eventually(async () => {
    const listed = await shop.api.get(`/v1/orders?store=${shop.store}&limit=100`);
    const mine = listed.body.data.filter((order: { till?: string }) => order.till === till);
    return mine.length > 0 ? mine : undefined;
  }, 60_000);

describe('a sale at the till', () => {
  it('pairs from the pairing URL, sells a scanned item with F9 and prints the receipt through the bridge', async () => {
    const { till, context } = await newTill(shop);
    try {
      const errors: string[] = [];
      const page = await openTill(context, till.pairing_url, errors);
      expect(await page.textContent('[data-testid=total]')).toContain('3,500');
      await page.keyboard.press('F9');
      await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });

      const [receipt] = await shop.printer.waitForJobs(1, 30_000);
      expect(receipt!.text).toContain('Sukari Kilombero');
      expect(receipt!.text).toContain('3,500');

      const orders = await ordersOf(till.id);
      expect(orders).toHaveLength(1);
      expect(orders[0]).toMatchObject({ total: 3500, status: 'paid', flags: [] });
      expect(orders[0].receipt_number).toMatch(/^T\d{2}-\d{6}$/);
      // The status bar says so once the sale is synced (the page is in Swahili by default).
      await waitForUnsynced(page, 0, 20_000);
      // The shift panel (Alt+Z) reads the shift's sales itself: the float of 20,000 and the sale.
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid=sale-done]', { state: 'detached' });
      await page.keyboard.press('Alt+Z');
      await page.waitForSelector('[data-testid=shift-panel] >> text=23,500', { timeout: 30_000 });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('completes with F9 after the same barcode is scanned twice (quantity 2)', async () => {
    const { till, context } = await newTill(shop);
    try {
      const page = await openTill(context, till.pairing_url);
      await page.keyboard.press('Delete'); // the empty cart, then two scans back to back and F9 at once
      await page.waitForSelector('[data-testid=cart] >> text=Sukari Kilombero', {
        state: 'detached',
        timeout: 30_000,
      });
      await scan(page);
      await typeTimed(page, BARCODE, 5, { then: 'F9' });
      await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
      const orders = await ordersOf(till.id);
      expect(orders).toHaveLength(1);
      expect(orders[0]).toMatchObject({ total: 7000, status: 'paid' });
    } finally {
      await context.close();
    }
  }, 180_000);

  it('keeps a scanned line through a reload the instant it shows, once, and sells it', async () => {
    const { till, context } = await newTill(shop);
    try {
      const errors: string[] = [];
      const page = await openTill(context, till.pairing_url, errors);
      await page.keyboard.press('Delete');
      await page.waitForSelector('[data-testid=cart].empty', { timeout: 30_000 });
      // The page reloads itself the moment the scanned line is in the DOM, before its cart write can land.
      await page.evaluate(() => {
        const observer = new MutationObserver(() => {
          if (!document.querySelector('[data-testid=cart] tbody tr')) return;
          observer.disconnect();
          sessionStorage.setItem('reloaded-at-line', String(performance.now()));
          location.reload();
        });
        observer.observe(document.body, { childList: true, subtree: true });
      });
      const reloaded = page.waitForEvent('framenavigated', { timeout: 30_000 });
      await scan(page);
      await reloaded;
      await page.waitForSelector('[data-testid=sale-screen]', { timeout: 30_000 });
      expect(await page.evaluate(() => sessionStorage.getItem('reloaded-at-line'))).not.toBeNull();
      await page.waitForSelector('[data-testid=cart] >> text=Sukari Kilombero', { timeout: 30_000 });
      // Written once: when the edits kept across the reload have all landed, it is one piece (and the
      // sale below is of one).
      await page.waitForFunction(
        () => !Object.keys(localStorage).some((key) => key.startsWith('till.edit:')),
        null,
        { timeout: 30_000 },
      );
      expect(await page.$$eval('[data-testid=cart] tbody tr', (rows) => rows.length)).toBe(1);
      expect(await page.textContent('[data-testid=total]')).toContain('3,500');
      await page.keyboard.press('F9');
      await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
      const orders = await ordersOf(till.id);
      expect(orders).toHaveLength(1);
      expect(orders[0]).toMatchObject({ total: PRICE, status: 'paid' });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('sells a product with variants only as one of them: picked from the search, or scanned', async () => {
    const kanga = await shop.api.post('/v1/retail/products', {
      name: 'Kanga',
      price: 12_000,
      barcodes: ['6209990000001'],
      track_stock: false,
      variants: [
        { name: 'Nyekundu', barcodes: ['6209990000011'], price: 12_500 },
        { name: 'Bluu', barcodes: ['6209990000012'], price: 13_000 },
      ],
    });
    expect(kanga.status).toBe(201);
    const { till, context } = await newTill(shop);
    try {
      const page = await openTill(context, till.pairing_url);
      // Searching the product offers its variants, never the product itself.
      await typeTimed(page, 'kanga', 150, { enter: false });
      await page.waitForSelector('[data-testid=results] >> text=Kanga', { timeout: 30_000 });
      await page.keyboard.press('Enter');
      const picker = await page.waitForSelector('[data-testid=variant-dialog]', { timeout: 30_000 });
      expect(await picker.$$eval('[role=option]', (rows) => rows.map((row) => row.textContent))).toEqual([
        expect.stringContaining('Bluu'),
        expect.stringContaining('Nyekundu'),
      ]);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid=cart] >> text=Kanga Nyekundu', { timeout: 30_000 });
      // The pick closes the chooser, and typing goes to the search box again.
      await page.waitForSelector('[data-testid=variant-dialog]', { state: 'detached', timeout: 30_000 });
      await page.waitForSelector('[data-testid=search]:focus', { timeout: 30_000 });
      // The product's own barcode opens the picker too; a variant's barcode adds that variant.
      await scan(page, '6209990000001');
      await page.waitForSelector('[data-testid=variant-dialog]', { timeout: 30_000 });
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid=variant-dialog]', { state: 'detached' });
      await scan(page, '6209990000012');
      await page.waitForSelector('[data-testid=cart] >> text=Kanga Bluu', { timeout: 30_000 });
      await page.keyboard.press('F9');
      await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });

      const [order] = await ordersOf(till.id);
      expect(order).toMatchObject({ total: PRICE + 12_500 + 13_000, flags: [] });
      const variants = kanga.body.variants as Array<{ id: string; name: string }>;
      const idOf = (name: string) => variants.find((variant) => variant.name === name)!.id;
      expect(order.lines.map((line: { variant: string | null }) => line.variant)).toEqual([
        null,
        idOf('Nyekundu'),
        idOf('Bluu'),
      ]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
