/**
 * The hotel front desk on the real till, end to end (server, till build,
 * Chromium, the printer bridge and a virtual network printer): a guest booked
 * through the API is checked in online, the registration card printed; then,
 * with the server cut off (a severed proxy, the printer bridge on the counter
 * still reachable), a
 * walk-in is booked from the desk's quote, checked in with a deposit, the
 * first guest checked out with the folio slip printed, and a walk-in booked
 * into a room the server gave away meanwhile. Back online, everything the
 * desk did is on the server once, and the room given twice is a conflict on
 * the desk, never two guests in one room.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays } from '@tz/core/hospitality/stay';
import { eastAfricaDate } from '@tz/core/time';
import { makeRoomType } from '../hospitality/support.ts';
import { eventually } from '../support/server.ts';
import {
  loseInternet,
  goOnline,
  newTill,
  openTill,
  startTillShop,
  waitForUnsynced,
  type TillShop,
} from '../support/till-e2e.ts';

let shop: TillShop;

beforeAll(async () => {
  shop = await startTillShop();
}, 240_000);
afterAll(async () => {
  await shop?.close();
});

const RATE = 80_000;

async function fillGuest(page: Page, name: string, passport: string) {
  const field = (key: string) => `[data-testid=check-in] [data-testid=guest-0-${key}]`;
  await page.fill(field('name'), name);
  await page.fill(field('nationality'), 'KE');
  await page.selectOption(field('id_type'), 'passport');
  await page.fill(field('id_number'), passport);
  await page.fill(field('id_country'), 'KE');
  await page.fill(field('arriving_from'), 'Nairobi');
  await page.fill(field('going_to'), 'Zanzibar');
}

const squeezed = (text: string) => text.replace(/\s+/g, '');

/** The text of the first job the virtual printer received holding `words` (spaces aside: titles print spaced out). */
const printedWith = (words: string) =>
  eventually(
    () =>
      Promise.resolve(shop.printer.jobs.find((job) => squeezed(job.text).includes(squeezed(words)))?.text),
    30_000,
    `a printed job with ${words}`,
  );

const roomState = (page: Page, number: string, state: string) =>
  page.waitForSelector(`[data-testid=room][data-room="${number}"][data-state=${state}]`, { timeout: 30_000 });

