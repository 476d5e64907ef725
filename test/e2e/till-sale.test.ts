/**
 * The till end to end, all real: the server (PGlite or PostgreSQL), the till's
 * browser build in Debian's Chromium, the local printer bridge and a virtual
 * network printer. A till is paired from its pairing URL, a cashier signs in
 * with a PIN, scans a barcode (typed keys and Enter) and completes the sale
 * with F9; the receipt is read back from the printer, the order from the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startBridge, startVirtualPrinter, type Bridge, type VirtualPrinter } from '@tz/printers';
import { ensureWebBuild } from '../../apps/desktop/scripts/ensure-web-build.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { launchChromium } from '../support/browser.ts';
import { typeTimed } from '../support/keyboard.ts';
import { startLoopbackProxy, type LoopbackProxy } from '../support/loopback-proxy.ts';
import { client, eventually, signUp, startTestServer } from '../support/server.ts';
import type { Api } from '../support/retail.ts';

let server: RunningServer;
let browser: Browser;
let proxy: LoopbackProxy;
let printer: VirtualPrinter;
let bridge: Bridge;
let api: Api;
let store: string;
const BARCODE = '6201234500017';

beforeAll(async () => {
  await ensureWebBuild();
  server = await startTestServer();
  printer = await startVirtualPrinter({ port: 0 });
  bridge = await startBridge({ port: 0, origins: [server.url] });
  browser = await launchChromium();
  proxy = await startLoopbackProxy();
  const merchant = await signUp(server.url, { business_name: 'Duka la Mama Neema' });
  api = client(server.url, merchant.keys.secretTest);
  store = (await api.patch('/v1/retail/store', { name: 'Duka Kuu', receipt_language: 'sw' })).body.id;
  const product = await api.post('/v1/retail/products', {
    name: 'Sukari Kilombero 1kg',
    price: 3500,
    barcodes: [BARCODE],
  });
  expect(product.status).toBe(201);
  await api.post('/v1/retail/stock-adjustments', {
    product: product.body.id,
    set_on_hand: 40,
    reason: 'count',
  });
  for (const [name, role, pin] of [
    ['Neema', 'cashier', '4821'],
    ['Baraka', 'manager', '9876'],
  ] as const) {
    expect((await api.post('/v1/employees', { name, role, stores: [store], pin })).status).toBe(201);
  }
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await bridge?.close();
  await printer?.close();
  await server?.close();
});

/** A till created on the server with this printer, and a browser context that knows the printer bridge. */
async function newTill(): Promise<{ till: { id: string; pairing_url: string }; context: BrowserContext }> {
  const till = (await api.post('/v1/tills', { name: 'Kaunta 1', store })).body;
  const created = await api.post('/v1/printers', {
    till: till.id,
    name: 'Risiti',
    connection: printer.connection,
    paper_width: 80,
    command_set: 'epson',
  });
  expect(created.status).toBe(201);
  const context = await browser.newContext({
    proxy: { server: proxy.url },
    viewport: { width: 1366, height: 768 },
  });
  await context.addInitScript(
    ({ url, token }) => localStorage.setItem('till.bridge', JSON.stringify({ url, token })),
    { url: bridge.url, token: bridge.token },
  );
  return { till, context };
}

async function signInAndOpenShift(page: Page) {
  await page.waitForSelector('[data-testid=sign-in-screen]', { timeout: 30_000 });
  // Until the first pull brings the cashiers, the till says so; the PIN then signs in.
  await eventually(async () => {
    await typeTimed(page, '4821', 150); // a person's pace: fast keys ended by Enter read as a scan
    return page
      .waitForSelector('[data-testid=open-shift-screen]', { timeout: 1000 })
      .then(() => true)
      .catch(() => false);
  }, 30_000);
  await typeTimed(page, '20000', 150);
  await page.waitForSelector('[data-testid=sale-screen]', { timeout: 10_000 });
}

describe('a sale at the till', () => {
  it('pairs from the pairing URL, sells a scanned item with F9 and prints the receipt through the bridge', async () => {
    const { till, context } = await newTill();
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(till.pairing_url);
      await signInAndOpenShift(page);
      // The catalogue arrives by pull replication: scan once it is there (a scan before says "not found").
      await eventually(async () => {
        if ((await page.textContent('[data-testid=cart]'))?.includes('Sukari Kilombero')) return true;
        await typeTimed(page, BARCODE, 5); // a scanner's pace
        await new Promise((resolve) => setTimeout(resolve, 500));
        return false;
      }, 20_000);
      expect(await page.textContent('[data-testid=total]')).toContain('3,500');
      await page.keyboard.press('F9');
      await page.waitForSelector('[data-testid=sale-done]', { timeout: 10_000 });

      const [receipt] = await printer.waitForJobs(1, 15_000);
      expect(receipt!.text).toContain('Sukari Kilombero');
      expect(receipt!.text).toContain('3,500');

      const orders = await eventually(async () => {
        const listed = await api.get(`/v1/orders?store=${store}`);
        return listed.body.data.length > 0 ? listed.body.data : undefined;
      }, 20_000);
      expect(orders).toHaveLength(1);
      expect(orders[0]).toMatchObject({ total: 3500, status: 'paid', flags: [] });
      expect(orders[0].receipt_number).toMatch(/^T\d{2}-\d{6}$/);
      // The status bar says so once the sale is synced (the page is in Swahili by default).
      await page.waitForFunction(
        () => !document.querySelector('[data-testid=unsynced]')?.classList.contains('warn'),
        null,
        { timeout: 20_000 },
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
