/**
 * The front desk's screens in Chromium over the preview's sample guest house
 * (the screens and the board's rules are the real ones; the store is a
 * stand-in): shown only with a property, Alt+D and back, a walk-in, a check-in
 * from the keyboard showing the room occupied at once, a refused check-in
 * on the desk as a conflict naming the guest and room, and a sale charged to
 * the room of a guest this desk has just checked in.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openSaleScreen, previewInChromium } from '../support/till-preview.ts';

const chromium = previewInChromium();
let page: Page;

beforeEach(async () => {
  page = await chromium.browser.newPage({ viewport: { width: 1366, height: 768 } });
  await openSaleScreen(page, chromium.preview, 'en');
});
afterEach(async () => {
  await page.close();
});

const roomState = (number: string) =>
  page.getAttribute(`[data-testid=room][data-room="${number}"]`, 'data-state');

async function openDesk() {
  await page.evaluate(() => window.preview!.setDesk(true));
  await page.waitForSelector('[data-testid=mode-desk]', { timeout: 30_000 });
  await page.keyboard.press('Alt+D');
  await page.waitForSelector('[data-testid=desk-screen]', { timeout: 30_000 });
}

async function register(id: string) {
  await page.fill('[data-testid=guest-0-id_number]', id);
  await page.fill('[data-testid=guest-0-arriving_from]', 'Arusha');
  await page.fill('[data-testid=guest-0-going_to]', 'Dar es Salaam');
  await page.click('[data-testid=check-in-confirm]');
}

describe('the front desk', () => {
  it('shows only with a property, and Alt+D switches between it and the sale', async () => {
    expect(await page.$('[data-testid=mode-desk]')).toBeNull();
    await page.keyboard.press('Alt+D');
    expect(await page.$('[data-testid=desk-screen]')).toBeNull();
    await openDesk();
    // Every room says its state in words, not by colour alone.
    const words = await page.$$eval('[data-testid=room] .state', (states) =>
      states.map((s) => s.textContent),
    );
    expect(words).toContain('→ Arriving');
    expect(words).toContain('✕ Out of order');
    await page.keyboard.press('Alt+D');
    await page.waitForSelector('[data-testid=sale-screen]', { timeout: 30_000 });
  });

  it('checks in the first arrival with F3, and the room reads occupied at once', async () => {
    await openDesk();
    expect(await roomState('201')).toBe('arriving');
    await page.keyboard.press('F3');
    await page.waitForSelector('[data-testid=check-in] [data-testid=guest-0-name]', { timeout: 30_000 });
    expect(await page.inputValue('[data-testid=guest-0-name]')).toBe('Amina Juma');
    await register('19900101-12345-00001-23');
    await page.waitForSelector('[data-room="201"][data-state=occupied]', { timeout: 30_000 });
    const inHouse = await page.textContent('[data-testid=desk-in-house]');
    expect(inHouse).toContain('Amina Juma');
    expect(inHouse).toContain('not synced yet');
  });

  it('books a walk-in priced by the quote into the first free room', async () => {
    await openDesk();
    await page.keyboard.press('F2');
    await page.fill('[data-testid=walk-in-nights]', '2');
    await page.fill('[data-testid=walk-in-name]', 'Peter Mushi');
    // A Double for two nights on the mainland: 140,000 + 1% tourism levy + 18% VAT.
    await page.waitForFunction(
      () => document.querySelector('[data-testid=walk-in-total]')?.textContent === 'TZS 166,600',
      null,
      { timeout: 30_000 },
    );
    expect(
      await page.$eval(
        '[data-testid=walk-in-room]',
        (s) => (s as HTMLSelectElement).selectedOptions[0]?.text,
      ),
    ).toBe('202');
    await page.click('[data-testid=walk-in-book]');
    await page.waitForSelector('[data-room="202"][data-state=arriving]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=desk-arrivals]')).toContain('Peter Mushi');
  });

  it('books a day-use walk-in for some hours from now, priced by the type’s day rate', async () => {
    await openDesk();
    await page.keyboard.press('F2');
    await page.selectOption('[data-testid=walk-in-type]', 'rt_siesta');
    // The type is sold by the hour: blocks of its time instead of nights.
    await page.waitForSelector('[data-testid=walk-in-blocks]', { timeout: 30_000 });
    expect(await page.$('[data-testid=walk-in-nights]')).toBeNull();
    await page.fill('[data-testid=walk-in-blocks]', '3');
    await page.fill('[data-testid=walk-in-name]', 'Rehema Ali');
    // Three hours at 15,000 on the mainland: 45,000 + 1% tourism levy + 18% VAT.
    await page.waitForFunction(
      () => document.querySelector('[data-testid=walk-in-total]')?.textContent === 'TZS 53,550',
      null,
      { timeout: 30_000 },
    );
    expect(await page.textContent('[data-testid=walk-in-when]')).toBe('26/11/2026, 10:42 to 13:42');
    expect(await page.textContent('[data-testid=walk-in-quote]')).toContain('Room · 3 × 60 min');
    await page.click('[data-testid=walk-in-book]');
    await page.waitForSelector('[data-room="204"][data-state=arriving]', { timeout: 30_000 });
    const steps = await page.evaluate(() => window.preview!.deskSteps());
    expect(steps.at(-1)).toMatchObject({ type: 'reservation.create' });
    expect(steps.at(-1)!.payload).not.toHaveProperty('arrival');
    const { starts_at, ends_at } = steps.at(-1)!.payload as { starts_at: number; ends_at: number };
    expect(ends_at - starts_at).toBe(3 * 3_600);
  });

  it('shows a refused check-in as a conflict naming the guest and room, resolved with another room', async () => {
    await openDesk();
    await page.evaluate(() => window.preview!.refuseNextCheckIn());
    await page.keyboard.press('F3');
    await page.waitForSelector('[data-testid=guest-0-id_number]', { timeout: 30_000 });
    await register('AB123456');
    const conflict = await page.waitForSelector('[data-testid=desk-conflict]', { timeout: 30_000 });
    expect(await conflict.textContent()).toContain('Check-in for Amina Juma, room 201, was refused.');
    expect(await roomState('201')).toBe('arriving');
    await page.click('[data-testid=desk-conflict-resolve]');
    // The room refused is not offered again.
    const offered = await page.$$eval('[data-testid=check-in-room] option', (options) =>
      options.map((o) => o.textContent),
    );
    expect(offered).not.toContain('201');
    await register('AB123456');
    await page.waitForSelector('[data-testid=desk-conflicts]', { state: 'detached', timeout: 30_000 });
    await page.waitForSelector(`[data-room="${offered[0]}"][data-state=occupied]`, { timeout: 30_000 });
  });

  it('shows a clash another desk had over a room a guest here holds, with only "Dealt with"', async () => {
    await openDesk();
    await page.evaluate(() => window.preview!.clashElsewhere());
    const clash = await page.waitForSelector('[data-testid=desk-conflict][data-mine=no]', {
      timeout: 30_000,
    });
    const text = await clash.textContent();
    expect(text).toContain('Room 203 was given twice: Booking for Baraka Mushi at Reception 2 was refused.');
    expect(text).toContain('Hassan Ali holds the room.');
    expect(await clash.$('[data-testid=desk-conflict-resolve]')).toBeNull();
    await page.click('[data-testid=desk-conflict-done]');
    await page.waitForSelector('[data-testid=desk-conflicts]', { state: 'detached', timeout: 30_000 });
  });

  it('checks a guest out in dollars at the property’s rate, the rest in shillings', async () => {
    await openDesk();
    await page.keyboard.press('F4');
    await page.waitForSelector('[data-testid=check-out-cash-shillings]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=check-out-balance]')).toBe('Balance: TZS 116,600');
    await page.click('[data-testid=check-out-cash] [role=radio]:has-text("USD")');
    // The most dollars within the balance at 2,650: 44.00 makes it up exactly, nothing in shillings.
    expect(await page.inputValue('[data-testid=check-out-cash-foreign]')).toBe('44.00');
    expect(await page.inputValue('[data-testid=check-out-cash-shillings]')).toBe('');
    await page.fill('[data-testid=check-out-cash-foreign]', '40');
    await page.fill('[data-testid=check-out-cash-shillings]', '10600');
    expect(await page.textContent('[data-testid=check-out-cash-worth]')).toBe(
      '= TZS 106,000, at TZS 2,650 for USD 1',
    );
    // Settled: no manager is asked for.
    expect(await page.$('[data-testid=check-out-pin]')).toBeNull();
    await page.click('[data-testid=check-out-confirm]');
    await page.waitForSelector('[data-testid=check-out]', { state: 'detached', timeout: 30_000 });
    const steps = await page.evaluate(() => window.preview!.deskSteps());
    expect(steps.map((step) => step.type)).toEqual([
      'folio.payment',
      'folio.payment',
      'reservation.check_out',
    ]);
    expect(steps[0]!.payload).toMatchObject({ method: 'cash', amount: 10_600 });
    expect(steps[1]!.payload).toMatchObject({
      method: 'cash',
      foreign: { currency: 'USD', amount: 4_000, rate: 2_650 },
    });
  });

  it('charges a sale to the room of a guest checked in here, found by room number (Alt+4)', async () => {
    await openDesk();
    await page.keyboard.press('F3');
    await page.waitForSelector('[data-testid=guest-0-id_number]', { timeout: 30_000 });
    await register('19900101-12345-00001-23');
    await page.waitForSelector('[data-room="201"][data-state=occupied]', { timeout: 30_000 });
    await page.keyboard.press('Alt+D');
    await page.waitForSelector('[data-testid=sale-screen]', { timeout: 30_000 });
    await page.evaluate(() => window.preview!.fillCart());
    await page.waitForSelector('[data-testid=cart] tbody tr', { timeout: 30_000 });
    await page.keyboard.press('F10');
    await page.waitForSelector('[data-testid=cash-given]:focus', { timeout: 30_000 });
    // The fourth method, charge to room, is offered once the till knows it has the desk.
    await page.waitForSelector('[data-testid=tender-dialog] [role=tab]:nth-child(4)', { timeout: 30_000 });
    await page.keyboard.press('Alt+4');
    const guests = await page.waitForSelector('[data-testid=room-charge-guests]', { timeout: 30_000 });
    // The guests in house by room: the one checked in here (not synced yet) among them, arrivals not.
    const listed = await guests.$$eval('li', (items) => items.map((item) => item.textContent));
    expect(listed).toEqual(['Room 103 · Grace Mollel', 'Room 201 · Amina Juma', 'Room 203 · Hassan Ali']);
    await page.fill('[data-testid=room-charge-search]', '20');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=room-charge-guests] li').length === 2,
      null,
      { timeout: 30_000 },
    );
    const due = await page.textContent('[data-testid=remaining]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=change-due]')).toBe('TZS 0');
    const tendered = await page.evaluate(() => window.preview!.tendered());
    expect(tendered).toHaveLength(1);
    const [tender] = tendered[0]!;
    expect(tender).toMatchObject({ method: 'room', reservation: 'resv_arrive1', room: '201' });
    expect(`TZS ${tender!.amount.toLocaleString('en')}`).toBe(due);

    // The guest checked out on another desk before the sale synced: the server refuses the charge,
    // and the sale says whose room, why, and what to do.
    await page.keyboard.press('Escape');
    await page.evaluate(() => window.preview!.refuseRoomCharge());
    await page.keyboard.press('Alt+S');
    await page.waitForSelector('[data-testid=sales-panel] [data-testid=server-refusal]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=sales-panel] [data-testid=server-refusal]')).toContain(
      'Not charged to room 201 (Amina Juma): the guest has checked out. Only a guest checked in can charge to the room. Take this sale’s payment again another way: cash, card or mobile money.',
    );
  });
});
