/**
 * Screenshots of the real till: the server (PGlite), a small Tanzanian shop's
 * catalogue, a cashier and a manager, a till with a (virtual) receipt printer
 * on the local bridge, the till's browser build in Debian's Chromium. For each
 * language and counter size a new till is paired from its pairing URL, signs
 * in, opens a shift, scans a cart and sells, asks for a refund (the manager's
 * PIN); shows a product's variants and the help; then goes offline and sells 3;
 * back online it closes the shift (Z report). Last, a refund made offline of a
 * sale the office voided meanwhile comes back refused.
 * Offline is what a shop's till sees when its network goes: the page is told it
 * has no network (CDP `Network.overrideNetworkState`, kept while the page lives)
 * and the loopback proxy to the server is severed, while the printer bridge on
 * the same computer (not proxied) still prints.
 *   npx tsx test/browser/till-screens-real.ts [outDir]   (default scratch/till-screens-real)
 * With `--docs`, also writes the ones docs/TILL.md shows into docs/ (made
 * smaller with pngquant when it is installed).
 * SIZES=1366x768 and LANGS=sw narrow the run.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { startBridge, startVirtualPrinter } from '@tz/printers';
import { ensureWebBuild } from '../../apps/desktop/scripts/ensure-web-build.ts';
import { launchChromium } from '../support/browser.ts';
import { typeTimed } from '../support/keyboard.ts';
import { startLoopbackProxy } from '../support/loopback-proxy.ts';
import { client, eventually, signUp, startTestServer } from '../support/server.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const docs = args.includes('--docs');
const outDir = path.resolve(
  args.find((arg) => !arg.startsWith('--')) ?? path.join(repo, 'scratch/till-screens-real'),
);
const SIZES = [
  { name: '1366x768', width: 1366, height: 768 },
  { name: '1280x800', width: 1280, height: 800 },
  { name: '800x1280', width: 800, height: 1280 },
].filter((size) => !process.env.SIZES || process.env.SIZES.split(',').includes(size.name));
const LANGUAGES = ['sw', 'en'].filter(
  (lang) => !process.env.LANGS || process.env.LANGS.split(',').includes(lang),
);
/** The shots docs/TILL.md shows: shot → file under docs/. */
const DOCS = new Map([
  ['sale-sw-1366x768', 'till-sale-sw.png'],
  ['sale-en-1366x768', 'till-sale-en.png'],
  ['offline-sw-1366x768', 'till-offline-sw.png'],
  ['tender-en-1366x768', 'till-tender-en.png'],
  ['sale-sw-800x1280', 'till-sale-sw-tablet.png'],
  ['refund-sw-1280x800', 'till-refund-sw-tablet.png'],
  ['z-report-en-1366x768', 'till-z-report-en.png'],
  ['variant-en-1366x768', 'till-variant-en.png'],
  ['refused-sw-1366x768', 'till-refused-sw.png'],
]);
const CASHIER_PIN = '4821';

