/**
 * The till in Debian's Chromium against the server on PostgreSQL, one run, one
 * machine, each result beside a floor measured in the same run and page.
 *
 * Setup: a merchant, a store, a cashier, a till, and BENCH_PRODUCTS products
 * bulk-inserted by SQL (real rows the change feed serves, one barcode each,
 * names "Sukari Kilombero 437g"). The server runs in this process.
 *
 * 1. First full sync: from opening the pairing URL until the till's IndexedDB
 *    products store (RxDB's Dexie database `rxdb-dexie-till--2--products`,
 *    a record per page of 1,000) holds every product. Floors: a bare keyset SELECT loop over the same rows
 *    in pages of 1,000 (what the server cannot go below), and IndexedDB alone
 *    in the same page: the stored product records read and put again, 1,000 a
 *    transaction, and the same documents as one record per 1,000.
 * 2. With the context offline (setOffline and a severed loopback proxy):
 *    BENCH_SALES sales through the UI, the first BENCH_CARTS of them with
 *    BENCH_LINES scanned lines, the rest with one, each closed by the sale-done
 *    dialog's Enter (no pointer in the page). Scan to line: the Enter that
 *    ends a scan (5 ms a key, a scanner's pace) to the cart row in the DOM and
 *    to the next animation frame, and to the task after that frame (its layout
 *    and paint done), all in the page's clock; and whether the line came in the
 *    first frame to begin after the Enter (by that frame's own start time).
 *    Floors: a key the page ignores (Shift) to the next frame; after everything else, the same
 *    scans into a bare page, and an Enter alone at a random moment of the
 *    frame into it (bench/support/scan-floor.ts). Local commit: F9 to
 *    [data-testid=sale-done] in the DOM. Floor: a bare IndexedDB put of a
 *    sale-sized document in a readwrite transaction, in the same page.
 * 3. Search (offline too): a word and a brand's initial ("sukari k"), and
 *    10-digit barcode prefixes, typed at a person's pace (120 ms a key); the
 *    last key to the last change of the results list and the frame after it
 *    (the till searches at each key; a key within 50 ms of the one before waits
 *    for the keys to pause, included). Floor: a bare IndexedDB getAll of 30
 *    documents.
 * 4. Push: back online, time until the server holds every order.
 * 5. Ready to sell: BENCH_RELOADS reloads of the synced till, from navigation
 *    start to the sale screen with the search box focused. Floor: the same
 *    page's DOMContentLoaded. Then the time the catalogue is back in memory
 *    (the `catalogue-in-memory` mark; a search before it waits for it). Reload
 *    to first scan answered: a barcode typed the instant the sale screen is
 *    ready, navigation start to its line in the DOM (answered from the
 *    catalogue snapshot when it comes before the catalogue is in memory).
 *    Each reload is followed by one with the snapshot removed from IndexedDB,
 *    where the scan waits for the catalogue as it did before the snapshot.
 * 6. Memory: the page's JS heap (CDP Performance.getMetrics JSHeapUsedSize)
 *    and, from /proc, the resident (VmRSS), proportional (Pss) and private
 *    (RssAnon + VmSwap) memory of the till page's renderer process (the one
 *    busy while the page spins) and of all renderer processes (with the
 *    spare ones Chromium keeps), after the sync and at the end; floor:
 *    about:blank measured the same way.
 * 7. Offline again, BENCH_MOUSE_CARTS carts of BENCH_LINES scans with the mouse
 *    resting over the cart: scan to line on screen, against the scans of 2.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/till.ts
 *
 * BENCH_PRODUCTS (default 100000), BENCH_SALES (default 1000), BENCH_CARTS (default 10),
 * BENCH_LINES (default 20), BENCH_SEARCHES (default 40), BENCH_RELOADS (default 5, each twice),
 * BENCH_MOUSE_CARTS (default 10).
 * BENCH_PROFILE=<dir> profiles every other sale (its scans and F9, left out of the timings) with
 * CDP Profiler and writes where the time went there. BENCH_SYNC_ONLY=1 stops after step 1 (and
 * the memory after it); BENCH_SALE_TIMES=<file> writes each sale's F9 time there, in order;
 * BENCH_DATABASE names the
 * scratch database (default bench_till), so runs on one PostgreSQL do not drop each other's.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { ensureWebBuild } from '../apps/desktop/scripts/ensure-web-build.ts';
import { startBenchServer } from './support/bench-server.ts';
import { launchChromium } from '../test/support/browser.ts';
import { typeTimed } from '../test/support/keyboard.ts';
import { startLoopbackProxy } from '../test/support/loopback-proxy.ts';
import { ProfileTally } from './support/cpu-profile.ts';
import { indexedDbFloor } from './support/indexeddb-floor.ts';
import { barePointerFloor, bareScanFloor } from './support/scan-floor.ts';
import { arm, recordKeys, timedScan, watched } from './support/page-watch.ts';
import { pageMemory, pageRenderer, type Memory } from './support/renderer-memory.ts';
import { tillDatabase, waitStored } from './support/stored-pages.ts';
import { benchDatabase, GOODS, machine, quantile, seedProducts, signUpMerchant } from './support/harness.ts';

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const productCount = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const saleCount = Number(process.env.BENCH_SALES ?? 1_000);
const cartCount = Number(process.env.BENCH_CARTS ?? 10);
const linesPerCart = Number(process.env.BENCH_LINES ?? 20);
const mouseCartCount = Number(process.env.BENCH_MOUSE_CARTS ?? 10);
const searchCount = Number(process.env.BENCH_SEARCHES ?? 40);
const reloadCount = Number(process.env.BENCH_RELOADS ?? 5);
const syncOnly = process.env.BENCH_SYNC_ONLY === '1';
/** A directory: every other sale (its scans and its F9) is profiled there and left out of the timings. */
const profileDir = process.env.BENCH_PROFILE;
/** Thrown to end a sync-only run early, through the cleanup below. */
class SyncOnly extends Error {}
const PIN = '4821';

