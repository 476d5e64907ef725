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
  settings: { path: '/office/settings', ready: '[data-testid=settings]' },
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
};
const chosen = Object.entries(SCREENS).filter(
  ([name]) => !process.env.SCREENS || process.env.SCREENS.split(',').includes(name),
);

await ensureWebBuild((line) => console.log(line), 'office');
const server = await startTestServer({ SANDBOX_SETTLE_MS: '0' });
const browser = await launchChromium();
try {
  const sample = await officeSample(server.url);
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
