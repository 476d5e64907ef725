/**
 * The door's screen in Chromium over the preview's sample concert (the screen
 * and core's verdict are the real ones, with a real Ed25519 key; the store is
 * a stand-in that judges as an offline door): shown only with an event, Alt+G
 * and back, a scanner's burst admitting a ticket and refusing it the second
 * time with where and when, a bad code and another event's code refused while
 * the door goes on scanning, a code typed with F2, the counts, the double
 * admission the server found, and the event chosen where two are on.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { scanAtDoor } from '../support/door.ts';
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

async function openDoor(events: 'one' | 'two' = 'one') {
  await page.evaluate((shown) => window.preview!.setDoor(shown), events);
  await page.waitForSelector('[data-testid=mode-door]', { timeout: 30_000 });
  await page.keyboard.press('Alt+G');
  await page.waitForSelector('[data-testid=door-screen]', { timeout: 30_000 });
}

const codeOf = (holder: string) =>
  page.evaluate((name) => window.preview!.doorCodes().tickets.find((t) => t.holder === name)!.code, holder);

const scan = (code: string) => scanAtDoor(page, code);

const count = async (what: 'here' | 'event' | 'remaining') =>
  page.textContent(
    `[data-testid=${{ here: 'door-admitted-here', event: 'door-admitted', remaining: 'door-remaining' }[what]}]`,
  );

describe('the door', () => {
  it('shows only with an event, and Alt+G switches between it and the sale; help lists its keys', async () => {
    expect(await page.$('[data-testid=mode-door]')).toBeNull();
    await page.keyboard.press('Alt+G');
    expect(await page.$('[data-testid=door-screen]')).toBeNull();
    await openDoor();
    expect(await page.textContent('[data-testid=door-verdict]')).toBe('Scan a ticket');
    // No BarcodeDetector in this browser: no camera button.
    const detector = await page.evaluate(() => 'BarcodeDetector' in window);
    expect((await page.$('[data-testid=door-camera]')) !== null).toBe(detector);
    await page.keyboard.press('F1');
    const help = await page.textContent('[data-testid=help]');
    expect(help).toContain('Door: type a ticket code');
    expect(help).toContain('Door: choose the event');
    expect(help).not.toContain('Front desk: walk-in');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Alt+G');
    await page.waitForSelector('[data-testid=sale-screen]', { timeout: 30_000 });
  });

  it('admits a scanned ticket once and refuses it the second time, naming when and where', async () => {
    await openDoor();
    expect(await count('remaining')).toBe('4');
    const first = await scan(await codeOf('Neema Mollel'));
    expect(first.verdict).toBe('ok');
    expect(first.text).toContain('✓Admit');
    expect(first.text).toContain('Neema Mollel · VIP');
    expect(await page.getAttribute('.door-verdict', 'class')).toContain('yes');
    const again = await scan(await codeOf('Neema Mollel'));
    expect(again.verdict).toBe('already_redeemed');
    expect(again.text).toContain('⚠Already used');
    expect(again.text).toMatch(/Admitted at \d\d:\d\d at Lango Kuu/);
    expect(await count('here')).toBe('2');
    expect(await count('event')).toBe('2');
    expect(await count('remaining')).toBe('3');
    // Another door's admission, pulled: refused, naming that door.
    expect((await scan(await codeOf('Baraka Mushi'))).text).toContain('at Lango la Kusini');
  });

  it('goes on scanning after a bad code and another event’s code', async () => {
    await openDoor();
    const junk = await scan('XYZ-NOT-A-TICKET-1234567890');
    expect(junk.verdict).toBe('invalid');
    expect(junk.text).toContain('✕Not valid');
    const foreign = await page.evaluate(() => window.preview!.doorCodes().foreign);
    expect((await scan(foreign)).verdict).toBe('wrong_event');
    expect((await scan(await codeOf('Zawadi Said'))).verdict).toBe('ok');
    expect((await scan('garbage-again-0000000000')).verdict).toBe('invalid');
    expect((await scan(await codeOf('Juma Hamisi'))).verdict).toBe('ok');
  });

  it('checks a code typed with F2, and lists the double admission with both doors', async () => {
    await openDoor();
    await page.keyboard.press('F2');
    await page.keyboard.type(await codeOf('Rehema Kweka'));
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=door-verdict][data-verdict=ok]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=door-holder]')).toBe('Rehema Kweka · VIP');
    expect(await page.inputValue('[data-testid=door-code]')).toBe('');
    const double = await page.textContent('[data-testid=door-double]');
    expect(double).toMatch(/Baraka Mushi: Lango la Kusini at \d\d:\d\d, then Lango Kuu at \d\d:\d\d/);
  });

  it('asks which event where two are on, and judges for the one chosen', async () => {
    await openDoor('two');
    await page.waitForSelector('[data-testid=door-no-event]', { timeout: 30_000 });
    await page.click('[data-testid=door-event-choice] >> text=Tamasha la Bagamoyo');
    await page.waitForSelector('[data-testid=door-verdict]', { timeout: 30_000 });
    expect((await scan(await codeOf('Neema Mollel'))).verdict).toBe('wrong_event');
    const foreign = await page.evaluate(() => window.preview!.doorCodes().foreign);
    expect((await scan(foreign)).verdict).toBe('ok');
  });
});
