/**
 * The back office's Hospitality section in Chromium over a real server: a
 * property set up entirely on the pages (its details, a room type with a rate,
 * two rooms), a stay booked from the quote the API priced, seen on the
 * calendar and dragged to the other room, a blackout over it refused with a
 * sentence naming the reservation, the guest checked in and out; in Swahili at
 * 360 px every tab over a property made through the API, and the section gone
 * from the navigation once the app is removed. axe-core on every page.
 */
import type { Clock } from '../../apps/server/src/infra/clock.ts';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays } from '@tz/core/hospitality/stay';
import { eastAfricaDate } from '@tz/core/time';
import { book, makeRoomType } from '../hospitality/support.ts';
import { anotherMerchant } from '../support/merchant.ts';
import { officeInChromium, openOffice, seriousViolations, signInInBrowser } from '../support/office.ts';

/**
 * A night falls due at the property's check-in time (14:00). The server's clock is never earlier
 * than 15:00 of the real day in Dar es Salaam, so a check-out owes tonight at whatever hour the
 * test runs (the browser's day is the same day).
 */
const afterCheckInTime: Clock = {
  now: () => {
    const real = new Date();
    const afternoon = new Date(`${eastAfricaDate(real)}T15:00:00+03:00`);
    return real < afternoon ? afternoon : real;
  },
};
const office = officeInChromium({ clock: afterCheckInTime });

const tzs = (amount: number) => `TZS ${amount.toLocaleString('en-US')}`;

async function tab(page: Page, name: string) {
  await page.click(`[data-testid=tab-${name}]`);
  await page.waitForSelector(`[data-testid=tab-${name}][aria-current=page]`);
}

