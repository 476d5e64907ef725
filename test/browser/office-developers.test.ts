/**
 * The back office's Developers, staff, business and apps pages in Chromium over
 * a real server, in Swahili, each screen read in English too: a key rolled (the old one stops, the
 * new one works, its secret shown once), a webhook delivery replayed to a real
 * receiver (which gets it again, signed), and axe-core's check of each page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { verifyStandardWebhook, verifyWebhookBody } from '@tz/core';
import { ensureWebBuild } from '../../apps/desktop/scripts/ensure-web-build.ts';
import { launchChromium } from '../support/browser.ts';
import { officeScreenChecked, openOffice, signInInBrowser } from '../support/office.ts';
import { client, signUp, type Merchant } from '../support/server.ts';
import { startReceiver, startWebhookServer, type Receiver } from '../webhooks/support.ts';

let server: Awaited<ReturnType<typeof startWebhookServer>>;
let browser: Browser;
let receiver: Receiver;

beforeAll(async () => {
  await ensureWebBuild(() => undefined, 'office');
  [server, receiver] = await Promise.all([startWebhookServer(), startReceiver()]);
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await server?.close();
});

/**
 * Each flow once, in Swahili; every screen axe-core checks is read in English too, its words and
 * its findings (officeScreenChecked), rather than every flow run again in English.
 */
const LANGUAGES: ReadonlyArray<'sw' | 'en'> = ['sw'];

/** No secret key, webhook secret or session token anywhere in the page. */
async function holdsNoSecret(page: Page): Promise<void> {
  expect(await page.content()).not.toMatch(/sk_(test|live)_[A-Za-z0-9]{20}|whsec_|sess_/);
}

/** The secret the dialog shows, read, then the dialog closed. */
async function takeSecret(page: Page): Promise<string> {
  const secret = await page.inputValue('[data-testid=secret]');
  await officeScreenChecked(page);
  await page.click('[data-testid=secret-done]');
  await page.waitForSelector('[data-testid=secret-dialog]', { state: 'detached' });
  return secret;
}

