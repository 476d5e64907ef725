/**
 * The door on the real till, end to end (server, till build, Chromium, two
 * tills as two doors, a severable proxy between them and the server): tickets
 * bought through the API and paid on the hosted checkout's sandbox; a door
 * online shows the server's verdict; with the internet gone, a door admits a
 * ticket once and refuses it the second time, goes on scanning after a bad
 * code, and a second door, offline too, admits the same ticket. Back online,
 * each admission reaches the server once, and the double admission shows on
 * both doors with both doors and times, and in the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { eventually } from '../support/server.ts';
import { doorCounts, scanAtDoor } from '../support/door.ts';
import {
  goOnline,
  loseInternet,
  newTill,
  openTill,
  startTillShop,
  waitForUnsynced,
  type TillShop,
} from '../support/till-e2e.ts';
import { makeEvent, order, payOrder } from '../events/support.ts';

let shop: TillShop;

beforeAll(async () => {
  shop = await startTillShop();
}, 240_000);
afterAll(async () => {
  await shop?.close();
});

/** Opens the door on a till, once its event and `tickets` valid tickets are pulled. */
async function openDoor(page: Page, tickets: number) {
  await page.click('[data-testid=mode-door]', { timeout: 60_000 });
  await page.waitForSelector('[data-testid=door-screen]', { timeout: 30_000 });
  await eventually(
    async () => (await doorCounts(page)).remaining === tickets,
    60_000,
    `${tickets} tickets pulled`,
  );
}

describe('the door on the till', () => {
  it('admits a ticket once offline, goes on after a bad code, and shows a ticket two offline doors admitted on both', async () => {
    const now = Math.floor(Date.now() / 1000);
    const { event, tiers } = await makeEvent(shop.api, {
      name: 'Sauti za Busara',
      starts_at: now + 3600,
      ends_at: now + 6 * 3600,
      doors_open_at: now - 3600,
    });
    const paid = await payOrder(
      shop.server.url,
      shop.api,
      await order(shop.api, event.id, [{ tier: tiers[0]!, quantity: 4 }]),
    );
    const tickets = paid.tickets as Array<{ id: string; code: string; holder_name?: string }>;
    expect(tickets).toHaveLength(4);

    const north = await newTill(shop, 'Lango la Kaskazini');
    const south = await newTill(shop, 'Lango la Kusini');
    try {
      const errors: string[] = [];
      const [doorA, doorB] = await Promise.all([
        openTill(north.context, north.till.pairing_url, errors),
        openTill(south.context, south.till.pairing_url, errors),
      ]);
      await openDoor(doorA, 4);
      await openDoor(doorB, 4);

      // Online: the server's verdict, and the admission on the server at once.
      const online = await scanAtDoor(doorA, tickets[3]!.code);
      expect(online).toMatchObject({ verdict: 'ok', source: 'server' });
      const checked = (await shop.api.get(`/v1/events/tickets/${tickets[3]!.id}`)).body;
      expect(checked.checked_in).toMatchObject({ door: 'Lango la Kaskazini' });

      loseInternet(shop);
      // Offline (the server out of reach): the door's own verdict, within the wait and no more.
      const started = Date.now();
      const first = await scanAtDoor(doorA, tickets[0]!.code);
      expect(first).toMatchObject({ verdict: 'ok', source: 'door' });
      expect(Date.now() - started).toBeLessThan(5_000);
      const again = await scanAtDoor(doorA, tickets[0]!.code);
      expect(again.verdict).toBe('already_redeemed');
      expect(again.text).toContain('Lango la Kaskazini');
      // A bad code, then the door goes on.
      expect((await scanAtDoor(doorA, 'NOT-A-TICKET-0123456789')).verdict).toBe('invalid');
      expect((await scanAtDoor(doorA, tickets[1]!.code)).verdict).toBe('ok');
      // The server's online admission is known offline too.
      expect((await scanAtDoor(doorA, tickets[3]!.code)).verdict).toBe('already_redeemed');
      expect(await doorCounts(doorA)).toEqual({ here: 3, admitted: 3, remaining: 1 });

      // The other door, offline too, cannot know: it admits the same ticket.
      expect(await scanAtDoor(doorB, tickets[0]!.code)).toMatchObject({ verdict: 'ok', source: 'door' });

      await goOnline(shop, north.context);
      await Promise.all([waitForUnsynced(doorA, 0, 90_000), waitForUnsynced(doorB, 0, 90_000)]);
      // Within a minute of reconnecting, the double admission is on both doors, naming both.
      for (const page of [doorA, doorB]) {
        const shown = await page.waitForSelector(`[data-testid=door-double][data-ticket=${tickets[0]!.id}]`, {
          timeout: 60_000,
        });
        const text = (await shown.textContent()) ?? '';
        expect(text).toContain('Lango la Kaskazini');
        expect(text).toContain('Lango la Kusini');
      }
      // In the API: each ticket admitted once; the one admitted twice by the report that arrived first.
      const admittedBy = async (ticket: { id: string }) =>
        (await shop.api.get(`/v1/events/tickets/${ticket.id}`)).body.checked_in?.door as string | undefined;
      expect(['Lango la Kaskazini', 'Lango la Kusini']).toContain(await admittedBy(tickets[0]!));
      expect(await admittedBy(tickets[1]!)).toBe('Lango la Kaskazini');
      expect(await admittedBy(tickets[3]!)).toBe('Lango la Kaskazini');
      expect(await admittedBy(tickets[2]!)).toBeUndefined();
      // And the double admission itself, with both doors.
      const doubles = (await shop.api.get(`/v1/events/double-admissions?event=${event.id}`)).body
        .data as Array<{
        ticket: string;
        first: { door: string };
        door: string;
      }>;
      expect(doubles).toHaveLength(1);
      expect(doubles[0]!.ticket).toBe(tickets[0]!.id);
      expect([doubles[0]!.first.door, doubles[0]!.door].sort()).toEqual([
        'Lango la Kaskazini',
        'Lango la Kusini',
      ]);
      await eventually(
        async () => (await doorCounts(doorB)).admitted === 3,
        60_000,
        'door B counts the event',
      );
      expect(errors).toEqual([]);
    } finally {
      await north.context.close();
      await south.context.close();
    }
  });
});
