import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { launchChromium } from '../support/browser.ts';
import { decodeQrSvgs } from '../support/qr.ts';
import { withMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import { makeEvent, order, payOrder } from './support.ts';

let server: RunningServer;
let api: Api;
let browser: Browser;

beforeAll(async () => {
  ({ server, api } = await withMerchant({ business_name: 'Busara Promotions' }));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A paid order of two Regular tickets and one VIP. */
async function paidOrder() {
  const { event, tiers } = await makeEvent(api, {
    tiers: [
      { name: 'Regular', price: 20_000, quantity: 50 },
      { name: 'VIP Lounge & Backstage', price: 85_000, quantity: 10 },
    ],
  });
  const created = await order(api, event.id, [
    { tier: tiers[0]!, quantity: 2 },
    { tier: tiers[1]!, quantity: 1 },
  ]);
  return { event, paid: await payOrder(server.url, api, created) };
}

const attributes = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`${name}="([^"]*)"`, 'g'))].map((match) => match[1]);

describe('the buyer’s tickets page', () => {
  it('a paid order has a short link whose page shows one QR per ticket, carrying its code', async () => {
    const { event, paid } = await paidOrder();
    expect(paid.tickets_url).toMatch(new RegExp(`^${server.url}/t/[0-9A-Za-z]{12}$`));
    const recorded = await server.database.pool.query<{ url: string }>(
      `SELECT data->'object'->>'tickets_url' AS url FROM events WHERE type = 'event_order.paid' AND data->'object'->>'id' = $1`,
      [paid.id],
    );
    expect(recorded.rows).toEqual([{ url: paid.tickets_url }]);

    const answer = await fetch(paid.tickets_url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/html');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const html = await answer.text();
    const codes = paid.tickets.map((ticket: { code: string }) => ticket.code);
    expect(codes).toHaveLength(3);
    expect(attributes(html, 'data-code')).toEqual(codes);
    expect(html.match(/<svg class="qr"/g)).toHaveLength(3);
    expect(html).toContain('Sauti za Busara');
    expect(html).toContain('VIP Lounge &amp; Backstage');
    expect(html).toContain('Neema Mushi');
    expect(html).toContain('Tiketi 3 kati ya 3');
    expect(html).not.toContain(event.id); // the page names the event, not its id

    const english = await (await fetch(`${paid.tickets_url}?lang=en`)).text();
    expect(english).toContain('<html lang="en"');
    expect(english).toContain('Ticket 3 of 3');

    const page = await browser.newPage();
    await page.goto(paid.tickets_url);
    expect(await decodeQrSvgs(browser, page)).toEqual(codes);
    await page.close();
  });

  it('the paid checkout shows the same tickets, and reloads to them from the pay step', async () => {
    const { event, tiers } = await makeEvent(api);
    const created = await order(api, event.id, [{ tier: tiers[0]!, quantity: 2 }]);
    const page = await browser.newPage();
    await page.goto(created.body.checkout_url);
    await page.fill('#phone', '0700000001');
    await page.click('#submit');
    await page.waitForSelector('#paid', { timeout: 30_000 });
    const paid = (await api.get(`/v1/events/orders/${created.body.id}`)).body;
    const codes = paid.tickets.map((ticket: { code: string }) => ticket.code);
    expect(await page.locator('svg.qr').evaluateAll((svgs) => svgs.map((svg) => svg.dataset.code))).toEqual(
      codes,
    );
    expect(await decodeQrSvgs(browser, page)).toEqual(codes);
    await page.close();
  });

  it('an unknown or malformed link is a clean 404 page', async () => {
    for (const token of ['AAAAAAAAAAAA', 'short', 'a'.repeat(300), '%E2%82%AC', '%ZZ', "x'or'1'='1"]) {
      const answer = await fetch(`${server.url}/t/${token}`);
      expect(answer.status, token).toBe(404);
      expect(answer.headers.get('content-type')).toContain('text/html');
      const html = await answer.text();
      expect(html).toContain('id="not-found"');
      expect(html).not.toContain('<svg');
    }
    const english = await (await fetch(`${server.url}/t/AAAAAAAAAAAA?lang=en`)).text();
    expect(english).toContain('This link opens no tickets');
    // A NUL in any path is the API's one error object, as everywhere.
    const nul = await fetch(`${server.url}/t/AAAAAAAAAAA%00`);
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject({ code: 'parameter_invalid' });
  });

  it('a refunded order’s page shows its tickets void, with no QR', async () => {
    const { paid } = await paidOrder();
    const refunded = await api.post(`/v1/events/orders/${paid.id}/refund`);
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body.tickets_url).toBe(paid.tickets_url);
    const html = await (await fetch(`${paid.tickets_url}?lang=en`)).text();
    expect(attributes(html, 'data-status')).toEqual(['void', 'void', 'void']);
    expect(html).not.toContain('<svg');
    expect(html).not.toContain(paid.tickets[0].code);
    expect(html).toContain('This order was refunded');
  });

  it('fits a 360 px phone and a laptop in both languages, each QR large enough to scan', async () => {
    const { paid } = await paidOrder();
    const { paid: voided } = await paidOrder();
    expect((await api.post(`/v1/events/orders/${voided.id}/refund`)).status).toBe(200);
    for (const [width, height] of [
      [360, 740],
      [1366, 768],
    ] as const) {
      for (const language of ['sw', 'en']) {
        for (const url of [paid.tickets_url, voided.tickets_url]) {
          const page = await browser.newPage({ viewport: { width, height } });
          await page.goto(`${url}?lang=${language}`);
          const layout = await page.evaluate(() => ({
            overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            qrs: [...document.querySelectorAll('svg.qr')].map((svg) => svg.getBoundingClientRect().width),
            // "Void" in one line, never cut mid-word.
            voids: [...document.querySelectorAll('.void strong')].map(
              (word) => word.scrollWidth - word.clientWidth,
            ),
          }));
          const where = `${width} ${language} ${url}`;
          expect(layout.overflow, where).toBeLessThanOrEqual(0);
          expect(layout.qrs.length + layout.voids.length, where).toBe(3);
          // A version-8 code of 57 modules: at least 4 px a module.
          for (const size of layout.qrs) expect(size, where).toBeGreaterThanOrEqual(57 * 4);
          for (const cut of layout.voids) expect(cut, where).toBeLessThanOrEqual(0);
          await page.close();
        }
      }
    }
  });
});
