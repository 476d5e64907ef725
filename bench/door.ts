/**
 * The till's door in Debian's Chromium against the server on PostgreSQL, one
 * run, one machine: an event with 50,000 valid tickets (100 bought through
 * the API and paid on the hosted checkout's sandbox, the rest copied in SQL)
 * pulled onto the till, then, offline, tickets scanned at the door.
 *
 * - Offline verdict, scan to screen: a scanner's burst (5 ms a character) and
 *   its Enter, from the Enter's keydown (in the capture phase) to the verdict
 *   of that scan in the DOM, and to the next animation frame (on screen). The
 *   door writes its `ticket.checkin` report before it shows an admission.
 * - Floors in the same browser: a bare page whose Enter changes a line of
 *   text (keydown to DOM, to the next frame); an Ed25519 verify on Web Crypto
 *   (the signature check every verdict makes); and a bare IndexedDB put of a
 *   command-sized document in the till's page.
 * - The first sync, from an empty store: opening the pairing URL to every
 *   ticket in the till's IndexedDB (the door's pages of 1,000, `records` of
 *   the kind `tickets`), and on to the door counting every ticket on screen
 *   (sign-in and float typed meanwhile). Baseline in the same run: another
 *   merchant's till, in a fresh browser context, pulling as many catalogue
 *   products (the catalogue's pages), pairing URL to every product stored.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/door.ts
 *
 * BENCH_TICKETS (default 50000): valid tickets, and products of the baseline.
 * BENCH_SCANS (default 100): scans, each of a different ticket.
 */
import os from 'node:os';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { ensureWebBuild } from '../apps/desktop/scripts/ensure-web-build.ts';
import { launchChromium } from '../test/support/browser.ts';
import { typeTimed } from '../test/support/keyboard.ts';
import { startBenchServer } from './support/bench-server.ts';
import {
  benchDatabase,
  jsonCaller,
  progress,
  quantile,
  seedProducts,
  signUpMerchant,
  summary,
} from './support/harness.ts';
import { tillDatabase, waitStored } from './support/stored-pages.ts';

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TICKETS = Number(process.env.BENCH_TICKETS ?? 50_000);
const SCANS = Math.min(100, TICKETS, Number(process.env.BENCH_SCANS ?? 100));
const PIN = '4821';

