/**
 * The back office's Orders and Shifts tabs in Chromium over a real server, in
 * Swahili and English: two tills' sales by two cashiers filtered by till and
 * by cashier, and a closed shift's Z report showing the figures
 * `GET /v1/retail/shifts/{id}` answers; axe-core on both tabs.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createOrderCommand, newId } from '@tz/core';
import type { TillActor } from '../../apps/server/src/actor.ts';
import { tillSaleInput } from '../../apps/server/src/retail/orders.ts';
import { anotherMerchant } from '../support/merchant.ts';
import { officeInChromium, openOffice, seriousViolations, signInInBrowser } from '../support/office.ts';
import { makeProduct } from '../support/retail.ts';
import { inTransaction, makeEmployee, pairedTill } from '../support/tills.ts';

const office = officeInChromium();

const now = () => Math.floor(Date.now() / 1000);

/** A till's sale as the sync router applies it: named by the till's and cashier's ids, one transaction. */
const tillSale = (actor: TillActor, cashier: string, body: Record<string, unknown>) =>
  inTransaction(office.server, async (tx) =>
    office.server.services.orders.create(
      tx,
      actor,
      await tillSaleInput(tx, actor, {
        ...createOrderCommand.parse({ client_order_id: `till-${crypto.randomUUID()}`, ...body }),
        till_id: actor.tillId,
        cashier_id: cashier,
      }),
    ),
  );

/** Money as the page shows it ("TSh 58,000", "−TSh 500") read back as an integer. */
const amountIn = (text: string | null) => {
  const digits = (text ?? '').replace(/[^\d−-]/g, '').replace('−', '-');
  return digits === '' ? null : Number(digits);
};

const receipts = (page: Page) => page.locator('[data-testid=order] th').allTextContents();

describe.each(['sw', 'en'] as const)('in %s', (language) => {
  it(
    'filters orders by till and by cashier, and shows a shift’s Z report as the API answers it',
    { timeout: 180_000 },
    async () => {
      const shop = await anotherMerchant(office.server, { business_name: `Duka la zamu ${language}` });
      const first = await pairedTill(office.server, shop.api, { name: 'Kaunta ya Mbele' });
      const second = await pairedTill(office.server, shop.api, { name: 'Kaunta ya Nyuma' });
      const neema = await makeEmployee(shop.api, [first.till.store], { name: 'Neema Mushi' });
      const juma = await makeEmployee(shop.api, [first.till.store], { name: 'Juma Ally' });
      const product = await makeProduct(shop.api, { name: 'Mkate', price: 4_000, track_stock: false });

      // A shift at the first till: Neema sells 2 for cash and counts 500 short.
      const shift = newId('shift');
      await inTransaction(office.server, (db) =>
        office.server.services.shifts.open(db, first.actor, {
          shift,
          cashier: neema.id,
          opening_float: 50_000,
          opened_at: now(),
        }),
      );
      const atFront = await tillSale(first.actor, neema.id, {
        shift,
        lines: [{ product: product.id, quantity: 2 }],
        tenders: [{ method: 'cash', amount: 10_000 }],
      });
      await inTransaction(office.server, (db) =>
        office.server.services.shifts.close(db, first.actor, {
          shift,
          counted: [{ method: 'cash', amount: 57_500 }],
          closed_at: now(),
        }),
      );
      // Juma sells 1 at the second till, outside any shift.
      const atBack = await tillSale(second.actor, juma.id, {
        lines: [{ product: product.id, quantity: 1 }],
        tenders: [{ method: 'card', amount: 4_000, reference: 'AUTH-7' }],
      });
      const front = atFront.order.receipt_number;
      const back = atBack.order.receipt_number;

      const { context, page } = await openOffice(office.browser, language);
      try {
        await signInInBrowser(page, office.server.url, shop.merchant);
        await page.goto(`${office.server.url}/office/retail/orders`);
        await expect.poll(() => receipts(page), { timeout: 30_000 }).toEqual([back, front]);
        // Till and cashier read as names once the choices load.
        await expect
          .poll(() => page.locator('[data-testid=order]').first().textContent())
          .toContain('Kaunta ya Nyuma');
        expect(await page.locator('[data-testid=order]').first().textContent()).toContain('Juma Ally');

        await page.selectOption('[data-testid=orders-till]', { label: 'Kaunta ya Mbele' });
        await expect.poll(() => receipts(page)).toEqual([front]);
        expect(await page.locator('[data-testid=order]').textContent()).toContain('Neema Mushi');
        await page.selectOption('[data-testid=orders-till]', { label: 'Kaunta ya Nyuma' });
        await expect.poll(() => receipts(page)).toEqual([back]);

        await page.selectOption('[data-testid=orders-till]', { index: 0 });
        await page.selectOption('[data-testid=orders-cashier]', { label: 'Juma Ally' });
        await expect.poll(() => receipts(page)).toEqual([back]);
        await page.selectOption('[data-testid=orders-cashier]', { label: 'Neema Mushi' });
        await expect.poll(() => receipts(page)).toEqual([front]);
        // The first till's sales by Juma: none.
        await page.selectOption('[data-testid=orders-till]', { label: 'Kaunta ya Mbele' });
        await page.selectOption('[data-testid=orders-cashier]', { label: 'Juma Ally' });
        await page.waitForSelector(`text=${language === 'en' ? 'No orders.' : 'Hakuna mauzo.'}`);
        expect(await seriousViolations(page)).toEqual([]);

        await page.goto(`${office.server.url}/office/retail/shifts`);
        await page.waitForSelector('[data-testid=shift] >> text=Kaunta ya Mbele');
        expect(await page.textContent('[data-testid=shift]')).toContain('Neema Mushi');
        await page.click('[data-testid=shift] a');
        await page.waitForURL(new RegExp(`/office/retail/shifts/${shift}$`));
        await page.waitForSelector('[data-testid=shift-report] tbody tr');
        expect(await seriousViolations(page)).toEqual([]);

        const api = (await shop.api.get(`/v1/retail/shifts/${shift}`)).body;
        const report = api.report;
        expect(report).toMatchObject({ order_count: 1, sales_total: 8_000, difference_total: -500 });
        const facts = await page
          .locator('[data-testid=shift-report] dl.facts')
          .nth(1)
          .locator('dd')
          .allTextContents();
        expect(facts.map(amountIn)).toEqual([
          report.order_count,
          report.voided_count,
          report.sales_total,
          report.refunds_total,
        ]);
        const rows = await page.$$eval('[data-testid=shift-report] tbody tr', (found) =>
          found.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)),
        );
        const columns = [
          'float',
          'sales',
          'refunds',
          'pay_ins',
          'pay_outs',
          'desk',
          'expected',
          'counted',
          'difference',
        ];
        expect(rows.slice(0, -1).map((cells) => cells.map(amountIn))).toEqual(
          report.lines.map((line: Record<string, number | null>) => columns.map((column) => line[column])),
        );
        expect(rows.at(-1)!.slice(-3).map(amountIn)).toEqual([
          report.expected_total,
          report.counted_total,
          report.difference_total,
        ]);
      } finally {
        await context.close();
      }
    },
  );
});