/** A corner shop's shelf: name, price in TZS, barcode. */
const CATALOGUE: Array<[string, number, string]> = [
  ['Sukari Kilombero 1kg', 3_500, '6201234500017'],
  ['Unga wa Sembe Azam 2kg', 4_800, '6201234500024'],
  ['Mchele Kyela 1kg', 3_200, '6201234500031'],
  ['Mafuta ya Kupikia Korie 1L', 6_500, '6201234500048'],
  ['Chumvi ya Mawe 500g', 700, '6201234500055'],
  ['Chai Bora 100g', 2_300, '6201234500062'],
  ['Maziwa Tanga Fresh 500ml', 1_500, '6201234500079'],
  ['Mkate wa Azam', 2_000, '6201234500086'],
  ['Sabuni ya Kipande Jamaa', 1_200, '6201234500093'],
  ['Omo Sabuni ya Unga 500g', 3_000, '6201234500109'],
  ['Dawa ya Meno Whitedent 100ml', 2_500, '6201234500116'],
  ['Maji ya Kilimanjaro 1.5L', 1_000, '6201234500123'],
  ['Coca-Cola 500ml', 1_000, '6201234500130'],
  ['Azam Embe Juisi 1L', 3_000, '6201234500147'],
  ['Biskuti Marie', 500, '6201234500154'],
  ['Kiberiti (pakiti 10)', 1_000, '6201234500161'],
  ['Mshumaa', 300, '6201234500178'],
  ['Betri Tiger AA (2)', 1_500, '6201234500185'],
  ['Vocha ya Vodacom 1,000', 1_000, '6201234500192'],
  ['Vocha ya Airtel 2,000', 2_000, '6201234500208'],
  ['Maharage Kilo 1', 3_800, '6201234500215'],
  ['Dagaa Mwanza 250g', 4_000, '6201234500222'],
  ['Nyanya ya Kopo Kimbo', 1_800, '6201234500239'],
  ['Tambi Santa Lucia 400g', 2_200, '6201234500246'],
  ['Karanga Zilizokaangwa 200g', 1_500, '6201234500253'],
  ['Mayai Trei (30)', 12_000, '6201234500260'],
  ['Blue Band 250g', 3_500, '6201234500277'],
  ['Pedi Always', 2_800, '6201234500284'],
  ['Pampers Diapers Kubwa (10)', 9_500, '6201234500291'],
  ['Mafuta ya Taa Lita 1', 3_300, '6201234500307'],
  ['Sigara Sportsman (pakiti)', 4_500, '6201234500314'],
  ['Mkaa Gunia Dogo', 15_000, '6201234500321'],
];
/** What the cashier scans for the shot of the sale screen: barcodes, one twice. */
const CART = [
  '6201234500017',
  '6201234500024',
  '6201234500048',
  '6201234500017',
  '6201234500079',
  '6201234500093',
];
/** A product sold only as one of its variants: its own barcode opens the picker. */
const JUICE = { name: 'Juisi ya Azam 1L', price: 3_000, barcode: '6201234500338' };
const JUICE_VARIANTS: Array<[string, number, string]> = [
  ['Embe', 3_000, '6201234500345'],
  ['Nanasi', 3_000, '6201234500352'],
  ['Machungwa na Karoti', 3_200, '6201234500369'],
  ['Pasheni', 3_000, '6201234500376'],
];
const OFFLINE_SALES = [['6201234500130'], ['6201234500154', '6201234500055'], ['6201234500062']];

await ensureWebBuild((line) => console.log(line));
const printer = await startVirtualPrinter({ port: 0 });
// A printer on this machine at an ephemeral port: allowed by the server's and the bridge's settings.
const server = await startTestServer({
  PRINTER_ALLOW_LOOPBACK: 'true',
  PRINTER_ALLOWED_PORTS: String(printer.port),
});
const bridge = await startBridge({
  port: 0,
  origins: [server.url],
  tuning: { allowance: printer.allowance },
});
const proxy = await startLoopbackProxy();
const browser = await launchChromium();
await mkdir(outDir, { recursive: true });

const merchant = await signUp(server.url, { business_name: 'Duka la Mama Neema' });
const api = client(server.url, merchant.keys.secretTest);
const store = (await api.patch('/v1/retail/store', { name: 'Duka Kuu Sinza', receipt_language: 'sw' })).body
  .id;
for (const [name, price, barcode] of CATALOGUE) {
  const product = await api.post('/v1/retail/products', { name, price, barcodes: [barcode] });
  if (product.status !== 201) throw new Error(`product ${name}: ${JSON.stringify(product.body)}`);
  await api.post('/v1/retail/stock-adjustments', {
    product: product.body.id,
    set_on_hand: 60,
    reason: 'count',
  });
}
const juice = await api.post('/v1/retail/products', {
  name: JUICE.name,
  price: JUICE.price,
  barcodes: [JUICE.barcode],
});
for (const [name, price, barcode] of JUICE_VARIANTS) {
  const variant = await api.post(`/v1/retail/products/${juice.body.id}/variants`, {
    name,
    price,
    barcodes: [barcode],
  });
  if (variant.status !== 201) throw new Error(`variant ${name}: ${JSON.stringify(variant.body)}`);
}
for (const [name, role, pin] of [
  ['Neema Mushi', 'cashier', CASHIER_PIN],
  ['Baraka Mwakyusa', 'manager', '987654'],
] as const) {
  const employee = await api.post('/v1/employees', { name, role, stores: [store], pin });
  if (employee.status !== 201) throw new Error(`employee ${name}: ${JSON.stringify(employee.body)}`);
}

