/**
 * Screenshots of the back office's pages in both languages, on a phone
 * (360 px) and a laptop (1366 px), over a real server with a day's sample
 * business:
 *   npx tsx test/browser/office-screens.ts [outDir]   (default scratch/office-screens)
 * SCREENS=home,tills and SIZES=360x740 pick some.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { ensureWebBuild } from '../../apps/desktop/scripts/ensure-web-build.ts';
import { launchChromium } from '../support/browser.ts';
import { officeSample } from '../support/office-sample.ts';
import { startTestServer } from '../support/server.ts';
import { signInInBrowser } from '../support/office.ts';
import { hospitalitySample } from '../support/hospitality-sample.ts';
import { eventsSample } from '../support/events-sample.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const outDir = path.resolve(process.argv[2] ?? path.join(repo, 'scratch/office-screens'));
const SIZES = [
  { name: '1366x768', width: 1366, height: 768 },
  { name: '360x740', width: 360, height: 740 },
].filter((size) => !process.env.SIZES || process.env.SIZES.split(',').includes(size.name));

const SCREENS: Record<string, { path: string; ready: string; then?: (page: Page) => Promise<void> }> = {
  'sign-in': { path: '/office/', ready: '[data-testid=sign-in]' },
  home: { path: '/office/', ready: '[data-testid=volume-TZS]' },
  'home-30': {
    path: '/office/',
    ready: '[data-testid=volume-TZS]',
    then: async (page) => {
      await page.click('[role=radiogroup] >> nth=1 >> [role=radio] >> nth=2');
      await page.waitForSelector('[data-testid=sales-by-day]');
    },
  },
  tills: { path: '/office/tills', ready: '[data-testid=till-list]' },
  pairing: {
    path: '/office/tills',
    ready: '[data-testid=till-name]',
    then: async (page) => {
      await page.fill('[data-testid=till-name]', 'Kaunta ya Mbele');
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid=pairing-qr]');
    },
  },
  settings: { path: '/office/settings', ready: '[data-testid=save-receipts]' },
  staff: { path: '/office/tills/staff', ready: '[data-testid=employee-list]' },
  'staff-pin': {
    path: '/office/tills/staff',
    ready: '[data-testid=employee-list]',
    then: async (page) => {
      await page.click('[data-testid=set-pin]');
      await page.waitForSelector('[data-testid=employee-pin]');
    },
  },
  printers: { path: '/office/tills/printers', ready: '[data-testid=job-list]' },
  'dev-keys': { path: '/office/developers/keys', ready: '[data-testid=key-list]' },
  'dev-key-secret': {
    path: '/office/developers/keys',
    ready: '[data-testid=key-list]',
    then: async (page) => {
      await page.fill('[data-testid=key-name]', 'Seva ya hesabu');
      await page.click('[data-testid=create-key]');
      await page.waitForSelector('[data-testid=secret]');
    },
  },
  'dev-webhooks': { path: '/office/developers/webhooks', ready: '[data-testid=endpoint-list]' },
  'dev-deliveries': { path: '/office/developers/deliveries', ready: '[data-testid=delivery-list]' },
  'dev-delivery': {
    path: '/office/developers/deliveries',
    ready: '[data-testid=delivery-list]',
    then: async (page) => {
      await page.click('[data-testid=delivery] a');
      await page.waitForSelector('[data-testid=delivery-id]');
    },
  },
  'dev-logs': { path: '/office/developers/logs', ready: '[data-testid=log-list]' },
  'dev-events': { path: '/office/developers/events', ready: '[data-testid=send-test-event]' },
  apps: { path: '/office/apps', ready: '[data-testid=app-list]' },
  'retail-products': { path: '/office/retail/products', ready: '[data-testid=product-list]' },
  'retail-product': {
    path: '/office/retail/products',
    ready: '[data-testid=product-list]',
    then: async (page) => {
      await page.click('[data-testid=product-row] a >> nth=0');
      await page.waitForSelector('[data-testid=product-form]');
      await page.click('[data-testid=add-variant]');
    },
  },
  'retail-import': {
    path: '/office/retail/import',
    ready: '[data-testid=import-file]',
    then: async (page) => {
      await page.setInputFiles('[data-testid=import-file]', {
        name: 'bidhaa.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('name,sku,price,unit\nChai,C1,12.5,box\n,C2,100,piece\nSoda,C1,1000,piece\n'),
      });
      await page.click('[data-testid=import-submit]');
      await page.waitForSelector('[data-testid=import-errors]');
    },
  },
  'retail-categories': { path: '/office/retail/categories', ready: '[data-testid=new-category]' },
  'retail-stores': { path: '/office/retail/stores', ready: '[data-testid=store-list]' },
  'retail-stock': {
    path: '/office/retail/stock',
    ready: '[data-testid=stock-level] >> nth=1',
    then: async (page) => {
      await page.waitForFunction(() => !document.querySelector('[data-testid=name-loading]'));
    },
  },
  'retail-reorder': {
    path: '/office/retail/stock',
    ready: '[data-testid=reorder-change]:not([disabled])',
    then: async (page) => {
      await page.click('[data-testid=reorder-change] >> nth=0');
      await page.waitForSelector('[data-testid=reorder-dialog]');
    },
  },
  'retail-orders': { path: '/office/retail/orders', ready: '[data-testid=order-list]' },
  'retail-shifts': { path: '/office/retail/shifts', ready: '[data-testid=retail] [aria-current=page]' },
  payments: { path: '/office/payments', ready: '[data-testid=payment-list]' },
  payment: {
    path: '/office/payments',
    ready: '[data-testid=payment-list]',
    then: async (page) => {
      await page.click('[data-testid=payment] >> nth=-1 >> a');
      await page.waitForSelector('[data-testid=ledger-lines]');
    },
  },
  refund: {
    path: '/office/payments/payments',
    ready: '[data-testid=payment-list]',
    then: async (page) => {
      await page.click('[data-testid=payment] >> nth=1 >> a');
      await page.click('[data-testid=refund]');
      await page.waitForSelector('[data-testid=refund-dialog]');
    },
  },
  balance: { path: '/office/payments/balance', ready: '[data-testid=transactions]' },
  payouts: {
    path: '/office/payments/payouts',
    ready: '[data-testid=payout-amount]',
    then: async (page) => {
      await page.fill('[data-testid=payout-amount]', '12,5OO');
      await page.fill('[data-testid=payout-phone]', '0712345678');
      await page.click('[data-testid=create-payout]');
      await page.waitForSelector('[role=alert]');
    },
  },
  customers: { path: '/office/payments/customers', ready: '[data-testid=customer-search]' },
  invoices: { path: '/office/payments/invoices', ready: '[data-testid=new-invoice]' },
  'invoice-new': { path: '/office/payments/invoices/new', ready: '[data-testid=invoice-form]' },
  subscriptions: { path: '/office/payments/subscriptions', ready: '[data-testid=tab-subscriptions]' },
  escrow: { path: '/office/payments/escrow', ready: '[data-testid=tab-escrow]' },
  'hosp-today': { path: '/office/hospitality', ready: '[data-testid=hospitality-today]' },
  'hosp-reservations': { path: '/office/hospitality/reservations', ready: '[data-testid=reservation-list]' },
  'hosp-new': {
    path: '/office/hospitality/reservations/new',
    ready: '[data-testid=check-availability]',
    then: async (page) => {
      await page.click('[data-testid=check-availability]');
      await page.click('[data-testid=choose-offer] >> nth=0');
      await page.waitForSelector('[data-testid=guest-form]');
    },
  },
  'hosp-reservation': {
    path: '/office/hospitality/reservations',
    ready: '[data-testid=reservation-list]',
    then: async (page) => {
      await page.click('[data-testid=reservation] a >> nth=0');
      await page.waitForSelector('[data-testid=stay-quote]');
    },
  },
  'hosp-calendar': { path: '/office/hospitality/calendar', ready: '[data-testid=calendar-stay]' },
  'hosp-room-types': { path: '/office/hospitality/room-types', ready: '[data-testid=room-type-list]' },
  'hosp-room-type': {
    path: '/office/hospitality/room-types',
    ready: '[data-testid=room-type-list]',
    then: async (page) => {
      await page.click('[data-testid=room-type] a >> nth=0');
      await page.waitForSelector('[data-testid=rates]');
    },
  },
  'hosp-rooms': { path: '/office/hospitality/rooms', ready: '[data-testid=room-list]' },
  'hosp-blackouts': { path: '/office/hospitality/blackouts', ready: '[data-testid=blackout-list]' },
  'hosp-property': { path: '/office/hospitality/property', ready: '[data-testid=property-form]' },
  'ev-events': { path: '/office/events', ready: '[data-testid=event-list]' },
  'ev-event': {
    path: '/office/events',
    ready: '[data-testid=event-list]',
    then: async (page) => {
      await page.click('[data-testid=event] a >> text=Sauti za Busara 2027');
      await page.waitForSelector('[data-testid=tier-chart]');
    },
  },
  'ev-cancel': {
    path: '/office/events',
    ready: '[data-testid=event-list]',
    then: async (page) => {
      await page.click('[data-testid=event] a >> text=Sauti za Busara 2027');
      await page.click('[data-testid=cancel-event]');
      await page.waitForSelector('[data-testid=event-move-dialog]');
    },
  },
  'ev-new': { path: '/office/events/events/new', ready: '[data-testid=event-form]' },
  'ev-orders': { path: '/office/events/orders', ready: '[data-testid=order-list]' },
  'ev-order': {
    path: '/office/events/orders',
    ready: '[data-testid=order-list]',
    then: async (page) => {
      await page.click('[data-testid=order] a');
      await page.waitForSelector('[data-testid=ticket-list]');
    },
  },
  'ev-checkins': { path: '/office/events/check-ins', ready: '[data-testid=double-admission]' },
  'ev-organizer': { path: '/office/events/organizer', ready: '[data-testid=organizer-form]' },
};
const chosen = Object.entries(SCREENS).filter(
  ([name]) => !process.env.SCREENS || process.env.SCREENS.split(',').includes(name),
);

await ensureWebBuild((line) => console.log(line), 'office');
const server = await startTestServer({ SANDBOX_SETTLE_MS: '0', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
const browser = await launchChromium();
try {
  const sample = await officeSample(server.url);
  // A receiver that is not there: its deliveries fail and wait for their next attempt.
  await sample.api.post('/v1/webhooks', {
    url: 'http://127.0.0.1:9/hooks',
    events: ['*'],
    description: 'Mfumo wa hesabu',
  });
  await sample.api.post('/v1/employees', {
    name: 'Asha Mohamedi',
    role: 'manager',
    stores: [sample.store.id],
    pin: '204816',
  });
  await sample.api.post('/v1/employees', {
    name: 'Juma Said',
    role: 'cashier',
    stores: [sample.store.id],
    pin: '4821',
  });
  const till = (await sample.api.get('/v1/tills?limit=10')).body.data.find(
    (one: any) => one.status !== 'revoked',
  );
  const printer = (
    await sample.api.post('/v1/printers', {
      till: till.id,
      name: 'Printa ya Kaunta',
      connection: 'tcp://192.168.1.50',
    })
  ).body;
  await sample.api.post('/v1/print', { printer: printer.id, text: 'Jaribio' });
  // Stock at the store: one item with a reorder level, one without.
  const products = (await sample.api.get('/v1/products?limit=2')).body.data;
  for (const [index, change] of [{ adjust_by: 40, reorder_level: 12 }, { adjust_by: 3 }].entries())
    await sample.api.post('/v1/retail/stock-adjustments', {
      product: products[index].id,
      reason: 'received',
      ...change,
    });
  await sample.api.post('/v1/webhook-events/test', { type: 'payment.succeeded', data: { id: 'pay_test' } });
  await hospitalitySample(sample.api);
  await eventsSample(server, sample.api);
  await mkdir(outDir, { recursive: true });
  for (const language of ['sw', 'en'] as const) {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      await context.addInitScript(`localStorage.setItem('office.language', '${language}')`);
      const page = await context.newPage();
      for (const [name, screen] of chosen) {
        if (name === 'sign-in') await context.clearCookies();
        else if ((await context.cookies()).length === 0)
          await signInInBrowser(page, server.url, sample.merchant);
        await page.goto(`${server.url}${screen.path}`);
        await page.waitForSelector(screen.ready, { timeout: 15_000 });
        await screen.then?.(page);
        const file = path.join(outDir, `${name}-${language}-${size.name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.log(file);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