describe('the front desk on the till', () => {
  it('checks guests in and out online and offline, prints their cards and folios, and shows a room given twice as a conflict', async () => {
    const today = eastAfricaDate(new Date());
    await shop.api.patch('/v1/hospitality/property', { name: 'Neema Lodge' });
    const { roomType, rooms } = await makeRoomType(shop.api, { name: 'Double', base_rate: RATE, rooms: 3 });
    const roomNumbers = await Promise.all(
      rooms.map(async (id) => (await shop.api.get(`/v1/hospitality/rooms/${id}`)).body.number as string),
    );
    // Amina was due yesterday and comes today, for two nights: whatever the hour the test runs at,
    // yesterday's night is due when she leaves (a night falls due at the check-in time of its date).
    const booked = await shop.api.post('/v1/hospitality/reservations', {
      room_type: roomType.id,
      arrival: addDays(today, -1),
      departure: addDays(today, 1),
      guest: { name: 'Amina Juma', phone: '0712345678' },
    });
    expect(booked.status).toBe(201);

    const { till, context } = await newTill(shop);
    try {
      const errors: string[] = [];
      const page = await openTill(context, till.pairing_url, errors);
      await page.click('[data-testid=mode-desk]', { timeout: 60_000 });
      await page.waitForSelector(`[data-testid=desk-arrivals] [data-reservation=${booked.body.id}]`, {
        timeout: 60_000,
      });
      // Due yesterday: listed among the arrivals as not come yet.
      await page.waitForSelector(
        `[data-testid=desk-arrivals] [data-reservation=${booked.body.id}] [data-testid=desk-overdue]`,
      );

      // Online: Amina checks in to the first room, her card printed.
      const printedBefore = shop.printer.jobs.length;
      await page.click(`[data-testid=desk-stay][data-reservation=${booked.body.id}]`);
      await page.keyboard.press('F3');
      await page.waitForSelector('[data-testid=check-in]');
      await page.selectOption('[data-testid=check-in-room]', rooms[0]!);
      await fillGuest(page, 'Amina Juma', 'P1234567');
      await page.click('[data-testid=check-in-confirm]');
      await roomState(page, roomNumbers[0]!, 'occupied');
      const [card] = (await shop.printer.waitForJobs(printedBefore + 1, 30_000)).slice(printedBefore);
      // The title is printed double width, its letters spaced out.
      expect(squeezed(card!.text)).toContain('KADIYAUSAJILI');
      expect(card!.text).toContain('P1234567');
      await waitForUnsynced(page, 0, 60_000);
      await eventually(async () => {
        const stay = (await shop.api.get(`/v1/hospitality/reservations/${booked.body.id}`)).body;
        return stay.status === 'checked_in' && stay.room === rooms[0];
      }, 30_000);

      // Offline from here: the server out of reach, the counter's printer still there.
      loseInternet(shop);

      // A walk-in for one night, from the desk's own quote, into the second room.
      await page.keyboard.press('F2');
      await page.waitForSelector('[data-testid=walk-in]');
      await page.fill('[data-testid=walk-in-name]', 'Baraka Mushi');
      await page.fill('[data-testid=walk-in-nights]', '1');
      await page.waitForSelector('[data-testid=walk-in-total]');
      const quoted = await page.textContent('[data-testid=walk-in-total]');
      await page.selectOption('[data-testid=walk-in-room]', rooms[1]!);
      await page.click('[data-testid=walk-in-book]');
      await page.waitForSelector('[data-testid=walk-in]', { state: 'detached' });
      await roomState(page, roomNumbers[1]!, 'arriving');

      // Checked in with a 50,000 deposit and his card printed, all offline.
      await page.click('[data-testid=desk-arrivals] [data-testid=desk-stay] >> text=Baraka Mushi');
      await page.keyboard.press('F3');
      await page.waitForSelector('[data-testid=check-in]');
      await fillGuest(page, 'Baraka Mushi', 'P7654321');
      await page.fill('[data-testid=check-in-deposit-shillings]', '50000');
      await page.click('[data-testid=check-in-confirm]');
      await roomState(page, roomNumbers[1]!, 'occupied');
      // The deposit opens the drawer too, a job of its own, in either order with the card.
      expect(await printedWith('P7654321')).toContain('Baraka Mushi');

      // Amina leaves a night early: yesterday's night is due, paid in cash, and her folio slip printed.
      await page.click(`[data-testid=desk-stay][data-reservation=${booked.body.id}]`);
      await page.keyboard.press('F4');
      await page.waitForSelector('[data-testid=check-out]');
      const owed = await page.textContent('[data-testid=check-out-balance]');
      expect(owed).toMatch(/[1-9]/);
      await page.click('[data-testid=check-out-confirm]');
      await roomState(page, roomNumbers[0]!, 'vacant_dirty');
      const folio = await printedWith('HESABUYAMGENI');
      expect(folio).toContain('Amina Juma');

      // Meanwhile the back office gives the third room to a guest for tonight; the desk, not knowing,
      // books a walk-in into it.
      const elsewhere = await shop.api.post('/v1/hospitality/reservations', {
        room_type: roomType.id,
        room: rooms[2],
        arrival: today,
        departure: addDays(today, 1),
        guest: { name: 'Mgeni wa Simu' },
      });
      expect(elsewhere.status).toBe(201);
      await page.keyboard.press('F2');
      await page.waitForSelector('[data-testid=walk-in]');
      await page.fill('[data-testid=walk-in-name]', 'Zawadi Ally');
      await page.fill('[data-testid=walk-in-nights]', '1');
      await page.selectOption('[data-testid=walk-in-room]', rooms[2]!);
      await page.click('[data-testid=walk-in-book]');
      await page.waitForSelector('[data-testid=walk-in]', { state: 'detached' });
      await roomState(page, roomNumbers[2]!, 'arriving');
      expect(
        (await shop.api.get(`/v1/hospitality/reservations?limit=100`)).body.data.map(
          (stay: { guest: { name: string } }) => stay.guest.name,
        ),
      ).not.toContain('Baraka Mushi');

      // Back online: what the desk did arrives once; the room given twice comes back as a conflict.
      await goOnline(shop, context);
      await page.waitForSelector('[data-testid=desk-conflict]', { timeout: 60_000 });
      const conflict = await page.textContent('[data-testid=desk-conflict]');
      expect(conflict).toContain('Zawadi Ally');
      expect(conflict).toContain(roomNumbers[2]!);

      const list = await eventually(async () => {
        const all = (await shop.api.get(`/v1/hospitality/reservations?limit=100`)).body.data as Array<{
          id: string;
          status: string;
          room: string | null;
          total: number;
          guest: { name: string };
        }>;
        const amina = all.find((stay) => stay.id === booked.body.id);
        return amina?.status === 'checked_out' && all.some((stay) => stay.guest.name === 'Baraka Mushi')
          ? all
          : undefined;
      }, 60_000);
      const baraka = list.filter((stay) => stay.guest.name === 'Baraka Mushi');
      expect(baraka).toHaveLength(1);
      expect(baraka[0]).toMatchObject({ status: 'checked_in', room: rooms[1] });
      expect(quoted).toContain(baraka[0]!.total.toLocaleString('en-US'));
      const folioOf = async (id: string) =>
        (await shop.api.get(`/v1/hospitality/reservations/${id}/folio`)).body as {
          balance: number;
          lines: Array<{ kind: string; amount: number }>;
        };
      const barakaFolio = await folioOf(baraka[0]!.id);
      expect(barakaFolio.lines.filter((line) => line.kind === 'deposit').map((l) => l.amount)).toEqual([
        -50_000,
      ]);
      expect((await folioOf(booked.body.id)).balance).toBe(0);
      const guests = (await shop.api.get(`/v1/hospitality/reservations/${baraka[0]!.id}/guests`)).body.data;
      expect(guests.map((guest: { id_number: string }) => guest.id_number)).toEqual(['P7654321']);
      // Zawadi's booking was refused whole: the third room is the phone guest's alone.
      expect(list.filter((stay) => stay.guest.name === 'Zawadi Ally')).toHaveLength(0);
      const third = list.filter((stay) => stay.room === rooms[2]);
      expect(third.map((stay) => stay.guest.name)).toEqual(['Mgeni wa Simu']);
      await waitForUnsynced(page, 0, 60_000);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);
});