let tills = 0;
async function pairedPage(size: (typeof SIZES)[number], language: string) {
  const till = (await api.post('/v1/tills', { name: `Kaunta ${++tills}`, store })).body;
  await api.post('/v1/printers', {
    till: till.id,
    name: 'Risiti',
    connection: printer.connection,
    paper_width: 80,
    command_set: 'epson',
  });
  const context = await browser.newContext({
    // The printer bridge runs on the till's own computer: a network cut does not reach it.
    proxy: { server: proxy.url, bypass: new URL(bridge.url).host },
    viewport: { width: size.width, height: size.height },
  });
  await context.addInitScript(
    ({ url, token, language }) => {
      localStorage.setItem('till.bridge', JSON.stringify({ url, token }));
      localStorage.setItem('till.language', language);
    },
    { url: bridge.url, token: bridge.token, language },
  );
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(size.name, language, error.stack ?? error.message));
  // Kept for the page's life: a detached session would drop the network state it set.
  const cdp = await context.newCDPSession(page);
  const network = async (up: boolean) => {
    if (up) proxy.restore();
    else proxy.sever();
    await cdp.send('Network.overrideNetworkState', {
      offline: !up,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  };
  return { till, context, page, network };
}

// A screenshot only: lets a transition or a focus ring finish drawing, which no selector marks.
const settle = (page: Page) => page.waitForTimeout(400);

async function scan(page: Page, barcode: string) {
  const before = await page.textContent('[data-testid=total]');
  // The catalogue arrives by pull replication; until then a scan says "not found".
  await eventually(async () => {
    await page.keyboard.press('Escape'); // clears what a scan read in two halves left in the search box
    await typeTimed(page, barcode, 5);
    return page
      .waitForFunction((was) => document.querySelector('[data-testid=total]')?.textContent !== was, before, {
        timeout: 3000,
      })
      .then(() => true)
      .catch(() => false);
  }, 30_000);
}

/** Enter on "sale complete" starts the next sale; scanning before the dialog has gone would type into it. */
async function newSale(page: Page) {
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=sale-done]', { state: 'detached', timeout: 10_000 });
}

async function sell(page: Page, barcodes: string[], cash?: string) {
  for (const barcode of barcodes) await scan(page, barcode);
  await page.keyboard.press('F10');
  await page.waitForSelector('[data-testid=cash-given]');
  if (cash) await page.fill('[data-testid=cash-given]', cash);
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=sale-done]', { timeout: 10_000 });
}

