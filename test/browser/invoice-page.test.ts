import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser.ts';
import { withMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { eventTypesOf, makeCustomer, openInvoice } from '../invoices/support.ts';

let server: RunningServer;
let api: Api;
let browser: Browser;
let customer: string;

beforeAll(async () => {
  const made = await withMerchant({ business_name: 'Mama Ntilie & Sons', env: { SANDBOX_SETTLE_MS: '300' } });
  server = made.server;
  api = made.api;
  customer = await makeCustomer(api);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A phone-sized page, as most customers open the link. */
const phonePage = (): Promise<Page> =>
  browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });

const waitForMessage = (page: Page, text: string) =>
  page.waitForFunction((wanted) => document.querySelector('#message')?.textContent?.includes(wanted), text, {
    timeout: 30_000,
  });

describe('the hosted invoice page in Chromium', () => {
  it('shows the invoice in Swahili and English and is paid by mobile money', async () => {
    const invoice = await openInvoice(api, customer);
    const url: string = invoice.hosted_invoice_url;
    expect(url.startsWith(`${server.config.publicUrl}/invoice/`)).toBe(true);
    const page = await phonePage();
    await page.goto(url);
    expect(await page.getAttribute('html', 'lang')).toBe('sw');
    expect(await page.textContent('h1')).toBe(`Ankara ${invoice.number}`);
    expect(await page.textContent('#status')).toBe('Inasubiri malipo');
    expect(await page.textContent('#lines')).toContain('Ushauri wa biashara (saa)');
    expect(await page.textContent('#amount-due')).toBe('TZS 28,600');
    expect(await page.textContent('body')).toContain('Mama Ntilie & Sons');
    await page.screenshot({ path: 'test/browser/invoice-page-sw.png', fullPage: true });

    await page.click('#lang');
    await page.waitForURL(/lang=en/);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.textContent('h1')).toBe(`Invoice ${invoice.number}`);
    expect(await page.textContent('#status')).toBe('Awaiting payment');
    await page.screenshot({ path: 'test/browser/invoice-page-en.png', fullPage: true });

    await page.fill('#phone', '0700 000 001');
    // Once paid, the page reloads to show its paid state as the server renders it.
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await page.click('#submit');
    await reloaded;
    expect(await page.textContent('#status')).toBe('Paid');
    expect(await page.textContent('#message')).toBe('Paid. Thank you!');
    expect(await page.isVisible('#pay')).toBe(false);
    expect(await page.textContent('#amount-due')).toBe('TZS 0');
    expect(await page.isVisible('#receipt-pdf')).toBe(true);
    await page.screenshot({ path: 'test/browser/invoice-page-paid-en.png', fullPage: true });

    const paid = await api.get(`/v1/invoices/${invoice.id}`);
    expect(paid.body).toMatchObject({ status: 'paid', amount_paid: 28_600 });
    const payment = await api.get(`/v1/payments/${paid.body.payment}`);
    expect(payment.body).toMatchObject({ status: 'paid', phone: '255700000001', invoice: invoice.id });
    expect(await eventTypesOf(server, invoice.id)).toContain('invoice.paid');

    const receipt = await page.request.get(`${url}/receipt.pdf?lang=en`);
    expect(receipt.status()).toBe(200);
    expect(receipt.headers()['content-type']).toBe('application/pdf');
  });

  it('shows a failed payment and takes another number', async () => {
    const invoice = await openInvoice(api, customer);
    const page = await phonePage();
    await page.goto(`${invoice.hosted_invoice_url}?lang=en`);
    await page.fill('#phone', '0700000002');
    await page.click('#submit');
    await waitForMessage(page, 'The payment failed');
    expect(await page.isVisible('#pay')).toBe(true);
    await page.fill('#phone', '0700000001');
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await page.click('#submit');
    await reloaded;
    expect(await page.textContent('#status')).toBe('Paid');
  });

  it('refuses to pay a void invoice, and moves nothing', async () => {
    const invoice = await openInvoice(api, customer);
    const page = await phonePage();
    await page.goto(invoice.hosted_invoice_url);
    expect(await page.isVisible('#pay')).toBe(true);
    await api.post(`/v1/invoices/${invoice.id}/void`);
    // The page was loaded before the void: its form is still there, and the server refuses.
    await page.fill('#phone', '0700000001');
    await page.click('#submit');
    await waitForMessage(page, 'void');
    const payments = await server.database.pool.query('SELECT 1 FROM payments WHERE invoice_id = $1', [
      invoice.id,
    ]);
    expect(payments.rowCount).toBe(0);
    await page.reload();
    expect(await page.textContent('#status')).toBe('Imefutwa');
    expect(await page.isVisible('#pay')).toBe(false);
    expect(await page.textContent('#message')).toBe('Ankara hii haiwezi kulipwa tena.');
  });

  it('answers an unknown token with the error object', async () => {
    const response = await fetch(`${server.url}/invoice/abcdefghijklmnopqrstuvwxyz012345`);
    expect(response.status).toBe(404);
    expect((await response.json()).code).toBe('resource_missing');
  });
});