const fmt = (n: number, digits = 1) => n.toLocaleString('en', { maximumFractionDigits: digits });
const stats = (values: number[]) => ({
  p50: quantile(values, 0.5),
  p99: quantile(values, 0.99),
  n: values.length,
});
const barcodeOf = (n: number) => `620${String(n).padStart(10, '0')}`;
const randomProduct = () => 1 + Math.floor(Math.random() * productCount);

/** In every page: when the till became ready to sell (the time of each key is `recordKeys`'). */
function installProbe() {
  const w = window as unknown as { benchReady: number | null };
  w.benchReady = null;
  // Ready to sell: the sale screen drawn with the search box focused.
  const check = () => {
    if (w.benchReady !== null) return;
    const search = document.querySelector('[data-testid=search]');
    if (search && document.activeElement === search) {
      w.benchReady = performance.now();
      observer.disconnect();
      clearInterval(timer);
    }
  };
  const observer = new MutationObserver(check);
  const timer = setInterval(check, 5);
  const start = () =>
    observer.observe(document.documentElement, { childList: true, subtree: true, attributes: true });
  if (document.documentElement) start();
  else document.addEventListener('DOMContentLoaded', start);
}

/** The till's catalogue snapshot record in IndexedDB (`kv`, `catalogue:snapshot`): whether it is there, or removed. */
function snapshotRecord(page: Page, action: 'get' | 'delete'): Promise<boolean> {
  return page.evaluate(
    ({ name, action }) =>
      new Promise<boolean>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error ?? new Error('IndexedDB did not open'));
        open.onsuccess = () => {
          const db = open.result;
          const store = db.transaction('docs', 'readwrite').objectStore('docs');
          const request =
            action === 'get' ? store.count('catalogue:snapshot') : store.delete('catalogue:snapshot');
          request.onsuccess = () => (db.close(), resolve(action === 'get' ? request.result === 1 : true));
          request.onerror = () => (db.close(), reject(request.error ?? new Error('IndexedDB failed')));
        };
      }),
    { name: 'rxdb-dexie-till--0--kv', action },
  );
}

async function pressKey(cdp: CDPSession, key: string, code: string, keyCode: number) {
  await cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', key, code, windowsVirtualKeyCode: keyCode });
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key, code, windowsVirtualKeyCode: keyCode });
}

const MEMORY_KINDS: Array<[keyof Memory, string]> = [
  ['rss', 'resident (VmRSS)'],
  ['pss', 'proportional (Pss)'],
  ['own', 'private (RssAnon + VmSwap)'],
];

const memoryText = (memory: Memory) =>
  `${fmt(memory.rss, 0)} MB resident, ${fmt(memory.pss, 0)} MB proportional, ${fmt(memory.own, 0)} MB private`;

/** Each scan's Enter to its line in the DOM, to its frame's callbacks, its frame's own start, and the task after the frame (ms). */
interface ScanTimes {
  dom: number[];
  frame: number[];
  began: number[];
  painted: number[];
}

const scanTimes = (): ScanTimes => ({ dom: [], frame: [], began: [], painted: [] });

function keepScan(times: ScanTimes, seen: Awaited<ReturnType<typeof watched>>): void {
  times.dom.push(seen.dom - seen.key);
  times.frame.push(seen.frame - seen.key);
  times.began.push(seen.began - seen.key);
  times.painted.push(seen.painted - seen.key);
}

async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Performance.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN) / 2 ** 20;
  } finally {
    await cdp.detach();
  }
}