try {
  for (const size of SIZES) {
    for (const language of LANGUAGES) {
      const suffix = `${language}-${size.name}`;
      const shot = async (page: Page, screen: string) => {
        await settle(page);
        // Notices (item added…) go after a few seconds; the picture is of the screen under them.
        await page
          .waitForFunction(() => document.querySelectorAll('.notice').length === 0, null, { timeout: 8000 })
          .catch(() => undefined);
        const name = `${screen}-${suffix}`;
        await page.screenshot({ path: path.join(outDir, `${name}.png`) });
        const docsFile = DOCS.get(name);
        if (docs && docsFile) {
          const file = path.join(repo, 'docs', docsFile);
          await page.screenshot({ path: file });
          await promisify(execFile)('pngquant', [
            '--force',
            '--skip-if-larger',
            '--ext',
            '.png',
            '256',
            file,
          ]).catch((error: NodeJS.ErrnoException) => {
            if (error.code !== 'ENOENT') throw error;
          });
        }
      };
      const { till, context, page, network } = await pairedPage(size, language);
      try {
        // Pairing, as the device shows it before the link is opened.
        await page.goto(new URL('/till/', server.url).href);
        await page.waitForSelector('[data-testid=pair-screen]', { timeout: 30_000 });
        await shot(page, 'pair');
        await page.goto(till.pairing_url);
        await page.waitForSelector('[data-testid=sign-in-screen]', { timeout: 30_000 });
        // The shot shows the till online, with the PIN typed into its field.
        await page.waitForSelector('[data-testid=connection][data-state=online]', { timeout: 30_000 });
        await page.waitForFunction(
          () => document.activeElement?.closest('[data-testid=sign-in-screen]'),
          null,
          { timeout: 10_000 },
        );
        await typeTimed(page, '48', 150, { enter: false });
        await shot(page, 'sign-in');
        await page.keyboard.press('Backspace');
        await page.keyboard.press('Backspace');
        await eventually(async () => {
          await typeTimed(page, CASHIER_PIN, 150);
          return page
            .waitForSelector('[data-testid=open-shift-screen]', { timeout: 1000 })
            .then(() => true)
            .catch(() => false);
        }, 30_000);
        await typeTimed(page, '50000', 150, { enter: false });
        await shot(page, 'open-shift');
        await page.keyboard.press('Enter');
        await page.waitForSelector('[data-testid=sale-screen]', { timeout: 10_000 });

        for (const barcode of CART) await scan(page, barcode);
        await shot(page, 'sale');
        await page.keyboard.press('Escape');
        await typeTimed(page, JUICE.barcode, 5);
        await page.waitForSelector('[data-testid=variant-dialog] .variant-list', { timeout: 10_000 });
        await shot(page, 'variant');
        await page.keyboard.press('Escape');
        await page.waitForSelector('[data-testid=variant-dialog]', { state: 'detached', timeout: 10_000 });
        await page.keyboard.press('F10');
        await page.waitForSelector('[data-testid=cash-given]');
        await page.fill('[data-testid=cash-given]', '40000');
        await shot(page, 'tender');
        await page.keyboard.press('Enter');
        await page.waitForSelector('[data-testid=sale-done]', { timeout: 10_000 });
        // The receipt printed (or said why not).
        await page.waitForSelector('[data-testid=sale-done] p.message', { timeout: 30_000 });
        await shot(page, 'done');
        await newSale(page);

        await sell(page, ['6201234500260', '6201234500277'], '20000');
        await newSale(page);
        await page.waitForFunction(
          () => !document.querySelector('[data-testid=unsynced]')?.classList.contains('warn'),
          null,
          { timeout: 20_000 },
        );
        await page.keyboard.press('Alt+S');
        await shot(page, 'sales');
        // A refund of the first sale, waiting for the manager's PIN.
        await page.click('[data-testid=sales-panel] .sale-row:last-child .sale-open');
        await shot(page, 'sale-detail');
        await page.click('[data-testid=sale-detail] .sale-actions button:nth-child(2)');
        await page.waitForSelector('[data-testid=manager-action]');
        await typeTimed(page, '98', 150, { enter: false });
        await shot(page, 'refund');
        // The refund, the sale, the list.
        for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
        await page.keyboard.press('Alt+Z');
        await shot(page, 'shift');
        await page.keyboard.press('Escape');
        await page.keyboard.press('Alt+T');
        await shot(page, 'settings');
        await page.keyboard.press('Escape');
        await page.keyboard.press('F1');
        await shot(page, 'help');
        await page.keyboard.press('Escape');

        // Offline: the network goes, three sales are sold and wait to sync.
        await network(false);
        for (const barcodes of OFFLINE_SALES) {
          await sell(page, barcodes);
          await newSale(page);
        }
        await scan(page, '6201234500017');
        await scan(page, '6201234500123');
        await shot(page, 'offline-sale');
        await page.keyboard.press('Alt+S');
        await shot(page, 'offline');
        await page.keyboard.press('Escape');

        // Back online, the sales go up; the shift closes with the cash counted 500 short.
        await network(true);
        await page.waitForFunction(
          () => !document.querySelector('[data-testid=unsynced]')?.classList.contains('warn'),
          null,
          { timeout: 60_000 },
        );
        await page.keyboard.press('Escape'); // the search, and the cart with it, stay; the shift closes over it
        await page.keyboard.press('Alt+Z');
        const counted = page.locator('[data-testid=shift-panel] form').nth(1).locator('input');
        await counted.fill('90500');
        await counted.press('Enter');
        await page.waitForSelector('[data-testid=z-report]', { timeout: 20_000 });
        await shot(page, 'z-report');
        await page.keyboard.press('Escape');

        // Offline, the first sale is refunded on the till while the office voids it: back online, refused.
        await network(false);
        await page.keyboard.press('Alt+S');
        await page.click('[data-testid=sales-panel] .sale-row:last-child .sale-open');
        await page.click('[data-testid=sale-detail] .sale-actions button:nth-child(2)');
        await page.waitForSelector('[data-testid=manager-action]');
        await typeTimed(page, '987654', 150);
        await page.waitForSelector('[data-testid=manager-action]', { state: 'detached', timeout: 10_000 });
        await page.keyboard.press('Escape');
        await page.keyboard.press('Escape');
        const orders = (await api.get('/v1/orders?limit=100')).body.data as Array<{
          id: string;
          till: string | null;
          receipt_number: string;
        }>;
        const first = orders
          .filter((order) => order.till === till.id)
          .sort((a, b) => a.receipt_number.localeCompare(b.receipt_number))[0];
        if (!first) throw new Error('the till’s first sale is not on the server');
        const voided = await api.post(`/v1/orders/${first.id}/void`, { reason: 'Imefutwa ofisini' });
        if (voided.status !== 200) throw new Error(`void: ${JSON.stringify(voided.body)}`);
        await network(true);
        await page.waitForSelector('[data-testid=status-bar] .refused', { timeout: 60_000 });
        await shot(page, 'refused-bar');
        await page.keyboard.press('Alt+T');
        await page.waitForSelector('[data-testid=sync-section]');
        await shot(page, 'refused');
      } finally {
        proxy.restore();
        await context.close();
      }
      console.log(`${suffix} done`);
    }
  }
} finally {
  await browser.close();
  await proxy.close();
  await bridge.close();
  await printer.close();
  await server.close();
}
console.log(`screenshots in ${outDir}`);
