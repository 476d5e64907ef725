/**
 * The back office in Chromium over a real server, in Swahili and English:
 * signing in with Enter, Home's numbers equal to the API's, the test/live
 * switch, a new till's QR code decoding to its pairing link, revoking, the
 * cookie's rules as a browser meets them (HttpOnly, a write from another
 * origin refused, signed out everywhere), and axe-core's check of each page.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureWebBuild } from '../../apps/desktop/scripts/ensure-web-build.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { launchChromium } from '../support/browser.ts';
import { openOffice, seriousViolations, signInInBrowser } from '../support/office.ts';
import { officeSample, type OfficeSample } from '../support/office-sample.ts';
import { decodeOnScreenQr } from '../support/qr.ts';
import { client, startTestServer } from '../support/server.ts';

let server: RunningServer;
let browser: Browser;
let sample: OfficeSample;

beforeAll(async () => {
  await ensureWebBuild(() => undefined, 'office');
  server = await startTestServer({ SANDBOX_SETTLE_MS: '0' });
  // Today's volume 123,457: a grouped number on Home.
  sample = await officeSample(server.url, { payments: [100_000, 20_000, 3_457] });
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const LANGUAGES = ['sw', 'en'] as const;
type Language = (typeof LANGUAGES)[number];

const open = (language: Language, width = 1366) => openOffice(browser, language, width);

/** `TZS 123,457`, as the API's integer reads on the page. */
const tzs = (amount: number) => `TZS ${amount.toLocaleString('en-US')}`;

describe.each(LANGUAGES)('in %s', (language) => {
  const english = language === 'en';

  it(
    'signs in with Enter, and Home shows the API’s numbers, today’s volume grouped',
    { timeout: 90_000 },
    async () => {
      const { context, page } = await open(language);
      try {
        await page.goto(`${server.url}/office/`);
        await page.waitForSelector('[data-testid=sign-in]');
        expect(await page.textContent('[data-testid=language]')).toBe(english ? 'Kiswahili' : 'English');
        expect(await page.getAttribute('html', 'lang')).toBe(language);
        expect(await page.getAttribute('input[type=email]', 'autocomplete')).toBe('username');
        expect(await page.locator('input[type=password]').count()).toBe(1);
        expect(await seriousViolations(page)).toEqual([]);

        await page.fill('[data-testid=email]', sample.merchant.email);
        await page.fill('[data-testid=password]', sample.merchant.password);
        await page.keyboard.press('Enter');
        await page.waitForSelector('[data-testid=volume-TZS]', { timeout: 30_000 });

        const overview = (await sample.api.get('/v1/overview')).body;
        const today = overview.currencies.find((c: any) => c.currency === 'TZS').today;
        expect(today.gross).toBe(123_457);
        expect(await page.textContent('[data-testid=volume-TZS]')).toBe('TZS 123,457');
        expect(await page.textContent('[data-testid=fees-TZS]')).toBe(tzs(today.fees));
        expect(await page.textContent('[data-testid=net-TZS]')).toBe(tzs(today.net));
        expect(await page.textContent('[data-testid=refunds-TZS]')).toBe(tzs(today.refunds.amount));
        const retail = (await sample.api.get('/v1/retail')).body;
        expect(await page.textContent('[data-testid=sales-TZS]')).toBe(tzs(retail.stores[0].sales));
        expect(await page.textContent('[data-testid=orders-TZS]')).toBe(String(retail.stores[0].order_count));
        expect(await page.locator('[data-testid=top-products] tbody tr').count()).toBe(
          retail.stores[0].top_products.length,
        );
        // The hourly chart's table holds the API's series.
        const hourly = await page.$$eval('[data-testid=payments-by-hour] table td', (cells) =>
          cells.map((cell) => cell.textContent),
        );
        expect(hourly).toEqual(today.gross_by_hour.map(tzs));

        // Test mode is marked; the page never holds the session's token.
        expect(await page.isVisible('[data-testid=test-mode]')).toBe(true);
        expect(await page.evaluate(() => document.cookie)).not.toContain('office_session');
        const [cookie] = await context.cookies();
        expect(cookie).toMatchObject({
          name: 'office_session',
          httpOnly: true,
          sameSite: 'Strict',
          path: '/',
        });
        expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000);
        expect(await page.content()).not.toMatch(/sess_|sk_(test|live)_/);
        expect(await seriousViolations(page)).toEqual([]);

        // The last 30 days, by day too.
        await page.getByRole('radio', { name: english ? '30 days' : 'Siku 30' }).click();
        await page.waitForSelector('[data-testid=sales-by-day]');
        const month = overview.currencies.find((c: any) => c.currency === 'TZS').last_30_days;
        expect(await page.textContent('[data-testid=volume-TZS]')).toBe(tzs(month.gross));
        expect(await page.locator('[data-testid=payments-by-day] tbody tr').count()).toBe(30);

        // Live: no test mark, the live numbers; and back.
        await page.getByRole('radio', { name: english ? 'Live' : 'Halisi' }).click();
        await page.waitForSelector('[data-testid=test-mode]', { state: 'detached' });
        await page.waitForSelector('[data-testid=volume-TZS]');
        expect(await page.textContent('[data-testid=volume-TZS]')).toBe('TZS 0');
        expect(
          (await client(server.url, sample.merchant.keys.secretLive).get('/v1/overview')).body.currencies,
        ).toEqual([]);
        await page.getByRole('radio', { name: english ? 'Test' : 'Majaribio' }).click();
        await page.waitForSelector('[data-testid=test-mode]');

        // The language switch, on every page.
        await page.click('[data-testid=language]');
        expect(await page.textContent('[data-testid=language]')).toBe(english ? 'English' : 'Kiswahili');
      } finally {
        await context.close();
      }
    },
  );

  it(
    'creates a till from the Tills page and shows its pairing link as a QR code, then revokes it',
    { timeout: 90_000 },
    async () => {
      const { context, page } = await open(language);
      try {
        await signInInBrowser(page, server.url, sample.merchant);
        await page.click('[data-testid=nav-tills]');
        await page.waitForURL(`${server.url}/office/tills`);
        await page.waitForSelector('[data-testid=till-list]');
        expect(await seriousViolations(page)).toEqual([]);

        const name = `Kaunta ${language} ${Date.now() % 100_000}`;
        await page.fill('[data-testid=till-name]', name);
        await page.keyboard.press('Enter');
        await page.waitForSelector('[data-testid=pairing-qr]');
        const tills = (await sample.api.get('/v1/tills?limit=100')).body.data;
        const till = tills.find((t: any) => t.name === name);
        expect(till.status).toBe('unpaired');
        const url = (await page.getAttribute('[data-testid=pairing-url]', 'href'))!;
        expect(url).toMatch(new RegExp(`^${server.url}/till/\\?pair=[A-Z0-9-]+$`));
        expect(url).toContain(encodeURIComponent((await page.textContent('[data-testid=pairing-code]'))!));
        const label = (await page.getAttribute('[data-testid=pairing-qr]', 'aria-label'))!;
        expect(label).toContain('QR');
        expect(await page.getByRole('img', { name: label }).count()).toBe(1);
        const decoded = await decodeOnScreenQr(page, '[data-testid=pairing-qr]');
        expect(decoded.text).toBe(url);
        expect(decoded.width).toBeGreaterThanOrEqual(150);
        expect(await seriousViolations(page)).toEqual([]);

        await page.keyboard.press('Escape');
        const card = page.locator(`[data-till="${till.id}"]`);
        await card.locator('[data-testid=revoke]').click();
        await page.click('[data-testid=confirm-revoke]');
        await page.waitForSelector(`[data-till="${till.id}"].status-revoked`);
        expect((await sample.api.get(`/v1/tills/${till.id}`)).body.status).toBe('revoked');
      } finally {
        await context.close();
      }
    },
  );
});