const target = await benchDatabase(baseUrl, process.env.BENCH_DATABASE ?? 'bench_till');
const server = await startBenchServer(target.url, {
  HOST: '127.0.0.1',
  SANDBOX_SETTLE_MS: '3600000',
});
let browser: Browser | undefined;
let context: BrowserContext | undefined;
let seeder: pg.Client | undefined;
const proxy = await startLoopbackProxy();
try {
  await ensureWebBuild();
  const signup = await signUpMerchant(server.url, 'Duka la Bench');
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: signup.headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const store = (await api('PATCH', '/v1/retail/store', { name: 'Duka Kuu' })).id as string;
  await api('POST', '/v1/employees', { name: 'Neema', role: 'cashier', stores: [store], pin: PIN });

  // Its own connection: the server's pool has a statement timeout made for requests, not bulk inserts.
  const pool = new pg.Client({ connectionString: target.url });
  seeder = pool;
  await pool.connect();
  await pool.query('SET statement_timeout = 0');
  const seedStarted = performance.now();
  await seedProducts(pool, signup.id, productCount, { trackStock: false });
  await pool.query('VACUUM ANALYZE retail_products, retail_codes');
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  // Sync floor: a bare keyset loop over the same rows, pages of 1,000.
  const floorStarted = performance.now();
  let after = { seq: '-1', id: '' };
  let floorRows = 0;
  for (;;) {
    const { rows } = await pool.query<{ id: string; change_seq: string }>(
      `SELECT id, change_seq, name, description, sku, barcodes, price, currency, tax_rate, category_id, unit,
         track_stock, active, metadata, created_at, updated_at
       FROM retail_products WHERE merchant_id = $1 AND livemode = false AND (change_seq, id) > ($2, $3)
       ORDER BY change_seq, id LIMIT 1000`,
      [signup.id, after.seq, after.id],
    );
    if (rows.length === 0) break;
    floorRows += rows.length;
    after = { seq: rows.at(-1)!.change_seq, id: rows.at(-1)!.id };
  }
  const syncFloorMs = performance.now() - floorStarted;
  if (floorRows !== productCount) throw new Error(`floor read ${floorRows} rows`);

  browser = await launchChromium();
  // Chromium runs under this process; its renderers are found by walking down from here.
  const browserPid = process.pid;

  // Memory floor: about:blank, measured the same way.
  const blankContext = await browser.newContext();
  const blank = await blankContext.newPage();
  await blank.goto('about:blank');
  const blankHeap = await heapMb(blank);
  const blankMemory = pageMemory(browserPid, await pageRenderer(blank, browserPid));
  await blankContext.close();

  const till = (await api('POST', '/v1/tills', { name: 'Kaunta 1', store })) as { pairing_url: string };
  context = await browser.newContext({
    proxy: { server: proxy.url },
    viewport: { width: 1366, height: 768 },
  });
  // tsx names inner functions with esbuild's `__name`, which functions sent to the page need too.
  await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  await context.addInitScript(recordKeys);
  await context.addInitScript(installProbe);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  // 1. First full sync: pairing URL to every product in IndexedDB.
  const syncStarted = performance.now();
  await page.goto(till.pairing_url);
  const productsDatabase = tillDatabase('products');
  // Products are stored a page of 1,000 to a record: once the pages are all there, count the products in them.
  await waitStored(page, productsDatabase, productCount, { since: syncStarted });
  const syncMs = performance.now() - syncStarted;
  console.error(`synced ${productCount} products in ${fmt(syncMs / 1000)} s`);
  const syncedHeap = await heapMb(page);
  const tillPid = await pageRenderer(page, browserPid);
  const syncedMemory = pageMemory(browserPid, tillPid);
  const storeFloor = await indexedDbFloor(page, productsDatabase, productCount);
  if (syncOnly) {
    console.log(
      `First full sync of ${fmt(productCount, 0)} products: ${fmt(syncMs / 1000)} s; floor ${fmt(syncFloorMs / 1000, 2)} s; ` +
        `ratio ${(syncMs / syncFloorMs).toFixed(1)}×; IndexedDB floor ${fmt(storeFloor.records / 1000)} s ` +
        `(read and put ${fmt(productCount, 0)} records), ${fmt(storeFloor.pages / 1000, 2)} s as pages of 1,000; renderer heap ${fmt(syncedHeap)} MB; the page's renderer ${memoryText(syncedMemory.page)}; ` +
        `all renderers ${memoryText(syncedMemory.all)} (about:blank: heap ${fmt(blankHeap)} MB; ` +
        `its renderer ${memoryText(blankMemory.page)}; all ${memoryText(blankMemory.all)})`,
    );
    throw new SyncOnly();
  }

  // Sign in and open a shift (typed at a person's pace).
  await page.waitForSelector('[data-testid=sign-in-screen]', { timeout: 30_000 });
  for (let i = 0; ; i++) {
    await typeTimed(page, PIN, 150);
    const opened = await page
      .waitForSelector('[data-testid=open-shift-screen]', { timeout: 1000 })
      .then(() => true)
      .catch(() => false);
    if (opened) break;
    if (i > 30) throw new Error('sign-in never opened the shift screen');
  }
  await typeTimed(page, '20000', 150);
  await page.waitForSelector('[data-testid=search]', { timeout: 10_000 });

  // 2. Offline: scans and sales.
  const goOffline = async () => {
    await context!.setOffline(true);
    proxy.sever();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=connection]')?.textContent !== '',
      null,
      { timeout: 10_000 },
    );
  };
  await goOffline();
  const cdp = await context.newCDPSession(page);

  // Floors in the same page: a key the page ignores to the next frame; a bare IndexedDB put.
  // The key goes at a random moment of the frame, as a scan's Enter does: pressed straight
  // after the round trip that arms the watch, it landed at much the same moment each time.
  const frameFloor: number[] = [];
  for (let i = 0; i < 600; i++) {
    await page.evaluate(() => {
      const w = window as unknown as { benchWatch: Promise<{ dom: number; frame: number }> };
      w.benchWatch = new Promise((resolve) =>
        window.addEventListener(
          'keydown',
          () => {
            const dom = performance.now();
            requestAnimationFrame(() => resolve({ dom, frame: performance.now() }));
          },
          { once: true },
        ),
      );
    });
    await sleep(Math.random() * 17);
    await pressKey(cdp, 'Shift', 'ShiftLeft', 16);
    const seen = await watched(page, 'Shift');
    frameFloor.push(seen.frame - seen.key);
  }
  // The median time between frames: no key can wait longer than one of them for its frame.
  const frameInterval = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const times: number[] = [];
        const step = (now: number) => {
          times.push(now);
          if (times.length <= 120) requestAnimationFrame(step);
          else
            resolve(
              times
                .slice(1)
                .map((t, i) => t - times[i]!)
                .sort((a, b) => a - b)[60]!,
            );
        };
        requestAnimationFrame(step);
      }),
  );
  const idbPut = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('bench-floor', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('docs', { keyPath: 'id' });
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(new Error(String(open.error)));
    });
    const sale = (i: number) => ({
      id: `cmd_${i}`,
      type: 'sale',
      payload: {
        lines: Array.from({ length: 3 }, (_, n) => ({
          product: `prod_${n}`,
          quantity_milli: 1000,
          price: 3500,
        })),
        tenders: [{ method: 'cash', amount: 10500 }],
        receipt_number: `T01-${String(i).padStart(6, '0')}`,
        note: 'x'.repeat(1200),
      },
    });
    const put: number[] = [];
    const getAll: number[] = [];
    for (let i = 0; i < 300; i++) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('docs', 'readwrite');
        tx.objectStore('docs').put(sale(i));
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(new Error(String(tx.error)));
      });
      put.push(performance.now() - started);
    }
    for (let i = 0; i < 100; i++) {
      const started = performance.now();
      await new Promise<void>((resolve) => {
        const request = db
          .transaction('docs')
          .objectStore('docs')
          .getAll(IDBKeyRange.lowerBound(`cmd_${i}`), 30);
        request.onsuccess = () => resolve();
      });
      getAll.push(performance.now() - started);
    }
    db.close();
    indexedDB.deleteDatabase('bench-floor');
    return { put, getAll };
  });

  const scans = scanTimes();
  const commit: number[] = [];
  /** Scans a product not yet in this sale as its `line`th line, and watches for the line. */
  const scanLine = async (line: number, used: Set<number>) => {
    let n = randomProduct();
    while (used.has(n)) n = randomProduct();
    used.add(n);
    return timedScan(page, '[data-testid=cart] tbody tr', line, barcodeOf(n));
  };
  // By its Enter, as the dialog offers: the pointer never enters the page, as in the bare page's.
  const closeSaleDone = async () => {
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=sale-done]', { state: 'detached' });
    await page.waitForSelector('[data-testid=cart].empty');
  };
  const scanProfile = new ProfileTally('scan', profileDir ?? '');
  const saleProfile = new ProfileTally('sale', profileDir ?? '');
  const profiled = { scans: 0, sales: 0 };
  const salesStarted = performance.now();
  for (let sale = 0; sale < saleCount; sale++) {
    const lines = sale < cartCount ? linesPerCart : 1;
    const used = new Set<number>();
    const profiling = profileDir !== undefined && sale % 2 === 1;
    const maybeProfiled = <T>(tally: ProfileTally, work: () => Promise<T>) =>
      profiling ? tally.around(cdp, work) : work();
    for (let line = 1; line <= lines; line++) {
      const seen = await maybeProfiled(scanProfile, () => scanLine(line, used));
      if (profiling) profiled.scans += 1;
      else keepScan(scans, seen);
    }
    await arm(page, '[data-testid=sale-done]', 1);
    const done = await maybeProfiled(saleProfile, async () => {
      await pressKey(cdp, 'F9', 'F9', 120);
      return watched(page, 'F9');
    });
    if (profiling) profiled.sales += 1;
    else commit.push(done.dom - done.key);
    await closeSaleDone();
  }
  const salesSeconds = (performance.now() - salesStarted) / 1000;
  // Each sale's F9 to sale-done in order (ms), to see which sales make the tail.
  if (process.env.BENCH_SALE_TIMES) fs.writeFileSync(process.env.BENCH_SALE_TIMES, JSON.stringify(commit));
  console.error(`${saleCount} offline sales in ${fmt(salesSeconds)} s`);
  if (profileDir !== undefined) {
    scanProfile.write(profiled.scans);
    saleProfile.write(profiled.sales);
    console.error(`profiles of ${profiled.scans} scans and ${profiled.sales} sales in ${profileDir}`);
  }

  // 3. Search, typed at a person's pace: words, and barcode prefixes.
  const searchLast: number[] = [];
  const searchFrame: number[] = [];
  const searchMissed: string[] = [];
  for (let i = 0; i < searchCount; i++) {
    // The last key always changes the answer (an unchanged list would leave the DOM alone):
    // "sukari k" after "sukari ", a 10-digit barcode prefix after its 9 digits.
    const query =
      i % 2 === 0
        ? `${GOODS[(i / 2) % GOODS.length]!.toLowerCase()} ${'kmstpr'[Math.floor(Math.random() * 6)]}`
        : barcodeOf(Math.min(productCount, 1000 + Math.floor(Math.random() * (productCount - 999)))).slice(
            0,
            10,
          );
    await page.evaluate(() => {
      const w = window as unknown as { benchWatch: Promise<{ dom: number; frame: number }> };
      w.benchWatch = new Promise((resolve) => {
        let last = { dom: 0, frame: 0 };
        // Only changes of the result list count: another part of the screen changing within the
        // quiet time (the sync status) is not the search's answer.
        const inList = (node: Node) => {
          const element = node instanceof Element ? node : node.parentElement;
          return (
            !!element?.closest('[data-testid=results]') || !!element?.querySelector('[data-testid=results]')
          );
        };
        const observer = new MutationObserver((records) => {
          if (!document.querySelector('[data-testid=results] li')) return;
          if (!records.some((r) => inList(r.target) || [...r.addedNodes].some(inList))) return;
          const dom = performance.now();
          requestAnimationFrame(() => (last = { dom, frame: performance.now() }));
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        // Quiet for 2 s after the last key: the last change was the final query's answer.
        const wait = () => {
          const w2 = window as unknown as { benchKeys: Array<{ at: number }> };
          const lastKey = w2.benchKeys.at(-1)?.at ?? 0;
          if (performance.now() - Math.max(lastKey, last.dom) < 2000) return void setTimeout(wait, 100);
          observer.disconnect();
          resolve(last);
        };
        setTimeout(wait, 100);
      });
    });
    await typeTimed(page, query, 120, { enter: false });
    const lastChar = query.at(-1)!;
    const seen = await watched(page, lastChar);
    if (seen.dom <= seen.key) {
      searchMissed.push(query); // no change of the list within the quiet time after the last key
    } else {
      searchLast.push(seen.dom - seen.key);
      searchFrame.push(seen.frame - seen.key);
    }
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=results] li', { state: 'detached' });
  }

  // 4. Push: back online, until the server holds every order.
  const pushStarted = performance.now();
  proxy.restore();
  await context.setOffline(false);
  let orders = 0;
  while (orders < saleCount) {
    if (performance.now() - pushStarted > 600_000) throw new Error(`push stalled at ${orders}`);
    await sleep(100);
    orders = Number(
      (await pool.query(`SELECT count(*) FROM retail_orders WHERE merchant_id = $1`, [signup.id])).rows[0]
        .count,
    );
  }
  const pushMs = performance.now() - pushStarted;
  await page.waitForFunction(
    () => !document.querySelector('[data-testid=unsynced]')?.classList.contains('warn'),
    null,
    { timeout: 120_000 },
  );

  // 5. Ready to sell after a reload (synced, signed in, shift open).
  const ready: number[] = [];
  const loaded: number[] = [];
  const inMemoryAt: number[] = [];
  const firstScanAt: number[] = [];
  const firstScanWait: number[] = [];
  const firstScanEarly: boolean[] = [];
  const withoutAt: number[] = [];
  const withoutWait: number[] = [];
  for (let i = 0; i < reloadCount * 2; i++) {
    // Every other reload without the barcode snapshot (removed from IndexedDB): the scan then
    // waits for the catalogue, as it did before the snapshot. The till saves it again once built.
    const without = i % 2 === 1;
    if (without) await snapshotRecord(page, 'delete');
    else {
      const started = performance.now();
      while (!(await snapshotRecord(page, 'get'))) {
        if (performance.now() - started > 60_000) throw new Error('no catalogue snapshot saved');
        await sleep(100);
      }
    }
    await page.reload();
    await page.waitForFunction(
      () => (window as unknown as { benchReady: number | null }).benchReady !== null,
      null,
      {
        timeout: 30_000,
      },
    );
    const times = await page.evaluate(() => ({
      ready: (window as unknown as { benchReady: number }).benchReady,
      dcl: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
        .domContentLoadedEventEnd,
    }));
    ready.push(times.ready);
    loaded.push(times.dcl);
    // A scan typed the instant the sale screen is ready, before the catalogue is read back.
    const firstScan = await timedScan(page, '[data-testid=cart] tbody tr', 1, barcodeOf(randomProduct()));
    if (without) {
      withoutAt.push(firstScan.dom);
      withoutWait.push(firstScan.dom - firstScan.key);
    } else {
      firstScanAt.push(firstScan.dom);
      firstScanWait.push(firstScan.dom - firstScan.key);
      firstScanEarly.push(
        await page.evaluate(() => performance.getEntriesByName('catalogue-in-memory').length === 0),
      );
    }
    // The catalogue read back into memory (a search or scan before it waits for it).
    const inMemory = await page.waitForFunction(
      () => performance.getEntriesByName('catalogue-in-memory')[0]?.startTime ?? null,
      null,
      { timeout: 120_000, polling: 50 },
    );
    inMemoryAt.push(Number(await inMemory.jsonValue()));
    await page.keyboard.press('Delete');
    await page.waitForSelector('[data-testid=cart].empty');
  }

  const endHeap = await heapMb(page);
  const endMemory = pageMemory(browserPid, await pageRenderer(page, browserPid));

  // 7. Offline again, carts scanned with the mouse resting over the cart, as a cashier who also
  // uses a mouse leaves it. As a scan scrolls the cart under it, Chromium hit-tests the pointer
  // (and sends hover events when the row under it changes) at the start of the next frame, before
  // the frame's callbacks: work the bare page, with no pointer in it, does not have.
  await goOffline();
  const cart = (await page.locator('[data-testid=cart]').boundingBox())!;
  await page.mouse.move(cart.x + cart.width / 2, cart.y + cart.height * 0.75);
  const withMouse = scanTimes();
  for (let sale = 0; sale < mouseCartCount; sale++) {
    const used = new Set<number>();
    for (let line = 1; line <= linesPerCart; line++) keepScan(withMouse, await scanLine(line, used));
    await arm(page, '[data-testid=sale-done]', 1);
    await pressKey(cdp, 'F9', 'F9', 120);
    await watched(page, 'F9');
    await closeSaleDone();
  }

  // The scan's floor, in a context of its own (the till's adds the benchmark's probe to every
  // page), after everything else: run before the sales, it left F9's tail longer (p99 42 to 48 ms
  // against 29 ms without it, same code, same host).
  const floorContext = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const scanFloor = await bareScanFloor(floorContext, 300, () => barcodeOf(randomProduct()));
  const pointerFloor = await barePointerFloor(floorContext, 300, linesPerCart, () =>
    barcodeOf(randomProduct()),
  );
  await floorContext.close();
  // Each scan's Enter to line in the DOM, to the next frame and to its end (ms), in order, for the tail's shape.
  if (process.env.BENCH_SCAN_TIMES)
    fs.writeFileSync(
      process.env.BENCH_SCAN_TIMES,
      JSON.stringify({
        ...scans,
        withMouse,
        pointerFloor,
        floor: frameFloor,
        bare: scanFloor,
      }),
    );
  if (errors.length > 0) console.error('page errors:', errors);
  if (searchMissed.length > 0)
    console.error('searches with no list change after the last key:', searchMissed);
  console.error(
    'search, last key to results in the DOM (ms):',
    searchLast.map((ms) => Math.round(ms)).join(' '),
  );

  const row = (name: string, value: string, floorName: string, floor: string, ratio: number, goal: string) =>
    `| ${name} | ${value} | ${floorName} | ${floor} | ${ratio.toFixed(ratio < 0.1 ? 2 : 1)}× | ${goal} |`;
  const met = (ok: boolean) => (ok ? 'met' : '**not met**');
  const sd = stats(scans.dom);
  const sf = stats(scans.frame);
  const ff = stats(frameFloor);
  const bf = stats(scanFloor.frame);
  const bd = stats(scanFloor.dom);
  const bl = stats(scanFloor.lone);
  const sp = stats(scans.painted);
  const wm = stats(withMouse.frame);
  // How long after its own start the frame's callbacks ran.
  const pickup = (times: Pick<ScanTimes, 'frame' | 'began'>) =>
    stats(times.frame.map((ms, i) => ms - times.began[i]!));
  const sk = pickup(scans);
  const wk = pickup(withMouse);
  const pointerFrame = stats(pointerFloor.frame);
  const pointerPickup = pickup(pointerFloor);
  const bp = stats(scanFloor.painted);
  // The share of frames later than the goal: at 60 Hz a key that just missed one waits ~16.7 ms.
  const over16 = (times: number[]) =>
    `${fmt((100 * times.filter((ms) => ms > 16).length) / times.length)} % over 16 ms`;
  // A line in the first frame to begin after its Enter begins within one interval of it (0.5 ms for jitter).
  const laterFrame = (began: number[]) =>
    `${began.filter((ms) => ms > frameInterval + 0.5).length} of ${began.length}`;
  const cm = stats(commit);
  const pf = stats(idbPut.put);
  const sl = stats(searchLast);
  const sfr = stats(searchFrame);
  const gf = stats(idbPut.getAll);
  const rd = stats(ready);
  const dc = stats(loaded);
  const lines = [
    `Run ${new Date().toISOString()} on ${machine()}; PostgreSQL; ${fmt(productCount, 0)} products seeded in ${fmt(seedSeconds)} s; ${saleCount} offline sales through the UI in ${fmt(salesSeconds)} s.`,
    '',
    '| Measurement | Result | Floor | Floor result | Ratio | Goal |',
    '|---|---|---|---|---|---|',
    row(
      `First full sync of ${fmt(productCount, 0)} products (pairing URL to all in IndexedDB)`,
      `${fmt(syncMs / 1000)} s`,
      'bare keyset SELECT loop, pages of 1,000',
      `${fmt(syncFloorMs / 1000, 2)} s`,
      syncMs / syncFloorMs,
      `< 20 s: ${met(syncMs < 20_000)}`,
    ),
    row(
      'The same, against IndexedDB alone',
      `${fmt(syncMs / 1000)} s`,
      `bare IndexedDB: put the same products as ${fmt(Math.ceil(productCount / 1000), 0)} records of 1,000 (as the till stores them)`,
      `${fmt(storeFloor.pages / 1000, 2)} s`,
      syncMs / storeFloor.pages,
      '',
    ),
    row(
      'IndexedDB alone, a record per product instead (each id read first, 1,000 a transaction)',
      `${fmt(storeFloor.records / 1000)} s`,
      'records of 1,000 (above)',
      `${fmt(storeFloor.pages / 1000, 2)} s`,
      storeFloor.records / storeFloor.pages,
      '',
    ),
    row(
      `Scan to line in the DOM, p50 / p99 (${sd.n} scans)`,
      `${fmt(sd.p50)} / ${fmt(sd.p99)} ms`,
      '',
      '',
      NaN,
      '',
    ),
    row(
      `Scan to line on screen (next frame), p50 / p99 (${over16(scans.frame)})`,
      `${fmt(sf.p50)} / ${fmt(sf.p99)} ms`,
      `the same keys into a bare page's field, a line added at Enter (${bf.n} scans; in its DOM p50 / p99 ${fmt(bd.p50)} / ${fmt(bd.p99)} ms; ${over16(scanFloor.frame)})`,
      `${fmt(bf.p50)} / ${fmt(bf.p99)} ms`,
      sf.p99 / bf.p99,
      `p99 < 16 ms: ${met(sf.p99 < 16)}`,
    ),
    row(
      `The same with the mouse resting over the cart (${wm.n} scans, ${mouseCartCount} carts of ${linesPerCart}; ${over16(withMouse.frame)}); the frame's callbacks after its start, p50 / p99 ${fmt(wk.p50)} / ${fmt(wk.p99)} ms (without it ${fmt(sk.p50)} / ${fmt(sk.p99)} ms)`,
      `${fmt(wm.p50)} / ${fmt(wm.p99)} ms`,
      `the same keys into a bare page's list that scrolls, the mouse resting over it (${pointerFrame.n} scans, lists of ${linesPerCart}; ${over16(pointerFloor.frame)}; its callbacks after its frame's start p50 / p99 ${fmt(pointerPickup.p50)} / ${fmt(pointerPickup.p99)} ms)`,
      `${fmt(pointerFrame.p50)} / ${fmt(pointerFrame.p99)} ms`,
      wm.p99 / pointerFrame.p99,
      '',
    ),
    row(
      'Scan to the end of its frame (the task after it: its layout and paint are done), p50 / p99',
      `${fmt(sp.p50)} / ${fmt(sp.p99)} ms`,
      'the bare page, the same',
      `${fmt(bp.p50)} / ${fmt(bp.p99)} ms`,
      sp.p99 / bp.p99,
      '',
    ),
    row(
      `Scans whose line came in a later frame than the first to begin after the Enter (its frame began over one frame interval after the key)`,
      laterFrame(scans.began),
      'the bare page, the same',
      laterFrame(scanFloor.began),
      NaN,
      '',
    ),
    row(
      'The same scans on screen',
      `${fmt(sf.p99)} ms (p99)`,
      `the bare page: an Enter alone at a random moment of the frame, to the next frame, p50 / p99 (${bl.n} keys; ${over16(scanFloor.lone)})`,
      `${fmt(bl.p50)} / ${fmt(bl.p99)} ms`,
      sf.p99 / bl.p99,
      '',
    ),
    row(
      `A key the page ignores, at a random moment, to the next frame, p50 / p99 (${over16(frameFloor)})`,
      `${fmt(ff.p50)} / ${fmt(ff.p99)} ms`,
      'frame interval (median)',
      `${fmt(frameInterval)} ms`,
      ff.p99 / frameInterval,
      '',
    ),
    row(
      `Search, last key to results in the DOM, p50 / p99 (${sl.n} queries)`,
      `${fmt(sl.p50)} / ${fmt(sl.p99)} ms`,
      'bare IndexedDB getAll of 30',
      `${fmt(gf.p50)} / ${fmt(gf.p99)} ms`,
      sl.p99 / gf.p99,
      `p99 < 30 ms: ${met(sl.p99 < 30)}`,
    ),
    row(
      'Search, last key to results on screen, p50 / p99',
      `${fmt(sfr.p50)} / ${fmt(sfr.p99)} ms`,
      '',
      '',
      NaN,
      '',
    ),
    row(
      `Offline sale, F9 to sale-done, p50 / p99 (${cm.n} sales)`,
      `${fmt(cm.p50)} / ${fmt(cm.p99)} ms`,
      'bare IndexedDB readwrite put',
      `${fmt(pf.p50)} / ${fmt(pf.p99)} ms`,
      cm.p99 / pf.p99,
      `p99 < 50 ms: ${met(cm.p99 < 50)}`,
    ),
    row(
      `${saleCount} offline sales pushed (online to all orders on the server)`,
      `${fmt(pushMs / 1000)} s`,
      '',
      '',
      NaN,
      `< 30 s: ${met(pushMs < 30_000)}`,
    ),
    row(
      `Ready to sell after a reload, median / max (${rd.n} reloads)`,
      `${fmt(rd.p50, 0)} / ${fmt(Math.max(...ready), 0)} ms`,
      'DOMContentLoaded of the same page',
      `${fmt(dc.p50, 0)} / ${fmt(Math.max(...loaded), 0)} ms`,
      rd.p50 / dc.p50,
      `< 2 s: ${met(Math.max(...ready) < 2000)}`,
    ),
    row(
      'Catalogue in memory after a reload (navigation to built), median / max',
      `${fmt(stats(inMemoryAt).p50, 0)} / ${fmt(Math.max(...inMemoryAt), 0)} ms`,
      'ready to sell',
      `${fmt(rd.p50, 0)} ms`,
      stats(inMemoryAt).p50 / rd.p50,
      '',
    ),
    row(
      `Reload to first scan answered (navigation to line in the DOM, typed at ready), median / max; ${firstScanEarly.filter(Boolean).length} of ${firstScanEarly.length} before the catalogue was in memory`,
      `${fmt(stats(firstScanAt).p50, 0)} / ${fmt(Math.max(...firstScanAt), 0)} ms`,
      'ready to sell',
      `${fmt(rd.p50, 0)} ms`,
      stats(firstScanAt).p50 / rd.p50,
      `< 2 s: ${met(Math.max(...firstScanAt) < 2000)}`,
    ),
    row(
      'First scan after a reload, Enter to line in the DOM, median / max',
      `${fmt(stats(firstScanWait).p50, 0)} / ${fmt(Math.max(...firstScanWait), 0)} ms`,
      'scan to line, p50 (catalogue in memory)',
      `${fmt(sd.p50)} ms`,
      stats(firstScanWait).p50 / sd.p50,
      '',
    ),
    row(
      `The same without the snapshot (removed before the reload; the scan waits for the catalogue): reload to first scan answered, median / max (${withoutAt.length} reloads)`,
      `${fmt(stats(withoutAt).p50, 0)} / ${fmt(Math.max(...withoutAt), 0)} ms`,
      'with the snapshot',
      `${fmt(stats(firstScanAt).p50, 0)} ms`,
      stats(withoutAt).p50 / stats(firstScanAt).p50,
      '',
    ),
    row(
      'Without the snapshot: first scan, Enter to line in the DOM, median / max',
      `${fmt(stats(withoutWait).p50, 0)} / ${fmt(Math.max(...withoutWait), 0)} ms`,
      'with the snapshot',
      `${fmt(stats(firstScanWait).p50, 0)} ms`,
      stats(withoutWait).p50 / stats(firstScanWait).p50,
      '',
    ),
    row(
      'Renderer memory: JS heap after sync / at the end',
      `${fmt(syncedHeap)} / ${fmt(endHeap)} MB`,
      'about:blank',
      `${fmt(blankHeap)} MB`,
      endHeap / blankHeap,
      `< 300 MB: ${met(Math.max(syncedHeap, endHeap) < 300)}`,
    ),
    ...MEMORY_KINDS.flatMap(([kind, label]) =>
      (['page', 'all'] as const).map((part) => {
        const [synced, end, blank] = [syncedMemory, endMemory, blankMemory].map(
          (memory) => memory[part][kind],
        );
        return row(
          `${part === 'page' ? "The till page's renderer process" : 'All renderer processes'}, ${label}, after sync / at the end`,
          `${fmt(synced!, 0)} / ${fmt(end!, 0)} MB`,
          'about:blank',
          `${fmt(blank!, 0)} MB`,
          end! / blank!,
          `< 300 MB: ${met(Math.max(synced!, end!) < 300)}`,
        );
      }),
    ),
  ];
  console.log(lines.join('\n').replaceAll('| NaN× |', '| |'));
} catch (error) {
  if (!(error instanceof SyncOnly)) throw error;
} finally {
  await context?.close().catch(() => undefined);
  await seeder?.end().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await proxy.close();
  await server.close();
  if (!process.env.BENCH_KEEP_DATABASE) await target.drop();
}