describe.each(LANGUAGES)('in %s', (language) => {
  let merchant: Merchant;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    merchant = await signUp(server.url, { business_name: `Duka ${language}` });
    api = client(server.url, merchant.keys.secretTest);
  });

  it(
    'creates a key and rolls it: its secret shown once, the old key stopped, the new one working',
    { timeout: 120_000 },
    async () => {
      const { context, page } = await openOffice(browser, language);
      try {
        await signInInBrowser(page, server.url, merchant);
        await page.click('[data-testid=nav-developers]');
        await page.waitForURL(`${server.url}/office/developers`);
        await page.waitForSelector('[data-testid=key-list]');
        await officeScreenChecked(page);

        await page.fill('[data-testid=key-name]', 'Seva ya hesabu');
        await page.keyboard.press('Enter');
        await page.waitForSelector('[data-testid=secret]');
        const created = await takeSecret(page);
        expect(created).toMatch(/^sk_test_/);
        expect((await client(server.url, created).get('/v1/balance')).status).toBe(200);
        // Shown once: the page keeps it nowhere, the list has it masked.
        await holdsNoSecret(page);
        const card = page.locator('[data-testid=key]', { hasText: 'Seva ya hesabu' });
        expect(await card.count()).toBe(1);
        expect(await card.locator('[data-testid=key-masked]').textContent()).toBe(
          `${created.slice(0, 8)}********${created.slice(-4)}`,
        );

        await card.locator('[data-testid=roll]').click();
        await page.waitForSelector('[data-testid=roll-dialog]');
        await officeScreenChecked(page);
        await page.click('[data-testid=roll-dialog] [data-testid=confirm]');
        await page.waitForSelector('[data-testid=secret]');
        const rolled = await takeSecret(page);
        expect(rolled).toMatch(/^sk_test_/);
        expect(rolled).not.toBe(created);
        expect((await client(server.url, created).get('/v1/balance')).status).toBe(401);
        expect((await client(server.url, rolled).get('/v1/balance')).status).toBe(200);
        await holdsNoSecret(page);
        await page.waitForSelector('[data-testid=key] .badge.status-revoked');
        // Read again, the list still shows the new key masked only.
        await page.reload();
        await page.waitForSelector('[data-testid=key-list]');
        await holdsNoSecret(page);
      } finally {
        await context.close();
      }
    },
  );

  it(
    'creates a webhook endpoint, sends a test event, replays its delivery to the receiver (signed), edits and deletes it',
    { timeout: 120_000 },
    async () => {
      const { context, page } = await openOffice(browser, language);
      const path = `/hooks/${language}`;
      const url = `http://127.0.0.1:${receiver.port}${path}`;
      const received = () => receiver.received.filter((request) => request.url === path);
      try {
        await signInInBrowser(page, server.url, merchant);
        await page.goto(`${server.url}/office/developers/webhooks`);
        await page.waitForSelector('[data-testid=create-endpoint]');
        await officeScreenChecked(page);
        await page.fill('[data-testid=endpoint-url]', url);
        await page.fill('[data-testid=endpoint-description]', 'Mfumo wa hesabu');
        await page.click('[data-testid=create-endpoint]');
        await page.waitForSelector('[data-testid=secret]');
        const secret = await takeSecret(page);
        expect(secret).toMatch(/^whsec_/);
        await page.waitForSelector('[data-testid=endpoint]');
        await holdsNoSecret(page);
        await officeScreenChecked(page);

        await page.click('[data-testid=tab-events]');
        await page.waitForURL(`${server.url}/office/developers/events`);
        await page.selectOption('[data-testid=test-event-type]', 'payment.succeeded');
        await page.fill('[data-testid=test-event-data]', '{"id": "pay_office", "amount": 500}');
        await officeScreenChecked(page);
        await page.click('[data-testid=send-test-event]');
        await page.waitForSelector('[data-testid=test-event-sent]');
        await expect.poll(() => received().length, { timeout: 30_000 }).toBe(1);
        const first = received()[0]!;
        expect(first.json).toMatchObject({
          type: 'payment.succeeded',
          data: { object: { id: 'pay_office' } },
        });

        await page.click('[data-testid=tab-deliveries]');
        await page.waitForSelector('[data-testid=delivery]');
        await officeScreenChecked(page);
        await page.click('[data-testid=delivery] a');
        await page.waitForSelector('[data-testid=attempts]');
        const original = (await page.textContent('[data-testid=delivery-id]'))!;
        await officeScreenChecked(page);
        await page.click('[data-testid=replay]');
        // The replay's own page: a new delivery of the same event, sent to the receiver again.
        await page.waitForFunction(
          (id) => {
            const shown = document.querySelector('[data-testid=delivery-id]')?.textContent;
            return shown && shown !== id;
          },
          original,
          { timeout: 30_000 },
        );
        await expect.poll(() => received().length, { timeout: 30_000 }).toBe(2);
        const again = received()[1]!;
        expect(again.json).toMatchObject({
          type: 'payment.succeeded',
          data: { object: { id: 'pay_office' } },
        });
        expect(again.json.id).not.toBe(first.json.id);
        expect(
          await verifyWebhookBody(secret, again.body, again.headers['x-webhook-signature'] as string),
        ).toBe(true);
        expect(await verifyStandardWebhook(secret, again.body, again.headers)).toBe(true);
        const replay = (await page.textContent('[data-testid=delivery-id]'))!;
        expect((await api.get(`/v1/webhook-deliveries/${replay}`)).body.replayed_from).toBe(original);
        // The replay's attempt appears on its page.
        await expect
          .poll(
            async () => {
              await page.click('[data-testid=refresh-delivery]');
              return page.locator('[data-testid=attempt]').count();
            },
            { timeout: 30_000 },
          )
          .toBe(1);

        // Edited (turned off, described), then deleted.
        await page.click('[data-testid=tab-webhooks]');
        await page.click('[data-testid=edit-endpoint]');
        await page.waitForSelector('[data-testid=edit-endpoint-dialog]');
        await officeScreenChecked(page);
        await page.fill(
          '[data-testid=edit-endpoint-dialog] [data-testid=endpoint-description]',
          'Hesabu mpya',
        );
        await page.click('[data-testid=save-endpoint]');
        await page.waitForSelector('[data-testid=edit-endpoint-dialog]', { state: 'detached' });
        await page.click('[data-testid=edit-endpoint]');
        await page.click('[data-testid=toggle-endpoint]');
        await page.waitForSelector('[data-testid=endpoint] .badge.status-disabled');
        const [endpoint] = (await api.get('/v1/webhooks')).body.data;
        expect(endpoint).toMatchObject({ url, description: 'Hesabu mpya', status: 'disabled' });
        await page.click('[data-testid=delete-endpoint]');
        await page.click('[data-testid=confirm-dialog] [data-testid=confirm]');
        await page.waitForSelector('[data-testid=endpoint]', { state: 'detached' });
        expect((await api.get('/v1/webhooks')).body.data).toEqual([]);

        await page.click('[data-testid=tab-logs]');
        await page.waitForSelector('[data-testid=log]');
        await page.selectOption('[data-testid=log-status]', '2xx');
        await page.waitForSelector('[data-testid=log]');
        await officeScreenChecked(page);
      } finally {
        await context.close();
      }
    },
  );

  it(
    'adds an employee, sets a PIN, deactivates them; adds a network printer and prints a test page',
    { timeout: 120_000 },
    async () => {
      const store = (await api.patch('/v1/retail/store', { name: `Duka Kuu ${language}` })).body;
      const till = (await api.post('/v1/tills', { name: 'Kaunta 1' })).body;
      const { context, page } = await openOffice(browser, language, 360);
      const name = `Asha ${language}`;
      try {
        await signInInBrowser(page, server.url, merchant);
        await page.click('[data-testid=nav-tills]');
        await page.click('[data-testid=tab-staff]');
        await page.waitForURL(`${server.url}/office/tills/staff`);
        await page.waitForSelector('[data-testid=create-employee]');
        await page.fill('[data-testid=employee-name]', name);
        await page.fill('[data-testid=employee-pin]', '4821');
        await page.click('[data-testid=create-employee]');
        const card = page.locator('[data-testid=employee]', { hasText: name });
        await card.waitFor();
        await officeScreenChecked(page);
        const [employee] = (await api.get('/v1/employees')).body.data;
        expect(employee).toMatchObject({ name, role: 'cashier', stores: [store.id], active: true });

        // A new PIN: the old one is free again and the new one taken (the API never shows a PIN).
        await card.locator('[data-testid=set-pin]').click();
        await page.waitForSelector('[data-testid=employee-dialog]');
        await officeScreenChecked(page);
        await page.fill('[data-testid=employee-dialog] [data-testid=employee-pin]', '7305');
        await page.keyboard.press('Enter');
        await page.waitForSelector('[data-testid=employee-dialog]', { state: 'detached' });
        const taken = await api.post('/v1/employees', {
          name: 'B',
          role: 'cashier',
          stores: [store.id],
          pin: '7305',
        });
        expect(taken.body.code).toBe('pin_taken');
        const other = await api.post('/v1/employees', {
          name: 'B',
          role: 'cashier',
          stores: [store.id],
          pin: '4821',
        });
        expect(other.status).toBe(201);

        // The same PIN from the page is refused in words naming it.
        await page.fill('[data-testid=employee-name]', 'C');
        await page.fill('[data-testid=employee-pin]', '4821');
        await page.click('[data-testid=create-employee]');
        await page.waitForSelector('.message.error');
        expect(await page.textContent('.message.error')).toContain('PIN');

        await card.locator('[data-testid=deactivate]').click();
        await page.click('[data-testid=confirm-dialog] [data-testid=confirm]');
        await card.waitFor({ state: 'detached' });
        expect((await api.get(`/v1/employees/${employee.id}`)).body.active).toBe(false);

        await page.click('[data-testid=tab-printers]');
        await page.waitForSelector('[data-testid=create-printer]');
        await page.fill('[data-testid=printer-name]', 'Printa ya Kaunta');
        await page.fill('[data-testid=printer-host]', '192.168.1.50');
        await page.click('[data-testid=create-printer]');
        const printerCard = page.locator('[data-testid=printer]');
        await printerCard.waitFor();
        const [printer] = (await api.get('/v1/printers')).body.data;
        expect(printer).toMatchObject({
          till: till.id,
          connection: 'tcp://192.168.1.50:9100',
          paper_width: 80,
        });
        await printerCard.locator('[data-testid=test-print]').click();
        await page.waitForSelector('[data-testid=job]');
        const [job] = (await api.get('/v1/print-jobs')).body.data;
        expect(job).toMatchObject({ printer: printer.id, status: 'pending' });
        expect(await page.getAttribute('[data-testid=job]', 'data-job')).toBe(job.id);
        await officeScreenChecked(page);
      } finally {
        await context.close();
      }
    },
  );

  it(
    'sets the business’s default language, which a browser that chose none opens in',
    { timeout: 120_000 },
    async () => {
      const other = language === 'en' ? 'sw' : 'en';
      const { context, page } = await openOffice(browser, language);
      try {
        await signInInBrowser(page, server.url, merchant);
        await page.click('[data-testid=nav-settings]');
        await page.waitForSelector('[data-testid=business-language]');
        expect(await page.inputValue('[data-testid=business-language]')).toBe('sw');
        await page.selectOption('[data-testid=business-language]', other);
        await page.click('[data-testid=save-business-name]');
        await expect.poll(async () => (await api.get('/v1/account')).body.default_language).toBe(other);
        // This browser chose its language: it keeps it.
        expect(await page.getAttribute('html', 'lang')).toBe(language);
        await officeScreenChecked(page);
      } finally {
        await context.close();
      }

      // A browser that never chose opens in Swahili, then in the business's language once signed in.
      const fresh = await openOffice(browser, null);
      try {
        await fresh.page.goto(`${server.url}/office/`);
        await fresh.page.waitForSelector('[data-testid=sign-in]');
        expect(await fresh.page.getAttribute('html', 'lang')).toBe('sw');
        await signInInBrowser(fresh.page, server.url, merchant);
        await fresh.page.waitForFunction((lang) => document.documentElement.lang === lang, other);
        expect(await fresh.page.textContent('[data-testid=nav-settings]')).toBe(
          other === 'en' ? 'Settings' : 'Mipangilio',
        );
        // Its own choice then wins over the account's, and is kept.
        await fresh.page.click('[data-testid=language]');
        await fresh.page.waitForFunction((lang) => document.documentElement.lang === lang, language);
        await fresh.page.reload();
        await fresh.page.waitForSelector('[data-testid=nav-settings]');
        expect(await fresh.page.getAttribute('html', 'lang')).toBe(language);
      } finally {
        await fresh.context.close();
      }
      // A new store's receipts start in the business's language.
      expect((await api.post('/v1/retail/stores', { name: `Duka la ${other}` })).body.receipt_language).toBe(
        other,
      );
      await api.patch('/v1/account', { default_language: 'sw' });
    },
  );

  it(
    'renames the business and sets its receipts, seen in the frame and by the API',
    { timeout: 120_000 },
    async () => {
      const { context, page } = await openOffice(browser, language);
      const name = `Duka la Mama Asha ${language}`;
      try {
        await signInInBrowser(page, server.url, merchant);
        await page.click('[data-testid=nav-settings]');
        await page.waitForSelector('[data-testid=save-receipts]');
        await officeScreenChecked(page);
        await page.fill('[data-testid=business-name]', name);
        await page.click('[data-testid=save-business-name]');
        await page.waitForFunction((text) => document.querySelector('.business')?.textContent === text, name);
        expect((await api.get('/v1/account')).body.business_name).toBe(name);

        await page.fill('[data-testid=business-tin]', '123456789');
        await page.fill('[data-testid=business-vrn]', '40012345a');
        await page.fill('[data-testid=receipt-header]', 'Karibu\nKariakoo, Dar es Salaam');
        await page.fill('[data-testid=receipt-footer]', 'Asante kwa kununua');
        await page.selectOption('[data-testid=receipt-language]', 'en');
        await page.click('[data-testid=save-receipts]');
        // Saved: the field shows the TIN as the server wrote it.
        await page.waitForFunction(
          () =>
            (document.querySelector('[data-testid=business-tin]') as HTMLInputElement).value ===
            '123-456-789',
        );
        expect((await api.get('/v1/retail/store')).body).toMatchObject({
          tin: '123-456-789',
          vrn: '40-012345-A',
          receipt_header: ['Karibu', 'Kariakoo, Dar es Salaam'],
          receipt_footer: ['Asante kwa kununua'],
          receipt_language: 'en',
        });
        await officeScreenChecked(page);
      } finally {
        await context.close();
      }
    },
  );

  it('removes an app and installs it again', { timeout: 120_000 }, async () => {
    const { context, page } = await openOffice(browser, language, 360);
    try {
      await signInInBrowser(page, server.url, merchant);
      // The page reads the apps a page at a time by the API's cursors, as every list.
      const read = page.waitForRequest((request) => new URL(request.url()).pathname === '/v1/apps');
      await page.click('[data-testid=nav-apps]');
      expect(new URL((await read).url()).searchParams.get('limit')).toBe('25');
      const card = page.locator('[data-app=printers]');
      await card.locator('[data-testid=remove-app]').waitFor();
      expect(await page.$$eval('[data-testid=app]', (cards) => cards.map((one) => one.dataset.app))).toEqual(
        (await api.get('/v1/apps?limit=25')).body.data.map((app: { id: string }) => app.id),
      );
      await officeScreenChecked(page);
      await card.locator('[data-testid=remove-app]').click();
      await page.waitForSelector('[data-testid=confirm-dialog]');
      await officeScreenChecked(page);
      await page.click('[data-testid=confirm-dialog] [data-testid=confirm]');
      await card.locator('[data-testid=install-app]').waitFor();
      expect((await api.get('/v1/printers')).body.code).toBe('app_not_installed');
      expect(
        (await api.get('/v1/apps')).body.data.find((app: any) => app.slug === 'printers').installed,
      ).toBe(false);
      await card.locator('[data-testid=install-app]').click();
      await card.locator('[data-testid=remove-app]').waitFor();
      expect((await api.get('/v1/printers')).status).toBe(200);
    } finally {
      await context.close();
    }
  });
});
