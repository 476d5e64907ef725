/**
 * The office's Payments section in Chromium over a real server, in Swahili and
 * English: the payments a page at a time by the API's cursors (older, newer),
 * a filter narrowing the list, a refund from a payment's page reaching the
 * API, a payout made and listed, and axe-core's check of every tab.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ensureWebBuild } from '../../apps/desktop/scripts/ensure-web-build.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { launchChromium } from '../support/browser.ts';
import { openOffice, seriousViolations, signInInBrowser } from '../support/office.ts';
import { officeSample, paidPayments, type OfficeSample } from '../support/office-sample.ts';
import { eventually, startTestServer } from '../support/server.ts';

let server: RunningServer;
let browser: Browser;
let sample: OfficeSample;
let receiver: http.Server;
/** Paid payments no one has refunded, one taken by each language's refund. */
let refundable: string[];
/** The one payment from an M-Pesa number. */
let mpesa: string;

beforeAll(async () => {
  await ensureWebBuild(() => undefined, 'office');
  server = await startTestServer({ SANDBOX_SETTLE_MS: '0', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  // Webhooks go to a receiver that answers 200, so a payment's page has deliveries to show.
  receiver = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  sample = await officeSample(server.url);
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  expect((await sample.api.post('/v1/webhooks', { url: hook, events: ['*'] })).status).toBe(201);
  // More than a page of 25, from the sample's number (Mixx by Yas), and one from an M-Pesa number.
  refundable = await paidPayments(
    sample.api,
    Array.from({ length: 27 }, (_, i) => 1_000 + i * 100),
  );
  const made = await sample.api.post('/v1/payments', {
    amount: 7_700,
    currency: 'TZS',
    phone: '0754 321 987',
  });
  mpesa = made.body.id;
  await eventually(async () => (await sample.api.get(`/v1/payments/${mpesa}`)).body.status === 'paid');
  browser = await launchChromium();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  receiver?.close();
});

const ids = (page: Page, list: string) =>
  page.$$eval(`[data-testid=${list}] tbody tr`, (rows) => rows.map((row) => row.getAttribute('data-id')));
const apiIds = async (path: string) =>
  (await sample.api.get(path)).body.data.map((object: { id: string }) => object.id);

describe.each(['sw', 'en'] as const)('in %s', (language) => {
  const english = language === 'en';
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await openOffice(browser, language));
    await signInInBrowser(page, server.url, sample.merchant);
  }, 60_000);
  afterAll(() => context?.close());

  it('pages through the payments by the API’s cursors, older then newer', { timeout: 90_000 }, async () => {
    await page.click('[data-testid=nav-payments]');
    await page.waitForURL(`${server.url}/office/payments`);
    await page.waitForSelector('[data-testid=payment-list]');
    expect(await page.getAttribute('[data-testid=tab-payments]', 'aria-current')).toBe('page');
    const first = await apiIds('/v1/payments?limit=25');
    expect(await ids(page, 'payment-list')).toEqual(first);
    const newest = (await sample.api.get(`/v1/payments/${first[0]}`)).body;
    expect(await page.textContent('[data-testid=payment-list] tbody tr >> nth=0 >> th')).toBe(
      `TZS ${newest.amount.toLocaleString('en-US')}`,
    );
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: english ? /Older/ : /Za zamani/ }).click();
    const second = await apiIds(`/v1/payments?limit=25&starting_after=${first.at(-1)}`);
    await expect.poll(() => ids(page, 'payment-list'), { timeout: 15_000 }).toEqual(second);
    await page.getByRole('button', { name: english ? /Newer/ : /Mpya zaidi/ }).click();
    await expect.poll(() => ids(page, 'payment-list'), { timeout: 15_000 }).toEqual(first);
  });

  it('narrows the list by network, phone and status', { timeout: 90_000 }, async () => {
    await page.goto(`${server.url}/office/payments/payments`);
    await page.waitForSelector('[data-testid=payment-list]');
    await page.selectOption('[data-testid=filter-network]', 'mpesa');
    await page.click('[data-testid=apply-filters]');
    await expect.poll(() => ids(page, 'payment-list'), { timeout: 15_000 }).toEqual([mpesa]);
    await page.selectOption('[data-testid=filter-network]', '');
    await page.fill('[data-testid=filter-phone]', '+255 754 321 987');
    await page.keyboard.press('Enter');
    await expect.poll(() => ids(page, 'payment-list'), { timeout: 15_000 }).toEqual([mpesa]);
    await page.fill('[data-testid=filter-phone]', '');
    await page.selectOption('[data-testid=filter-status]', 'refunded');
    await page.click('[data-testid=apply-filters]');
    const refunded = await apiIds('/v1/payments?status=refunded&limit=25');
    await expect.poll(() => ids(page, 'payment-list'), { timeout: 15_000 }).toEqual(refunded);
    // A number that is not one is named in the page's language.
    await page.selectOption('[data-testid=filter-status]', '');
    await page.fill('[data-testid=filter-phone]', '12345');
    await page.click('[data-testid=apply-filters]');
    await page.waitForSelector('[role=alert]');
    expect(await page.textContent('[role=alert]')).toContain(english ? 'phone number' : 'namba ya simu');
  });

  it('refunds a payment from its page, and the API has it refunded', { timeout: 90_000 }, async () => {
    const id = refundable.pop()!;
    await page.goto(`${server.url}/office/payments/payments/${id}`);
    await page.waitForSelector('[data-testid=ledger-lines]');
    expect(await page.locator('[data-testid=ledger-line]').count()).toBe(1);
    await expect
      .poll(async () => (await apiIds(`/v1/webhook-deliveries?object=${id}`)).length, { timeout: 15_000 })
      .toBeGreaterThan(0);
    await page.reload();
    await page.waitForSelector('[data-testid=deliveries]');
    expect(await ids(page, 'deliveries')).toEqual(await apiIds(`/v1/webhook-deliveries?object=${id}`));

    await page.click('[data-testid=refund]');
    await page.waitForSelector('[data-testid=refund-dialog]');
    expect(await seriousViolations(page)).toEqual([]);
    await page.click('[data-testid=confirm-refund]');
    await page.waitForSelector('[data-testid=payment-detail] [data-status=refunded]');
    expect((await sample.api.get(`/v1/payments/${id}`)).body.status).toBe('refunded');
    expect(await ids(page, 'ledger-lines')).toEqual(await apiIds(`/v1/transactions?source=${id}`));
    expect(await page.locator('[data-testid=refund]').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the balance and its transactions as the API has them', { timeout: 90_000 }, async () => {
    await page.click('[data-testid=tab-balance]');
    await page.waitForSelector('[data-testid=transactions]');
    const balance = (await sample.api.get('/v1/balance')).body;
    const available = balance.available.find((b: any) => b.currency === 'TZS').amount;
    expect(await page.textContent('[data-testid=balance-available-TZS]')).toBe(
      `TZS ${available.toLocaleString('en-US')}`,
    );
    expect(await ids(page, 'transactions')).toEqual(await apiIds('/v1/transactions?limit=25'));
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('sends a payout typed as "12,500" and lists it; a typo is named', { timeout: 90_000 }, async () => {
    await page.click('[data-testid=tab-payouts]');
    await page.waitForSelector('[data-testid=payout-amount]');
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('[data-testid=payout-amount]', '12,5OO');
    await page.fill('[data-testid=payout-phone]', '0712 345 678');
    await page.click('[data-testid=create-payout]');
    await page.waitForSelector('[role=alert]');
    expect(await page.textContent('[role=alert]')).toContain(english ? 'amount' : 'kiasi');
    const before = await apiIds('/v1/payouts?limit=100');

    await page.fill('[data-testid=payout-amount]', '12,500');
    await page.click('[data-testid=create-payout]');
    await page.waitForSelector('[data-testid=payout-sent]');
    const after = (await sample.api.get('/v1/payouts?limit=100')).body.data;
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatchObject({
      amount: 12_500,
      currency: 'TZS',
      destination: { type: 'mobile_money', phone: '255712345678' },
    });
    await expect.poll(() => ids(page, 'payout-list'), { timeout: 15_000 }).toContain(after[0].id);
    expect(await page.textContent(`[data-testid=payout-list] tr[data-id="${after[0].id}"] th`)).toBe(
      'TZS 12,500',
    );
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('finds a customer by phone and shows their payments', { timeout: 90_000 }, async () => {
    const customer = (
      await sample.api.post('/v1/customers', {
        name: `Mteja ${language}`,
        phone: `071200000${english ? 1 : 2}`,
      })
    ).body;
    await page.click('[data-testid=tab-customers]');
    await page.waitForSelector('[data-testid=customer-list]');
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('[data-testid=customer-search]', `0712 000 00${english ? 1 : 2}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => ids(page, 'customer-list'), { timeout: 15_000 }).toEqual([customer.id]);
    await page.click(`[data-testid=customer-list] tr[data-id="${customer.id}"] a`);
    await page.waitForSelector('[data-testid=customer-detail] h2');
    expect(await page.textContent('[data-testid=customer-detail] h2')).toBe(`Mteja ${language}`);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it(
    'makes an invoice: a draft, edited, finalized and sent, with its PDF and the customer’s page',
    { timeout: 120_000 },
    async () => {
      const customer = (await sample.api.post('/v1/customers', { name: `Ankara ${language}` })).body;
      await page.click('[data-testid=tab-invoices]');
      await page.waitForSelector('[data-testid=new-invoice]');
      expect(await seriousViolations(page)).toEqual([]);
      await page.click('[data-testid=new-invoice]');
      await page.waitForSelector('[data-testid=invoice-form]');
      await page.selectOption('[data-testid=invoice-customer]', customer.id);
      await page.fill('[data-testid=line-description]', 'Mchele 25kg');
      await page.fill('[data-testid=line-quantity]', '2');
      await page.fill('[data-testid=line-price]', '12,500');
      expect(await seriousViolations(page)).toEqual([]);
      await page.click('[data-testid=save-invoice]');
      await page.waitForSelector('[data-testid=invoice-total]');
      const id = decodeURIComponent(page.url().split('/').at(-1)!);
      expect(id).toMatch(/^in_/);
      const draft = (await sample.api.get(`/v1/invoices/${id}`)).body;
      expect(draft).toMatchObject({ status: 'draft', customer: customer.id, total: 25_000 });
      expect(draft.lines[0]).toMatchObject({ description: 'Mchele 25kg', quantity: 2, unit_amount: 12_500 });
      expect(await page.textContent('[data-testid=invoice-total]')).toBe('TZS 25,000');

      await page.click('[data-testid=edit-invoice]');
      await page.waitForSelector('[data-testid=invoice-form]');
      await page.fill('[data-testid=line-price]', '15,000');
      await page.click('[data-testid=save-invoice]');
      await expect
        .poll(() => page.textContent('[data-testid=invoice-total]').catch(() => null), { timeout: 15_000 })
        .toBe('TZS 30,000');
      expect((await sample.api.get(`/v1/invoices/${id}`)).body.lines[0].unit_amount).toBe(15_000);

      await page.click('[data-testid=finalize]');
      await page.waitForSelector('[data-testid=invoice-detail] [data-status=open]');
      await page.click('[data-testid=send]');
      await expect
        .poll(async () => (await sample.api.get(`/v1/invoices/${id}`)).body.sent_at, { timeout: 15_000 })
        .not.toBeNull();
      const open = (await sample.api.get(`/v1/invoices/${id}`)).body;
      expect(open.status).toBe('open');
      expect(await page.textContent('[data-testid=invoice-detail] h2')).toBe(open.number);
      expect(await page.getAttribute('[data-testid=hosted]', 'href')).toBe(open.hosted_invoice_url);
      const pdf = (await page.getAttribute('[data-testid=pdf]', 'href'))!;
      expect(pdf).toBe(`/v1/invoices/${id}/pdf?lang=${language}`);
      // The link works with the browser's cookie alone.
      const served = await page.evaluate(async (href) => {
        const response = await fetch(href);
        return { status: response.status, type: response.headers.get('content-type') };
      }, pdf);
      expect(served).toEqual({ status: 200, type: 'application/pdf' });
      expect(await seriousViolations(page)).toEqual([]);
    },
  );

  it(
    'lists subscriptions and escrow with their detail, and cancels a subscription',
    { timeout: 90_000 },
    async () => {
      const customer = (await sample.api.post('/v1/customers', { name: `Usajili ${language}` })).body;
      const subscription = (
        await sample.api.post('/v1/subscriptions', {
          customer: customer.id,
          amount: 5_000,
          currency: 'TZS',
          interval: 'month',
          phone: '0700000001',
          trial_period_days: 7,
        })
      ).body;
      const held = (await sample.api.get(`/v1/payments/${refundable.pop()}`)).body;
      const escrow = (
        await sample.api.post('/v1/escrow', {
          payment: held.id,
          splits: [{ phone: '0712 345 678', amount: held.net }],
        })
      ).body;
      expect(escrow.status).toBe('held');

      await page.click('[data-testid=tab-subscriptions]');
      await page.waitForSelector(`[data-testid=subscription-list] tr[data-id="${subscription.id}"]`);
      expect(await seriousViolations(page)).toEqual([]);
      await page.click(`[data-testid=subscription-list] tr[data-id="${subscription.id}"] a`);
      await page.waitForSelector('[data-testid=cancel-subscription]');
      await page.click('[data-testid=cancel-subscription]');
      await page.waitForSelector('[data-testid=cancel-dialog]');
      expect(await seriousViolations(page)).toEqual([]);
      await page.click('[data-testid=confirm-cancel]');
      await page.waitForSelector('[data-testid=subscription-detail] [data-status=canceled]');
      expect((await sample.api.get(`/v1/subscriptions/${subscription.id}`)).body.status).toBe('canceled');

      await page.click('[data-testid=tab-escrow]');
      await page.waitForSelector(`[data-testid=escrow-list] tr[data-id="${escrow.id}"]`);
      expect(await seriousViolations(page)).toEqual([]);
      await page.click(`[data-testid=escrow-list] tr[data-id="${escrow.id}"] a`);
      await page.waitForSelector('[data-testid=escrow-splits]');
      expect(await ids(page, 'escrow-splits')).toEqual(
        escrow.splits.map((split: { id: string }) => split.id),
      );
      expect(await seriousViolations(page)).toEqual([]);
    },
  );
});
