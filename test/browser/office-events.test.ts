/**
 * The back office's Events section in Chromium over a real server: an organiser
 * sets up an event entirely on the pages (the organizer, the event with a typo
 * refused naming its field, two tiers, one edited, a promo code) and publishes
 * it; orders bought through the API and paid on the sandbox's checkout show on
 * the orders page filtered by the buyer's phone, with their tickets; the sales
 * chart says what the API's sales say; deleting a tier with sales is refused in
 * a sentence; the check-in list shows two offline doors' double admission; canceling asks first, saying the paid orders are refunded, and
 * refunds them. Then
 * each page once in Swahili on a 360 px phone. axe-core on every page.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatEastAfricaTime } from '@tz/core/time';
import { newId } from '@tz/core';
import { applied, pairedDoor, report } from '../events/door-support.ts';
import { payOrder } from '../events/support.ts';
import { anotherMerchant } from '../support/merchant.ts';
import { officeInChromium, openOffice, seriousViolations, signInInBrowser } from '../support/office.ts';

const office = officeInChromium();

const DAY = 86_400_000;
/** A `datetime-local` field's text for a time `days` from now, in East Africa Time. */
const fieldTime = (days: number) => formatEastAfricaTime(new Date(Date.now() + days * DAY)).slice(0, 16);

async function tab(page: Page, name: string) {
  await page.click(`[data-testid=tab-${name}]`);
  await page.waitForSelector(`[data-testid=tab-${name}][aria-current=page]`);
}

/** The rows of a chart's table for screen readers: its day and its count. */
const chartRows = (page: Page, tier: string) =>
  page.$$eval(`[data-testid=tier-chart][data-tier=${tier}] tbody tr`, (rows) =>
    rows.map((row) => [row.querySelector('th')!.textContent, row.querySelector('td')!.textContent]),
  );

const ticketCount = (count: number) => (count === 1 ? '1 ticket' : `${count} tickets`);