await ensureWebBuild();
const database = await benchDatabase(baseUrl, 'bench_door');
const server = await startBenchServer(database.url);
const pool = new pg.Pool({ connectionString: database.url, max: 2 });
const browser = await launchChromium();
try {
  type Answer = Record<string, unknown> & { id: string };
  const callerFor = (headers: Record<string, string>) => {
    const call = jsonCaller(server.url, headers);
    return (method: string, path: string, body?: unknown) => call<Answer>(method, path, body);
  };
  const call = callerFor((await signUpMerchant(server.url, 'Bench Events')).headers);

  const store = (await call('PATCH', '/v1/retail/store', { name: 'Mlango' })).id;
  await call('POST', '/v1/employees', { name: 'Neema', role: 'cashier', stores: [store], pin: PIN });
  const now = Math.floor(Date.now() / 1000);
  const event = await call('POST', '/v1/events', {
    name: 'Sauti za Busara',
    venue: 'Ngome Kongwe',
    starts_at: now + 3600,
    ends_at: now + 6 * 3600,
    doors_open_at: now - 3600,
    capacity: TICKETS + 100,
  });
  const tier = await call('POST', `/v1/events/${event.id}/tiers`, {
    name: 'Uwanjani',
    price: 5_000,
    quantity: TICKETS + 100,
    per_order_limit: 100,
  });
  await call('PATCH', `/v1/events/${event.id}`, { status: 'published' });
  const ordered = await call('POST', '/v1/events/orders', {
    event: event.id,
    lines: [{ tier: tier.id, quantity: SCANS }],
    buyer: { name: 'Neema Mushi', phone: '0754000111' },
  });
  const paying = await fetch(`${server.url}/pay/${String(ordered.checkout)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone: '0700000001' }),
  });
  if (paying.status !== 201) throw new Error(`checkout: ${paying.status}`);
  type PaidOrder = { status: string; tickets: Array<{ id: string; code: string }> };
  const paidOrder = async (): Promise<PaidOrder> => {
    for (let i = 0; i < 600; i++) {
      const found = (await call('GET', `/v1/events/orders/${ordered.id}`)) as unknown as PaidOrder;
      if (found.status === 'paid') return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the order was never paid');
  };
  const paid = await paidOrder();
  const codes = paid.tickets.map((ticket) => ticket.code);
  // The rest of the 50,000: valid tickets of the same order, whose codes are never scanned here.
  await pool.query(
    `INSERT INTO event_tickets (id, merchant_id, livemode, event_id, tier_id, order_id, status, holder_name, code)
     SELECT 'tkt_bench' || lpad(k::text, 22, '0'), merchant_id, livemode, event_id, tier_id, order_id, 'valid',
       'Holder ' || k, NULL
     FROM event_tickets t, generate_series(1, $1) AS k WHERE t.id = $2`,
    [TICKETS - SCANS, paid.tickets[0]!.id],
  );
  progress(`seeded ${TICKETS} valid tickets`);
  // The baseline: a shop with as many products, and a till of its own.
  const shop = await signUpMerchant(server.url, 'Bench Shop');
  const shopCall = callerFor(shop.headers);
  const shopTill = await shopCall('POST', '/v1/tills', {
    name: 'Kaunta 1',
    store: (await shopCall('PATCH', '/v1/retail/store', { name: 'Duka' })).id,
  });
  await seedProducts(pool, shop.id, TICKETS, { trackStock: false });
  progress(`seeded ${TICKETS} products`);

  // The till: paired, signed in, its shift open, on the door with every ticket counted.
  const till = await call('POST', '/v1/tills', { name: 'Lango Kuu', store });
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  // Each Enter's keydown, stamped before the till's own listeners (its scanner stops the key there).
  await context.addInitScript({
    content: `addEventListener('keydown', (e) => { if (e.key === 'Enter') globalThis.benchEnter = performance.now(); }, true);`,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const synced = performance.now();
  await page.goto(String(till.pairing_url));
  await waitStored(page, tillDatabase('records'), TICKETS, { kind: 'tickets', since: synced });
  const storedMs = performance.now() - synced;
  progress(`${TICKETS} tickets stored ${(storedMs / 1000).toFixed(1)} s after pairing`);
  await page.waitForSelector('[data-testid=sign-in-screen]', { timeout: 300_000 });
  for (let i = 0; !(await page.$('[data-testid=open-shift-screen]')); i++) {
    if (i > 300) throw new Error('sign-in never opened the shift screen');
    const pad = await page.$('[data-testid=sign-in-screen] input');
    if (pad && (await pad.inputValue()) === '') await typeTimed(page, PIN, 150);
    await page.waitForSelector('[data-testid=open-shift-screen]', { timeout: 1000 }).catch(() => undefined);
  }
  await typeTimed(page, '20000', 150);
  await page.click('[data-testid=mode-door]', { timeout: 300_000 });
  await page.waitForFunction(
    (n) =>
      document.querySelector('[data-testid=door-remaining]')?.textContent?.replace(/\D/g, '') === String(n),
    TICKETS,
    { timeout: 600_000, polling: 500 },
  );
  const toDoorMs = performance.now() - synced;
  progress(`door with ${TICKETS} tickets on screen ${(toDoorMs / 1000).toFixed(1)} s after pairing`);

  // Offline from here: the door's own verdict at once.
  await context.setOffline(true);
  /** Stamps each Enter's keydown; resolves with the DOM and frame times of the next new verdict. */
  const watchVerdict = (target: Page) =>
    target.evaluate(() => {
      const w = window as unknown as {
        benchEnter: number;
        benchWatch: Promise<{ dom: number; frame: number }>;
      };
      if (!(w as { benchStamped?: boolean }).benchStamped) {
        (w as { benchStamped?: boolean }).benchStamped = true;
        window.addEventListener(
          'keydown',
          (e) => e.key === 'Enter' && (w.benchEnter = performance.now()),
          true,
        );
      }
      const before = document.querySelector('[data-testid=door-verdict]')?.getAttribute('data-scan') ?? '';
      w.benchWatch = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          const scan = document.querySelector('[data-testid=door-verdict]')?.getAttribute('data-scan') ?? '';
          if (scan === '' || scan === before) return;
          const dom = performance.now();
          observer.disconnect();
          requestAnimationFrame(() => resolve({ dom, frame: performance.now() }));
        });
        observer.observe(document.body, { childList: true, subtree: true, attributes: true });
      });
    });
  const watched = (target: Page) =>
    target.evaluate(async () => {
      const w = window as unknown as {
        benchEnter: number;
        benchWatch: Promise<{ dom: number; frame: number }>;
      };
      const seen = await w.benchWatch;
      return { dom: seen.dom - w.benchEnter, frame: seen.frame - w.benchEnter };
    });

  const scanDom: number[] = [];
  const scanFrame: number[] = [];
  const verdicts = new Map<string, number>();
  for (const code of codes) {
    await watchVerdict(page);
    await typeTimed(page, code, 5);
    const seen = await watched(page);
    scanDom.push(seen.dom);
    scanFrame.push(seen.frame);
    const verdict = (await page.getAttribute('[data-testid=door-verdict]', 'data-verdict')) ?? '';
    verdicts.set(verdict, (verdicts.get(verdict) ?? 0) + 1);
  }
  progress(`scanned ${codes.length}: ${JSON.stringify(Object.fromEntries(verdicts))}`);

  // Floor: a bare page whose Enter changes a line of text.
  const bare = await context.newPage();
  await bare.setContent(
    `<p data-testid="door-verdict" data-scan="">-</p><script>let n = 0; addEventListener('keydown', (e) => {
       if (e.key !== 'Enter') return; const p = document.querySelector('p'); n++;
       p.setAttribute('data-scan', 's' + n); p.textContent = 'Admit ' + n; });</script>`,
  );
  const floorDom: number[] = [];
  const floorFrame: number[] = [];
  for (const code of codes) {
    await watchVerdict(bare);
    await typeTimed(bare, code, 5);
    const seen = await watched(bare);
    floorDom.push(seen.dom);
    floorFrame.push(seen.frame);
  }
  // Floor of the signature check and of a durable write, in the till's page.
  const { verify, put } = await page.evaluate(async (count) => {
    const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
    const body = new Uint8Array(49).fill(7);
    const signature = await crypto.subtle.sign('Ed25519', pair.privateKey, body);
    const verifyTimes: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await crypto.subtle.verify('Ed25519', pair.publicKey, signature, body);
      verifyTimes.push(performance.now() - started);
    }
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('bench-put-floor');
      request.onupgradeneeded = () => request.result.createObjectStore('docs', { keyPath: 'id' });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB did not open'));
    });
    const putTimes: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const tx = db.transaction('docs', 'readwrite');
      tx.objectStore('docs').put({
        id: `cmd_${i}`,
        type: 'ticket.checkin',
        payload: { scan: `scn_${i}`, code: 'x'.repeat(151), door: 'Lango Kuu', at: i },
        status: 'pending',
        created_at: Date.now(),
      });
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error ?? new Error('put failed'));
      });
      putTimes.push(performance.now() - started);
    }
    db.close();
    return { verify: verifyTimes, put: putTimes };
  }, SCANS);

  // Baseline: as many catalogue products pulled into an empty store, in a context of their own.
  const shopContext = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const shopPage = await shopContext.newPage();
  const shopSynced = performance.now();
  await shopPage.goto(String(shopTill.pairing_url));
  await waitStored(shopPage, tillDatabase('products'), TICKETS, { since: shopSynced });
  const catalogueMs = performance.now() - shopSynced;
  await shopContext.close();

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const ratio = (values: number[], floor: number[]) =>
    (quantile(values, 0.99) / quantile(floor, 0.99)).toFixed(1);
  console.log(
    `\n${new Date().toISOString()} · ${os.cpus().length} × ${cpu} · load ${os.loadavg()[0]!.toFixed(1)} · Node ${process.version} · ${TICKETS} valid tickets on the door, ${codes.length} scanned offline (${JSON.stringify(Object.fromEntries(verdicts))})\n`,
  );
  console.log('| Scan to verdict, offline (ms) | p50 | p99 | max | p99 against the bare page |');
  console.log('| --- | --- | --- | --- | --- |');
  console.log(
    `| Door: Enter to the verdict in the DOM | ${summary(scanDom)} | ${ratio(scanDom, floorDom)}× |`,
  );
  console.log(
    `| Door: Enter to the next frame (on screen) | ${summary(scanFrame)} | ${ratio(scanFrame, floorFrame)}× |`,
  );
  console.log(`| Floor: bare page, Enter to DOM | ${summary(floorDom)} | 1× |`);
  console.log(`| Floor: bare page, Enter to the next frame | ${summary(floorFrame)} | 1× |`);
  console.log(`| Floor: an Ed25519 verify on Web Crypto | ${summary(verify)} | — |`);
  console.log(`| Floor: an IndexedDB put of a report, in the till's page | ${summary(put)} | — |`);
  console.log(`\n| First sync from an empty store, from opening the pairing URL (s) | ${TICKETS} |`);
  console.log('| --- | --- |');
  console.log(`| Door: every ticket stored (pages of 1,000) | ${(storedMs / 1000).toFixed(1)} |`);
  console.log(`| Door: counting every ticket on screen (sign-in, float) | ${(toDoorMs / 1000).toFixed(1)} |`);
  console.log(
    `| Baseline: as many products stored (the catalogue's pages) | ${(catalogueMs / 1000).toFixed(1)} |`,
  );
  if (errors.length > 0) console.log(`Page errors: ${errors.join('; ')}`);
} finally {
  await browser.close();
  await pool.end();
  await server.close();
  await database.drop();
}