describe('the hospitality section', () => {
  it(
    'sets up a property, books a stay from its quote, moves it on the calendar, meets a blackout over it and checks the guest in and out',
    { timeout: 180_000 },
    async () => {
      const shop = await anotherMerchant(office.server, { business_name: 'Kilimanjaro Lodge' });
      const { context, page } = await openOffice(office.browser, 'en');
      const today = eastAfricaDate(new Date());
      try {
        await signInInBrowser(page, office.server.url, shop.merchant);
        await page.click('[data-testid=nav-hospitality]');
        await page.waitForSelector('[data-testid=hospitality-today]');
        expect(await seriousViolations(page)).toEqual([]);

        // The property.
        await tab(page, 'property');
        await page.fill('[data-testid=property-name]', 'Kilimanjaro View Lodge');
        await page.fill('[data-testid=property-phone]', '+255 754 000 111');
        await page.fill('[data-testid=property-address]', 'Plot 12, Lema Road\nArusha');
        await page.fill('[data-testid=property-check-in]', '13:00');
        await page.selectOption('[data-testid=property-stars]', '3');
        expect(await page.textContent('[data-testid=levy-defaults]')).toContain(
          'Tourism development levy: default 1 %',
        );
        await page.fill('[data-testid=property-vat]', '18,5O');
        await page.click('[data-testid=save-property]');
        expect(await page.textContent('[data-testid=property-form] [role=alert]')).toBe(
          'Check this: VAT must be a percentage such as 12 or 1.5.',
        );
        await page.fill('[data-testid=property-vat]', '');
        await page.click('[data-testid=save-property]');
        await page.waitForSelector('[data-testid=property-saved]');
        expect((await shop.api.get('/v1/hospitality')).body.property).toMatchObject({
          name: 'Kilimanjaro View Lodge',
          phone: '+255 754 000 111',
          address_lines: ['Plot 12, Lema Road', 'Arusha'],
          check_in_time: '13:00',
          star_rating: 3,
          vat_bps: null,
        });
        expect(await seriousViolations(page)).toEqual([]);

        // A room type with a rate for tonight.
        await tab(page, 'room-types');
        await page.click('[data-testid=new-room-type]');
        await page.fill('[data-testid=room-type-name]', 'Double');
        await page.fill('[data-testid=room-type-rate]', '120,000');
        await page.click('[data-testid=save-room-type]');
        await page.waitForURL(/\/office\/hospitality\/room-types\/rt_/);
        await page.waitForSelector('[data-testid=rates]');
        await page.fill('[data-testid=rate-from]', today);
        await page.fill('[data-testid=rate-to]', today);
        await page.fill('[data-testid=rate-price]', '150,000');
        await page.click('[data-testid=add-rate]');
        await page.waitForSelector('[data-testid=rate]');
        const [roomType] = (await shop.api.get('/v1/hospitality/room-types')).body.data;
        expect(roomType).toMatchObject({ name: 'Double', base_rate: 120_000 });
        expect(roomType.rates).toMatchObject([
          { starts_on: today, ends_on: today, rate: 150_000, days_of_week: null },
        ]);
        expect(await seriousViolations(page)).toEqual([]);

        // Two rooms on the first floor.
        await tab(page, 'rooms');
        for (const number of ['101', '102']) {
          await page.fill('[data-testid=room-number]', number);
          await page.fill('[data-testid=room-floor]', '1');
          await page.click('[data-testid=save-room]');
          await page.waitForSelector(`[data-testid=room] >> text=${number}`);
        }
        const rooms = (await shop.api.get('/v1/hospitality/rooms')).body.data as Array<{
          id: string;
          number: string;
        }>;
        const roomId = (number: string) => rooms.find((room) => room.number === number)!.id;
        expect(rooms.map((room) => room.number).sort()).toEqual(['101', '102']);
        expect(await seriousViolations(page)).toEqual([]);

        // A stay of two nights, priced by the API before it is booked.
        await tab(page, 'reservations');
        await page.click('[data-testid=new-reservation]');
        await page.fill('[data-testid=stay-arrival]', today);
        await page.fill('[data-testid=stay-departure]', addDays(today, 2));
        await page.click('[data-testid=check-availability]');
        await page.waitForSelector('[data-testid=offer]');
        const priced = (
          await shop.api.get(
            `/v1/hospitality/availability?arrival=${today}&departure=${addDays(today, 2)}&adults=2`,
          )
        ).body.data[0];
        expect(priced.free_rooms).toBe(2);
        expect(await page.textContent('[data-testid=free-rooms]')).toBe('2 free');
        expect(await page.textContent('[data-testid=quote-room-charge]')).toBe(tzs(270_000));
        expect(await page.textContent('[data-testid=quote-vat]')).toBe(tzs(priced.quote.vat.amount));
        expect(await page.textContent('[data-testid=quote-total]')).toBe(tzs(priced.quote.total));
        expect(await page.textContent('[data-testid=quote-levy]')).toContain(tzs(2_700));
        await page.click('[data-testid=choose-offer]');
        await page.fill('[data-testid=guest-name]', 'Amina Juma');
        await page.fill('[data-testid=guest-phone]', '0712345678');
        await page.selectOption('[data-testid=guest-room]', { label: '101' });
        expect(await seriousViolations(page)).toEqual([]);
        await page.click('[data-testid=book]');
        await page.waitForURL(/\/office\/hospitality\/reservations\/resv_/);
        const id = new URL(page.url()).pathname.split('/').at(-1)!;
        await page.waitForSelector('[data-testid=stay-status][data-status=confirmed]');
        expect((await shop.api.get(`/v1/hospitality/reservations/${id}`)).body).toMatchObject({
          status: 'confirmed',
          room: roomId('101'),
          total: priced.quote.total,
        });
        expect(await page.textContent('[data-testid=stay-quote] [data-testid=quote-total]')).toBe(
          tzs(priced.quote.total),
        );
        expect(await seriousViolations(page)).toEqual([]);

        // On the calendar in room 101, then dragged to room 102.
        await tab(page, 'calendar');
        const bar = page.locator(
          `[data-testid=calendar-row][data-room=${roomId('101')}] [data-testid=calendar-stay]`,
        );
        await bar.waitFor();
        expect(await bar.getAttribute('data-id')).toBe(id);
        expect(await seriousViolations(page)).toEqual([]);
        const from = (await bar.boundingBox())!;
        const to = (await page
          .locator(`[data-testid=calendar-row][data-room=${roomId('102')}]`)
          .boundingBox())!;
        await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
        await page.mouse.down();
        await page.mouse.move(from.x + from.width / 2, to.y + to.height / 2, { steps: 8 });
        await page.mouse.up();
        await page
          .locator(
            `[data-testid=calendar-row][data-room=${roomId('102')}] [data-testid=calendar-stay][data-id=${id}]`,
          )
          .waitFor();
        expect(new URL(page.url()).pathname).toBe('/office/hospitality/calendar');
        expect((await shop.api.get(`/v1/hospitality/reservations/${id}`)).body.room).toBe(roomId('102'));

        // Closing room 102 tonight is refused, naming the stay.
        await tab(page, 'blackouts');
        await page.selectOption('[data-testid=blackout-scope]', 'room');
        await page.selectOption('[data-testid=blackout-target]', { label: '102 · Double' });
        await page.fill('[data-testid=blackout-from]', today);
        await page.fill('[data-testid=blackout-to]', today);
        await page.fill('[data-testid=blackout-reason]', 'Painting');
        await page.click('[data-testid=create-blackout]');
        await page.waitForSelector('[data-testid=in-the-way] >> text=Amina Juma');
        expect(await page.textContent('[data-testid=blackout-error] [role=alert]')).toBe(
          `Reservations hold rooms there: ${id}. Move or cancel them first.`,
        );
        expect((await shop.api.get('/v1/hospitality/blackouts')).body.data).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
        // Room 101 is free: closing it works, and the calendar shows the closed night.
        await page.selectOption('[data-testid=blackout-target]', { label: '101 · Double' });
        await page.click('[data-testid=create-blackout]');
        await page.waitForSelector('[data-testid=blackout] >> text=Painting');

        // Checked in and out from the stay's page, opened from the calendar.
        await tab(page, 'calendar');
        await page.waitForSelector(
          `[data-testid=calendar-row][data-room=${roomId('101')}] [data-testid=calendar-closed]`,
        );
        await page.click(`[data-testid=calendar-stay][data-id=${id}] a`);
        await page.waitForURL(`**/office/hospitality/reservations/${id}`);
        // Check-in asks for the guest register's entry; a missing document number is named.
        await page.click('[data-testid=check-in]');
        await page.waitForSelector('[data-testid=check-in-dialog]');
        await page.fill('[data-testid=guest-from]', 'Dodoma');
        await page.fill('[data-testid=guest-to]', 'Arusha');
        await page.click('[data-testid=check-in-confirm]');
        await page.waitForSelector('[data-testid=check-in-dialog] >> text=/Document number/');
        await page.fill('[data-testid=guest-id-number]', '19800101-12345-00001-22');
        await page.click('[data-testid=check-in-confirm]');
        await page.waitForSelector('[data-testid=stay-status][data-status=checked_in]');
        const registered = (await shop.api.get(`/v1/hospitality/reservations/${id}/guests`)).body.data;
        expect(registered).toMatchObject([
          { nationality: 'TZ', id_type: 'national_id', arriving_from: 'Dodoma' },
        ]);
        // Check-out settles the folio first: the balance taken in cash, then the guest leaves.
        // Tonight is posted by the check-out itself, so the first try is refused naming what is owed.
        await page.click('[data-testid=check-out]');
        await page.waitForSelector('[data-testid=folio-balance]');
        await page.click('[data-testid=check-out-confirm]');
        await page.waitForSelector('[data-testid=check-out-dialog] >> text=/still owed/');
        await page.waitForSelector('[data-testid=settle-cash]');
        await page.click('[data-testid=settle-cash]');
        await page.waitForSelector('[data-testid=settle-cash]', { state: 'detached' });
        await page.click('[data-testid=check-out-confirm]');
        await page.waitForSelector('[data-testid=stay-status][data-status=checked_out]');
        const folio = (await shop.api.get(`/v1/hospitality/reservations/${id}/folio`)).body;
        expect(folio.balance).toBe(0);
        expect((await shop.api.get(`/v1/hospitality/reservations/${id}`)).body.status).toBe('checked_out');
        const room = (await shop.api.get(`/v1/hospitality/rooms/${roomId('102')}`)).body;
        expect(room.housekeeping).toBe('dirty');

        // The list, filtered by status.
        await tab(page, 'reservations');
        await page.selectOption('[data-testid=filter-status]', 'confirmed');
        await page.click('[data-testid=apply-filters]');
        await page.waitForSelector('text=No reservations.');
        await page.selectOption('[data-testid=filter-status]', 'checked_out');
        await page.click('[data-testid=apply-filters]');
        await page.waitForSelector('[data-testid=reservation] >> text=Amina Juma');
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it(
    'books day use: a day, the time it starts and its hours, priced by the API',
    { timeout: 120_000 },
    async () => {
      const shop = await anotherMerchant(office.server, { business_name: 'Mapumziko ya Mchana' });
      const day = addDays(eastAfricaDate(new Date()), 1);
      const { roomType } = await makeRoomType(shop.api, {
        name: 'Mchana',
        rooms: 1,
        day_use_rate: 20_000,
        day_use_block_minutes: 60,
      });
      const mode = await shop.api.post('/v1/hospitality/availability', {
        room_type: roomType.id,
        mode: 'day_use',
      });
      expect(mode.status, JSON.stringify(mode.body)).toBe(200);
      const { context, page } = await openOffice(office.browser, 'en');
      try {
        await signInInBrowser(page, office.server.url, shop.merchant);
        await page.goto(`${office.server.url}/office/hospitality/reservations/new`);
        await page.selectOption('[data-testid=stay-kind]', 'day_use');
        await page.fill('[data-testid=stay-day]', day);
        await page.fill('[data-testid=stay-from]', '11:00');
        await page.fill('[data-testid=stay-hours]', '3');
        await page.click('[data-testid=check-availability]');
        await page.waitForSelector('[data-testid=choose-offer]');
        // 11:00 East Africa Time is 08:00 UTC.
        const startsAt = Date.parse(`${day}T08:00:00Z`) / 1000;
        const priced = (
          await shop.api.get(
            `/v1/hospitality/availability?starts_at=${startsAt}&ends_at=${startsAt + 3 * 3600}&adults=2`,
          )
        ).body.data[0];
        expect(priced.quote.room_charge).toBe(60_000);
        expect(await page.textContent('[data-testid=quote-total]')).toBe(tzs(priced.quote.total));
        expect(await seriousViolations(page)).toEqual([]);
        await page.click('[data-testid=choose-offer]');
        await page.fill('[data-testid=guest-name]', 'Baraka Mushi');
        await page.click('[data-testid=book]');
        await page.waitForURL(/\/office\/hospitality\/reservations\/resv_/);
        const id = new URL(page.url()).pathname.split('/').at(-1)!;
        expect((await shop.api.get(`/v1/hospitality/reservations/${id}`)).body).toMatchObject({
          room_type: roomType.id,
          mode: 'day_use',
          total: priced.quote.total,
        });
      } finally {
        await context.close();
      }
    },
  );

  it(
    'reads in Swahili on a phone, and leaves the navigation once the app is removed',
    { timeout: 120_000 },
    async () => {
      const shop = await anotherMerchant(office.server, { business_name: 'Nyumba ya Wageni' });
      const today = eastAfricaDate(new Date());
      const { roomType, rooms } = await makeRoomType(shop.api, { name: 'Kawaida', rooms: 2 });
      const stay = await book(shop.api, {
        room_type: roomType.id,
        room: rooms[0],
        arrival: today,
        departure: addDays(today, 1),
      });
      expect(stay.status).toBe(201);
      const { context, page } = await openOffice(office.browser, 'sw', 360);
      try {
        await signInInBrowser(page, office.server.url, shop.merchant);
        const pages: Array<[string, string, string]> = [
          ['today', '[data-testid=hospitality-today]', 'Wanaofika leo'],
          ['reservations', '[data-testid=reservation-list]', 'Nafasi zilizohifadhiwa'],
          ['calendar', '[data-testid=calendar-stay]', 'Buruta ukaaji'],
          ['room-types', '[data-testid=room-type-list]', 'Aina mpya ya chumba'],
          ['rooms', '[data-testid=room-list]', 'Usafi'],
          ['blackouts', '[data-testid=new-blackout]', 'Funga usiku'],
          ['property', '[data-testid=property-form]', 'Tozo na VAT'],
        ];
        for (const [name, ready, words] of pages) {
          await page.goto(`${office.server.url}/office/hospitality/${name}`);
          await page.waitForSelector(ready);
          expect(await page.textContent('[data-testid=hospitality]')).toContain(words);
          expect(await seriousViolations(page), name).toEqual([]);
        }
        await page.goto(`${office.server.url}/office/hospitality/reservations/${stay.body.id}`);
        await page.waitForSelector('[data-testid=stay-status][data-status=confirmed]');
        expect(await page.textContent('[data-testid=stay-status]')).toBe('Imethibitishwa');
        expect(await seriousViolations(page)).toEqual([]);
        await page.goto(`${office.server.url}/office/hospitality/room-types/${roomType.id}`);
        await page.waitForSelector('[data-testid=rates]');
        expect(await seriousViolations(page)).toEqual([]);

        // Removed on the Apps page, the section leaves the navigation; installed again, it is back.
        expect(await page.locator('[data-testid=nav-hospitality]').count()).toBe(1);
        await page.click('[data-testid=nav-apps]');
        await page.click('[data-app=hospitality] [data-testid=remove-app]');
        await page.click('[data-testid=confirm]');
        await page.waitForSelector('[data-app=hospitality] [data-testid=install-app]');
        await expect.poll(() => page.locator('[data-testid=nav-hospitality]').count()).toBe(0);
        await page.goto(`${office.server.url}/office/hospitality`);
        await page.waitForSelector('[data-testid=hospitality-not-installed]');
        await page.click('[data-testid=nav-apps]');
        await page.click('[data-app=hospitality] [data-testid=install-app]');
        await page.waitForSelector('[data-testid=nav-hospitality]');
      } finally {
        await context.close();
      }
    },
  );
});
