/**
 * The box office on the real till, end to end (server, till build, Chromium,
 * the virtual TCP printer through the local bridge, a severable proxy): with
 * the internet gone, the cashier sells two tickets at the counter from the
 * door (F6), takes cash, and the receipt prints each ticket with its QR code;
 * the door of the same till admits one of them at once and refuses it the
 * second time. Back online, the sale reaches the server once, as a paid order
 * of the till's channel whose tickets hold the printed codes, this door's
 * admission with it, and another door admits the other ticket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/server.ts';
import { scanAtDoor } from '../support/door.ts';
import {
  goOnline,
  loseInternet,
  newTill,
  openTill,
  startTillShop,
  waitForUnsynced,
  type TillShop,
} from '../support/till-e2e.ts';
import { typeTimed } from '../support/keyboard.ts';
import { makeEvent } from '../events/support.ts';

let shop: TillShop;

beforeAll(async () => {
  shop = await startTillShop();
}, 240_000);
afterAll(async () => {
  await shop?.close();
});

describe('the box office on the till', () => {
  it('sells two tickets offline, prints their QR codes, admits one at this door at once, and syncs them as a paid order', async () => {
    const now = Math.floor(Date.now() / 1000);
    const { event } = await makeEvent(shop.api, {
      name: 'Sauti za Busara',
      venue: 'Ngome Kongwe',
      starts_at: now + 3600,
      ends_at: now + 6 * 3600,
      doors_open_at: now - 3600,
      tiers: [{ name: 'Mlangoni', price: 15_000, quantity: 10 }],
    });
    const { till, context } = await newTill(shop, 'Lango Kuu');
    try {
      const errors: string[] = [];
      const page = await openTill(context, till.pairing_url, errors);
      await page.click('[data-testid=mode-door]', { timeout: 60_000 });
      await page.waitForSelector('[data-testid=door-screen]', { timeout: 30_000 });
      await page.keyboard.press('F6');
      // The tier comes down with what is left of it.
      await page.waitForSelector('[data-testid=box-office-tier] >> text=/Zimebaki 10/', { timeout: 60_000 });

      loseInternet(shop);
      const before = shop.printer.jobs.length;
      await page.click('[data-testid=box-office-more]');
      await page.click('[data-testid=box-office-more]');
      expect(await page.textContent('[data-testid=box-office-total]')).toBe('TZS 30,000');
      await page.keyboard.press('F10');
      await page.waitForSelector('[data-testid=cash-given]:focus', { timeout: 30_000 });
      await typeTimed(page, '40000', 100);
      await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
      expect(await page.textContent('[data-testid=change-due]')).toBe('TZS 10,000');

      // The receipt, as the printer decoded it: the sale, then each ticket with its QR.
      const [receipt] = (await shop.printer.waitForJobs(before + 1, 30_000)).slice(before);
      expect(receipt!.text).toContain('Sauti za Busara: Mlangoni');
      expect(receipt!.text.replace(/ /g, '')).toContain('TIKETI1/2');
      expect(receipt!.text.replace(/ /g, '')).toContain('TIKETI2/2');
      const codes = [...receipt!.text.matchAll(/\[QR[^:\]]*: ([A-Za-z0-9_-]+)\]/g)].map((match) => match[1]!);
      expect(codes).toHaveLength(2);
      for (const code of codes) expect(code).toHaveLength(66);

      // This till's door, still offline, admits a ticket it sold, once.
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-testid=sale-done]', { state: 'detached' });
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid=door-screen]', { timeout: 30_000 });
      const first = await scanAtDoor(page, codes[0]!);
      expect(first).toMatchObject({ verdict: 'ok', source: 'door' });
      expect((await scanAtDoor(page, codes[0]!)).verdict).toBe('already_redeemed');

      await goOnline(shop, context);
      await waitForUnsynced(page, 0, 90_000);
      const order = await eventually(async () => {
        const found = await shop.api.get(`/v1/events/orders?event=${event.id}`);
        return found.body.data?.[0];
      }, 60_000);
      expect(order).toMatchObject({ status: 'paid', channel: 'till', amount: 30_000, oversold: false });
      expect(order.till).toMatchObject({ id: till.id });
      const tickets = order.tickets as Array<{ id: string; code: string; status: string }>;
      expect(tickets.map((ticket) => ticket.code).sort()).toEqual([...codes].sort());
      const admitted = tickets.find((ticket) => ticket.code === codes[0])!;
      const checked = (await shop.api.get(`/v1/events/tickets/${admitted.id}`)).body;
      expect(checked.checked_in).toMatchObject({ door: 'Lango Kuu' });
      // Another door, once synced, admits the other ticket.
      const other = await shop.api.post('/v1/events/checkin', {
        event: event.id,
        code: codes[1],
        door: 'Kusini',
      });
      expect(other.body.verdict).toBe('ok');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});