describe('the cookie as a browser meets it', () => {
  it(
    'refuses a write that another origin’s page sends with the cookie, and accepts the office’s own',
    { timeout: 90_000 },
    async () => {
      // Another site on the same machine (another port: another origin, the same site, so the cookie goes).
      const evil = http.createServer((_req, res) => {
        res.setHeader('Content-Type', 'text/html');
        res.end('<!doctype html><title>elsewhere</title>');
      });
      await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
      const evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
      const { context, page } = await open('en');
      try {
        await signInInBrowser(page, server.url, sample.merchant);
        const before = (await sample.api.get('/v1/customers?limit=100')).body.data.length;
        const other = await context.newPage();
        await other.goto(evilUrl);
        const answered = other.waitForResponse((response) => response.url().endsWith('/v1/customers'));
        await other.evaluate(async (target) => {
          await fetch(`${target}/v1/customers`, {
            method: 'POST',
            mode: 'no-cors',
            credentials: 'include',
            body: JSON.stringify({ name: 'Mallory' }),
          });
        }, server.url);
        const response = await answered;
        // 403 for the origin, not 401: the cookie went with the request (SameSite lets it go within the
        // site); its body is opaque to the page, and to the browser's tools (test/office/session.test.ts reads it).
        expect(response.status()).toBe(403);
        expect((await sample.api.get('/v1/customers?limit=100')).body.data.length).toBe(before);

        const own = await page.evaluate(async () => {
          const answer = await fetch('/v1/customers', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ name: 'Asha' }),
          });
          return answer.status;
        });
        expect(own).toBe(201);
        expect((await sample.api.get('/v1/customers?limit=100')).body.data.length).toBe(before + 1);
      } finally {
        await context.close();
        await new Promise((resolve) => evil.close(resolve));
      }
    },
  );

  it(
    'signs every browser out everywhere: the other browser’s session stops working',
    { timeout: 90_000 },
    async () => {
      const phone = await open('sw', 360);
      const laptop = await open('en');
      try {
        await signInInBrowser(phone.page, server.url, sample.merchant);
        await signInInBrowser(laptop.page, server.url, sample.merchant);
        await laptop.page.click('[data-testid=nav-settings]');
        await laptop.page.click('[data-testid=sign-out-everywhere]');
        await laptop.page.waitForSelector('[data-testid=sign-in]');
        // The phone's next read finds its session ended, and the page says so.
        expect(await phone.page.evaluate(async () => (await fetch('/v1/balance')).status)).toBe(401);
        await phone.page.click('[data-testid=nav-tills]');
        await phone.page.waitForSelector('[data-testid=sign-in]');
        expect(await phone.page.isVisible('text=Umetolewa nje. Ingia tena.')).toBe(true);
        expect(await seriousViolations(phone.page)).toEqual([]);
      } finally {
        await phone.context.close();
        await laptop.context.close();
      }
    },
  );
});
