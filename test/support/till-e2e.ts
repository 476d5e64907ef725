/**
 * One shop for the till's end-to-end tests, all real: a server (PGlite or
 * PostgreSQL), Debian's Chromium through a loopback proxy a test can sever, the
 * local printer bridge and a virtual network printer; a merchant with a store,
 * a product with a barcode and stock, a cashier and a manager.
 */
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startBridge, startVirtualPrinter, type Bridge, type VirtualPrinter } from '@tz/printers';
import { ensureWebBuild } from '../../apps/desktop/scripts/ensure-web-build.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { launchChromium } from './browser.ts';
import { typeTimed } from './keyboard.ts';
import { startLoopbackProxy, type LoopbackProxy } from './loopback-proxy.ts';
import { client, eventually, signUp, startTestServer } from './server.ts';
import type { Api } from './retail.ts';

export const BARCODE = '6201234500017';
export const PRICE = 3500;
export const STOCK = 40;
export const CASHIER_PIN = '4821';
export const MANAGER_PIN = '987654';

export interface TillShop {
  server: RunningServer;
  browser: Browser;
  proxy: LoopbackProxy;
  printer: VirtualPrinter;
  bridge: Bridge;
  api: Api;
  /** The shop's owner: signs in to the back office with these. */
  merchant: { email: string; password: string };
  store: string;
  product: string;
  close(): Promise<void>;
}

export async function startTillShop(
  options: {
    env?: Record<string, string>;
    startServer?: (env: Record<string, string>) => Promise<RunningServer>;
  } = {},
): Promise<TillShop> {
  await ensureWebBuild();
  const printer = await startVirtualPrinter({ port: 0 });
  // The virtual printer is on this machine at an ephemeral port: the server's and the bridge's
  // settings allow exactly that, as a developer's would (docs/PRINTERS.md "Where a till may print").
  const server = await (options.startServer ?? startTestServer)({
    PRINTER_ALLOW_LOOPBACK: 'true',
    PRINTER_ALLOWED_PORTS: String(printer.port),
    ...options.env,
  });
  const bridge = await startBridge({
    port: 0,
    origins: [server.url],
    tuning: { allowance: printer.allowance },
  });
  const browser = await launchChromium();
  const proxy = await startLoopbackProxy();
  const merchant = await signUp(server.url, { business_name: 'Duka la Mama Neema' });
  const api = client(server.url, merchant.keys.secretTest);
  const store = (await api.patch('/v1/retail/store', { name: 'Duka Kuu', receipt_language: 'sw' })).body.id;
  const created = await api.post('/v1/retail/products', {
    name: 'Sukari Kilombero 1kg',
    price: PRICE,
    barcodes: [BARCODE],
  });
  expect(created.status).toBe(201);
  await api.post('/v1/retail/stock-adjustments', {
    product: created.body.id,
    set_on_hand: STOCK,
    reason: 'count',
  });
  for (const [name, role, pin] of [
    ['Neema', 'cashier', CASHIER_PIN],
    ['Baraka', 'manager', MANAGER_PIN],
  ] as const) {
    expect((await api.post('/v1/employees', { name, role, stores: [store], pin })).status).toBe(201);
  }
  return {
    server,
    browser,
    proxy,
    printer,
    bridge,
    api,
    merchant: { email: merchant.email, password: merchant.password },
    store,
    product: created.body.id,
    async close() {
      await browser.close();
      await proxy.close();
      await bridge.close();
      await printer.close();
      await server.close();
    },
  };
}

/** A till created on the server with the shop's printer, and a browser context that knows the printer bridge. */
export async function newTill(
  shop: TillShop,
  name = 'Kaunta 1',
): Promise<{ till: { id: string; pairing_url: string }; context: BrowserContext; printer: string }> {
  const till = (await shop.api.post('/v1/tills', { name, store: shop.store })).body;
  const created = await shop.api.post('/v1/printers', {
    till: till.id,
    name: 'Risiti',
    connection: shop.printer.connection,
    paper_width: 80,
    command_set: 'epson',
  });
  expect(created.status).toBe(201);
  return { till, context: await newTillContext(shop), printer: created.body.id };
}

/** A till's browser context: through the shop's severable proxy, at a counter's screen size, knowing the printer bridge. */
export async function newTillContext(shop: TillShop): Promise<BrowserContext> {
  const context = await shop.browser.newContext({
    proxy: { server: shop.proxy.url },
    viewport: { width: 1366, height: 768 },
  });
  await context.addInitScript(
    ({ url, token }) => localStorage.setItem('till.bridge', JSON.stringify({ url, token })),
    { url: shop.bridge.url, token: shop.bridge.token },
  );
  return context;
}

