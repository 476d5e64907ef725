import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { client, eventually, signUp, startTestServer, type Merchant } from '../support/server.ts';
import { launchChromium } from '../support/browser.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';

let server: RunningServer;
let merchant: Merchant;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer({ SANDBOX_SETTLE_MS: '300' });
  merchant = await signUp(server.url, { business_name: 'Mama Ntilie & Sons' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the hosted checkout page in Chromium', () => {
  it('takes a phone number, pays, and completes the checkout', async () => {
    const pk = client(server.url, merchant.keys.publishableTest);
    const checkout = await pk.post('/v1/checkout', {
      currency: 'TZS',
      line_items: [
        { name: 'Chapati', amount: 500, quantity: 4 },
        { name: 'Chai', amount: 1000, quantity: 1 },
      ],
      description: 'Breakfast',
    });
    expect(checkout.status).toBe(201);
    const page = await browser.newPage();
    await page.goto(checkout.body.checkout_url);
    expect(await page.textContent('body')).toContain('Mama Ntilie & Sons');
    expect(await page.textContent('#amount')).toBe('TZS 3,000');
    await page.fill('#phone', '0700 000 001');
    await page.click('#submit');
    await page.waitForFunction(
      () => document.querySelector('#message')?.textContent?.startsWith('Paid'),
      null,
      { timeout: 30_000 },
    );
    await page.screenshot({ path: 'test/browser/checkout-paid.png' }).catch(() => undefined);

    const api = client(server.url, merchant.keys.secretTest);
    const completed = await api.get(`/v1/checkout/${checkout.body.id}`);
    expect(completed.body.status).toBe('complete');
    const payment = await api.get(`/v1/payments/${completed.body.payment}`);
    expect(payment.body).toMatchObject({ status: 'paid', amount: 3000, checkout: checkout.body.id });
    expect(payment.body.checkout_url).toBe(checkout.body.checkout_url);
    const events = await server.database.pool.query(
      `SELECT type FROM events WHERE merchant_id = $1 AND type = 'checkout.completed'`,
      [merchant.id],
    );
    expect(events.rowCount).toBe(1);
  });

  it('shows a failed payment and lets the payer try another number', async () => {
    const pk = client(server.url, merchant.keys.publishableTest);
    const checkout = await pk.post('/v1/checkout', { amount: 7000, currency: 'TZS' });
    const page = await browser.newPage();
    await page.goto(checkout.body.checkout_url);
    await page.fill('#phone', '0700000002');
    await page.click('#submit');
    await page.waitForFunction(
      () => document.querySelector('#message')?.textContent?.includes('failed'),
      null,
      { timeout: 30_000 },
    );
    expect(await page.isVisible('#pay')).toBe(true);
    await page.fill('#phone', '0700000001');
    await page.click('#submit');
    await page.waitForFunction(
      () => document.querySelector('#message')?.textContent?.startsWith('Paid'),
      null,
      { timeout: 30_000 },
    );
    const api = client(server.url, merchant.keys.secretTest);
    await eventually(
      async () => (await api.get(`/v1/checkout/${checkout.body.id}`)).body.status === 'complete',
    );
  });

  it('refuses a bad phone number on the page with a clear message', async () => {
    const pk = client(server.url, merchant.keys.publishableTest);
    const checkout = await pk.post('/v1/checkout', { amount: 100, currency: 'TZS' });
    const page = await browser.newPage();
    await page.goto(checkout.body.checkout_url);
    await page.fill('#phone', '12345');
    await page.click('#submit');
    await page.waitForFunction(
      () =>
        (document.querySelector('#message')?.textContent ?? '').length > 0 &&
        !document.querySelector('#message')!.textContent.startsWith('Sending'),
    );
    expect(await page.textContent('#message')).toMatch(/phone/i);
  });
});