/** Whether the page is wider than its window (a phone scrolling sideways). */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe('the events section', () => {
  it(
    'sets up and publishes an event, finds paid orders by phone, charts the sales and refuses deleting a sold tier',
    { timeout: 180_000 },
    async () => {
      const shop = await anotherMerchant(office.server, { business_name: 'Busara Promotions' });
      const { context, page } = await openOffice(office.browser, 'en');
      try {
        await signInInBrowser(page, office.server.url, shop.merchant);
        await page.click('[data-testid=nav-events]');
        await page.waitForSelector('[data-testid=events]');

        // The organizer.
        await tab(page, 'organizer');
        await page.fill('[data-testid=organizer-name]', 'Sauti za Busara');
        await page.fill('[data-testid=organizer-payout]', '0712 345 678');
        await page.fill('[data-testid=organizer-refunds]', 'Refunds until a week before the festival.');
        await page.click('[data-testid=save-organizer]');
        await page.waitForSelector('[data-testid=organizer-saved]');
        expect((await shop.api.get('/v1/events/organizer')).body).toMatchObject({
          display_name: 'Sauti za Busara',
          payout_phone: '255712345678',
          refund_policy: 'Refunds until a week before the festival.',
        });
        expect(await seriousViolations(page)).toEqual([]);

        // The event, its capacity mistyped first.
        await tab(page, 'events');
        await page.click('[data-testid=new-event]');
        await page.fill('[data-testid=event-name]', 'Sauti za Busara 2027');
        await page.fill('[data-testid=event-venue]', 'Old Fort, Stone Town');
        await page.fill('[data-testid=event-starts]', fieldTime(10));
        await page.fill('[data-testid=event-ends]', fieldTime(10.25));
        await page.fill('[data-testid=event-capacity]', '5OO');
        expect(await page.textContent('[data-testid=event-zone]')).toBe(
          'Times are in Africa/Dar_es_Salaam (UTC+03:00).',
        );
        await page.click('[data-testid=save-event]');
        expect(await page.textContent('[data-testid=event-form] [role=alert]')).toBe(
          'Check this: Capacity must be a whole number.',
        );
        await page.fill('[data-testid=event-capacity]', '500');
        await page.click('[data-testid=save-event]');
        await page.waitForURL(/\/office\/events\/events\/tev_/);
        const eventId = new URL(page.url()).pathname.split('/').at(-1)!;
        await page.waitForSelector('[data-testid=event-status][data-status=draft]');
        const created = (await shop.api.get(`/v1/events/${eventId}`)).body;
        expect(created).toMatchObject({
          name: 'Sauti za Busara 2027',
          capacity: 500,
          time_zone: 'Africa/Dar_es_Salaam',
          status: 'draft',
        });
        expect(formatEastAfricaTime(new Date(created.starts_at * 1000)).slice(0, 16)).toBe(fieldTime(10));
        expect(await seriousViolations(page)).toEqual([]);

        // Two tiers; the second's price and limit edited.
        for (const [name, price, quantity] of [
          ['VIP', '150,000', '50'],
          ['Regular', '30,000', '400'],
        ] as const) {
          await page.fill('[data-testid=tier-form] [data-testid=tier-name]', name);
          await page.fill('[data-testid=tier-form] [data-testid=tier-price]', price);
          await page.fill('[data-testid=tier-form] [data-testid=tier-quantity]', quantity);
          await page.click('[data-testid=save-tier]');
          await page.waitForSelector(`[data-testid=tier] >> text=${name}`);
        }
        await page.click('[data-testid=tier]:has-text("Regular") [data-testid=edit-tier]');
        expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('Regular');
        await page.fill('[data-testid=tier-price]', '25,000');
        await page.fill('[data-testid=tier-limit]', '6');
        await page.click('[data-testid=save-tier]');
        await page.waitForSelector('[data-testid=tier]:has-text("TZS 25,000")');
        const tiers = (await shop.api.get(`/v1/events/${eventId}`)).body.tiers as Array<{
          id: string;
          name: string;
        }>;
        expect(tiers).toMatchObject([
          { name: 'VIP', price: 150_000, quantity: 50, per_order_limit: 10 },
          { name: 'Regular', price: 25_000, quantity: 400, per_order_limit: 6 },
        ]);
        const [vip, regular] = tiers.map((tier) => tier.id) as [string, string];

        // A promo code of ten percent, five uses.
        await page.fill('[data-testid=promo-code]', 'BUSARA10');
        await page.fill('[data-testid=promo-value]', '10');
        await page.fill('[data-testid=promo-limit]', '5');
        await page.click('[data-testid=add-promo]');
        await page.waitForSelector('[data-testid=promo]:has-text("BUSARA10")');
        expect(await page.textContent('[data-testid=promo]')).toContain('10% off');
        expect(await page.textContent('[data-testid=promo]')).toContain('0 of 5');
        expect(await seriousViolations(page)).toEqual([]);

        // Published, after saying what it means.
        await page.click('[data-testid=publish-event]');
        expect(await page.textContent('[data-testid=event-move-dialog]')).toContain(
          'cannot go back to draft',
        );
        await page.click('[data-testid=confirm-move]');
        await page.waitForSelector('[data-testid=event-status][data-status=published]');
        expect((await shop.api.get(`/v1/events/${eventId}`)).body.status).toBe('published');

        // Two orders bought through the API and paid at their checkouts.
        const amina = await payOrder(
          office.server.url,
          shop.api,
          await shop.api.post('/v1/events/orders', {
            event: eventId,
            lines: [
              { tier: regular, quantity: 2 },
              { tier: vip, quantity: 1 },
            ],
            buyer: { name: 'Amina Juma', phone: '0754000111' },
            promo_code: 'busara10',
          }),
        );
        const baraka = await payOrder(
          office.server.url,
          shop.api,
          await shop.api.post('/v1/events/orders', {
            event: eventId,
            lines: [{ tier: vip, quantity: 2 }],
            buyer: { name: 'Baraka Mollel', phone: '0765111222' },
          }),
        );
        expect(amina.amount).toBe(180_000);

        // The orders page, filtered by Amina's phone as she wrote it.
        await tab(page, 'orders');
        await page.waitForSelector('[data-testid=order]');
        expect(await page.locator('[data-testid=order]').count()).toBe(2);
        await page.fill('[data-testid=filter-phone]', '+255 754 000 111');
        await page.click('[data-testid=apply-filters]');
        await expect.poll(() => page.locator('[data-testid=order]').count()).toBe(1);
        expect(await page.getAttribute('[data-testid=order]', 'data-id')).toBe(amina.id);
        expect(await page.textContent('[data-testid=order]')).toContain('TZS 180,000');
        expect(await seriousViolations(page)).toEqual([]);
        await page.click('[data-testid=order] a');
        await page.waitForSelector('[data-testid=ticket]');
        expect(
          await page.locator('[data-testid=ticket] [data-testid=ticket-status][data-status=valid]').count(),
        ).toBe(3);
        expect(await page.textContent('[data-testid=order-buyer]')).toBe('Amina Juma');
        expect(await seriousViolations(page)).toEqual([]);
        // A phone that is not one is refused naming the field.
        await tab(page, 'orders');
        await page.fill('[data-testid=filter-phone]', '12');
        await page.click('[data-testid=apply-filters]');
        await expect
          .poll(() => page.textContent('[data-testid=events] [role=alert]'))
          .toMatch(/^Check this: Buyer’s phone /);

        // Two doors offline admit Amina's first ticket, the north door Baraka's too: the check-in
        // list shows the north door's admissions, Amina's marked with the south door's.
        const north = await pairedDoor(office.server, shop.api, 'North gate');
        const south = await pairedDoor(office.server, shop.api, 'South gate');
        const now = Math.floor(Date.now() / 1000);
        const scan = (door: typeof north, ticket: { id: string; code: string }, at: number) =>
          door.push(
            report({
              scan: newId('scan'),
              event: eventId,
              ticket: ticket.id,
              code: ticket.code,
              door: door.name,
              at,
            }),
          );
        applied((await scan(north, amina.tickets[0], now - 120))[0]);
        applied((await scan(north, baraka.tickets[0], now - 90))[0]);
        expect(applied((await scan(south, amina.tickets[0], now - 60))[0])).toMatchObject({
          verdict: 'already_redeemed',
        });
        await tab(page, 'check-ins');
        await page.waitForSelector('[data-testid=checkin]');
        expect(await page.locator('[data-testid=checkin]').count()).toBe(2);
        const marked = page.locator(`[data-testid=checkin]:has-text("${amina.tickets[0].id}")`);
        expect(await marked.textContent()).toContain('North gate');
        expect(await marked.textContent()).toContain('Admitted twice');
        expect(await marked.locator('[data-testid=double-admission]').textContent()).toMatch(
          /^also at South gate, /,
        );
        expect(
          await page
            .locator(
              `[data-testid=checkin]:has-text("${baraka.tickets[0].id}") [data-testid=double-admission]`,
            )
            .count(),
        ).toBe(0);
        await page.fill('[data-testid=checkin-door]', 'South gate');
        await page.click('[data-testid=apply-checkin-filters]');
        await page.waitForSelector('[data-testid=checkin]', { state: 'detached' });
        expect(await page.textContent('[data-testid=events]')).toContain('No one admitted yet.');
        expect(await seriousViolations(page)).toEqual([]);

        // The sales chart says what the API says.
        await page.goto(`${office.server.url}/office/events/events/${eventId}`);
        await page.waitForSelector('[data-testid=tier-chart]');
        const sales = (await shop.api.get(`/v1/events/${eventId}/sales`)).body;
        expect(sales.total).toMatchObject({ orders: 2, tickets: 5, amount: amina.amount + baraka.amount });
        for (const tier of [vip, regular]) {
          expect(await chartRows(page, tier)).toEqual(
            sales.days.map((day: { date: string; tiers: Array<{ tier: string; tickets: number }> }) => [
              `${day.date.slice(8, 10)}/${day.date.slice(5, 7)}`,
              ticketCount(day.tiers.find((row) => row.tier === tier)?.tickets ?? 0),
            ]),
          );
          const total = sales.tiers.find((row: { tier: string }) => row.tier === tier).tickets;
          expect(
            await page.textContent(`[data-testid=sales-tier][data-tier=${tier}] [data-testid=sales-tickets]`),
          ).toBe(String(total));
        }
        expect(await page.textContent('[data-testid=sales-total-tickets]')).toBe('5');
        expect(await page.textContent('[data-testid=sales-amount]')).toBe(
          `TZS ${sales.total.amount.toLocaleString('en-US')}`,
        );
        expect(await page.textContent('[data-testid=promo]')).toContain('1 of 5');
        expect(await seriousViolations(page)).toEqual([]);

        // A tier with sales is not deleted: the refusal in a sentence.
        await page.click('[data-testid=tier]:has-text("VIP") [data-testid=delete-tier]');
        await page.click('[data-testid=delete-tier-dialog] [data-testid=confirm]');
        expect(await page.textContent('[data-testid=delete-tier-dialog] [role=alert]')).toBe(
          'This tier cannot be deleted: tickets of it are held or sold. Lower its quantity to what is sold, or end its sale window, instead.',
        );
        await page.keyboard.press('Escape');
        await page.waitForSelector('[data-testid=delete-tier-dialog]', { state: 'detached' });
        expect((await shop.api.get(`/v1/events/${eventId}`)).body.tiers).toHaveLength(2);

        // In Swahili on a phone: each page's words, once, without sideways scrolling.
        const phone = await openOffice(office.browser, 'sw', 360);
        try {
          await phone.page.context().addCookies(await context.cookies());
          const pages: Array<[string, string, string]> = [
            ['events', '[data-testid=event-list]', 'Tukio jipya'],
            [`events/${eventId}`, '[data-testid=tier-chart]', 'Mauzo kwa daraja'],
            ['events/new', '[data-testid=event-form]', 'Saa ziko kwa Africa/Dar_es_Salaam'],
            ['orders', '[data-testid=order-list]', 'Simu ya mnunuzi'],
            [`orders/${amina.id}`, '[data-testid=ticket-list]', 'Halali'],
            ['check-ins', '[data-testid=double-admission]', 'Imeingia mara mbili'],
            ['organizer', '[data-testid=organizer-form]', 'Sera ya kurudisha pesa'],
          ];
          for (const [path, ready, words] of pages) {
            await phone.page.goto(`${office.server.url}/office/events/${path}`);
            await phone.page.waitForSelector(ready);
            expect(await phone.page.textContent('[data-testid=events]'), path).toContain(words);
            expect(await overflows(phone.page), path).toBe(false);
            expect(await seriousViolations(phone.page), path).toEqual([]);
          }
        } finally {
          await phone.context.close();
        }

        // Canceling asks first, saying the paid orders are refunded; then they are.
        await page.click('[data-testid=cancel-event]');
        await expect
          .poll(() => page.textContent('[data-testid=event-move-dialog]'))
          .toContain('Its paid orders (2) are refunded in full');
        await page.click('[data-testid=confirm-move]');
        await page.waitForSelector('[data-testid=event-status][data-status=canceled]');
        expect((await shop.api.get(`/v1/events/${eventId}`)).body.status).toBe('canceled');
        const refunded = (await shop.api.get(`/v1/events/orders?event=${eventId}&status=refunded`)).body.data;
        expect(refunded.map((one: { id: string }) => one.id).sort()).toEqual([amina.id, baraka.id].sort());
      } finally {
        await context.close();
      }
    },
  );
});