/** Signs the cashier in with the PIN at a person's pace and counts the opening float. */
export async function signInAndOpenShift(page: Page): Promise<void> {
  // Until the first pull brings the cashiers the till shows that sync's progress; the PIN pad then.
  await page.waitForFunction(pulledCount, 'employees', { timeout: 60_000 });
  // The pad may still be drawn again as the till settles, losing keys typed into it: the PIN is
  // typed again only into an empty pad (a refused PIN empties it too), never over one signing in.
  // A pad left holding part of a PIN (or a PIN whose Enter was lost) and not checking it is
  // emptied once it has stood so for a few seconds, so the PIN is typed whole again.
  let stuckSince: number | null = null;
  await eventually(
    async () => {
      // read in one step, since the pad may be drawn again (or signed in) between two reads
      const state = await page.evaluate(() => {
        if (document.querySelector('[data-testid=open-shift-screen]')) return 'signed-in';
        const pad = document.querySelector<HTMLInputElement>('[data-testid=sign-in-screen] input');
        if (!pad) return 'no-pad';
        // the pad takes the focus as it is drawn; one drawn while the page was busy may not have it
        if (document.activeElement !== pad) pad.focus();
        return pad.readOnly ? 'checking' : pad.value === '' ? 'empty' : 'holding';
      });
      if (state === 'signed-in') return true;
      if (state !== 'holding') stuckSince = null;
      // a person's pace: fast keys ended by Enter read as a scan
      if (state === 'empty') await typeTimed(page, CASHIER_PIN, 150);
      else if (state === 'holding') {
        stuckSince ??= Date.now();
        if (Date.now() - stuckSince > 3_000) {
          stuckSince = null;
          await page.fill('[data-testid=sign-in-screen] input', '', { timeout: 5_000 }).catch(() => {});
        }
      }
      return false;
    },
    60_000,
    'the cashier signed in',
  );
  await page.waitForSelector('[data-testid=open-shift-screen] input:focus', { timeout: 30_000 });
  await typeTimed(page, '20000', 150);
  await page.waitForSelector('[data-testid=sale-screen]', { timeout: 30_000 });
}

/** Pairs a fresh page from the pairing URL, signs in and waits for the catalogue to be on the till. */
export async function openTill(
  context: BrowserContext,
  pairingUrl: string,
  errors: string[] = [],
): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(pairingUrl);
  await signInAndOpenShift(page);
  // The till prints only to printers it has pulled: a sale before they arrive prints nothing.
  await page.waitForFunction(pulledCount, 'printers', { timeout: 60_000 });
  // The catalogue arrives by pull replication: scan once it is there (a scan before says "not found").
  await page.waitForFunction(pulledCount, 'products', { timeout: 60_000 });
  await scanUntilAdded(page, BARCODE, 'Sukari Kilombero');
  return page;
}

/**
 * Scans `code` until its line `name` is in the cart: a product the till has not pulled yet is
 * "not found", and is scanned again only after that answer, so it is never added twice.
 */
export async function scanUntilAdded(page: Page, code: string, name: string): Promise<void> {
  // Every notice the till shows, in order: a scan is answered by one ("added" or "not found").
  await page.evaluate(() => {
    const seen = window as unknown as { noticesShown?: string[] };
    if (seen.noticesShown) return;
    const shown: string[] = [];
    seen.noticesShown = shown;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof HTMLElement && node.classList.contains('notice')) shown.push(node.className);
    }).observe(document.body, { childList: true, subtree: true });
  });
  const inCart = () =>
    page.evaluate(
      (wanted) => document.querySelector('[data-testid=cart]')?.textContent?.includes(wanted) ?? false,
      name,
    );
  await eventually(
    async () => {
      if (await inCart()) return true;
      const before = await page.evaluate(
        () => (window as unknown as { noticesShown: string[] }).noticesShown.length,
      );
      await scan(page, code);
      await page.waitForFunction(
        (count) => (window as unknown as { noticesShown: string[] }).noticesShown.length > count,
        before,
        { timeout: 30_000 },
      );
      const answer = await page.evaluate(() =>
        (window as unknown as { noticesShown: string[] }).noticesShown.at(-1),
      );
      if (answer?.includes('error')) return false; // not found yet: scanned again
      await page.waitForFunction(
        (wanted) => document.querySelector('[data-testid=cart]')?.textContent?.includes(wanted),
        name,
        { timeout: 30_000 },
      );
      return true;
    },
    120_000,
    `${name} in the cart`,
  );
}

/** Whether the till's local store holds a document of `collection` (read from IndexedDB in the page). */
export async function pulledCount(collection: string): Promise<boolean> {
  const name = (await indexedDB.databases()).find((db) => db.name?.endsWith(`--${collection}`))?.name;
  if (!name) return false;
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB did not open'));
  });
  try {
    if (!db.objectStoreNames.contains('docs')) return false;
    return await new Promise<boolean>((resolve) => {
      const request = db.transaction('docs').objectStore('docs').count();
      request.onsuccess = () => resolve(request.result > 0);
      request.onerror = () => resolve(false);
    });
  } finally {
    db.close();
  }
}

/** The barcode at a scanner's pace. */
export const scan = (page: Page, code = BARCODE) => typeTimed(page, code, 5);

/** Waits until the till's status bar counts `count` changes waiting to sync (0: all synced). */
export async function waitForUnsynced(page: Page, count: number, timeoutMs = 30_000): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const element = document.querySelector('[data-testid=unsynced]');
      if (!element) return false;
      if (n === 0) return !element.classList.contains('warn');
      return (element.textContent ?? '').match(/\d+/)?.[0] === String(n);
    },
    count,
    { timeout: timeoutMs },
  );
}

/** Cuts the till's network both ways Chromium can be reached: `setOffline` and the proxy. */
export async function goOffline(shop: TillShop, context: BrowserContext): Promise<void> {
  shop.proxy.sever();
  await context.setOffline(true);
}

/**
 * The shop's internet goes down: the server is out of reach through the severed
 * proxy, while the printer bridge on the counter's own machine still answers
 * (the browser's offline flag would cut that too).
 */
export function loseInternet(shop: TillShop): void {
  shop.proxy.sever({ keep: [new URL(shop.bridge.url).host] });
}

export async function goOnline(shop: TillShop, context: BrowserContext): Promise<void> {
  shop.proxy.restore();
  await context.setOffline(false);
}
