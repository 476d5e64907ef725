/**
 * Screenshots of every till screen in both languages at the counter's sizes
 * (1366x768, 1280x800, 800x1280), from the preview page over sample state:
 *   npx tsx test/browser/till-screens.ts [outDir]   (default scratch/till-screens)
 * The pictures in docs/ come from the real till (till-screens-real.ts).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '../support/browser.ts';
import { typeTimed } from '../support/keyboard.ts';
import { startTillPreview } from '../support/till-preview.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const outDir = path.resolve(
  args.find((arg) => !arg.startsWith('--')) ?? path.join(repo, 'scratch/till-screens'),
);
const SIZES = [
  { name: '1366x768', width: 1366, height: 768 },
  { name: '1280x800', width: 1280, height: 800 },
  { name: '800x1280', width: 800, height: 1280 },
  { name: '360x740', width: 360, height: 740 },
].filter((size) => !process.env.SIZES || process.env.SIZES.split(',').includes(size.name));

type Step = (page: Page) => Promise<void>;
const control =
  (code: string): Step =>
  async (page) => {
    await page.evaluate(`window.preview.${code}`);
  };
const press =
  (...keys: string[]): Step =>
  async (page) => {
    for (const key of keys) await page.keyboard.press(key);
  };
// A screenshot only: lets a transition or a focus ring finish drawing, which no selector marks.
const settle: Step = (page) => page.waitForTimeout(250);
const signedIn = [control(`setPairing('paired')`), control('setCashier(true)'), control('setShift(true)')];
const desk = [...signedIn, control('setDesk(true)'), press('Alt+D')];
const door = [...signedIn, control(`setDoor('one')`), press('Alt+G')];
/** A ticket's code typed at the door (F2) and checked, by its holder in the preview's sample. */
const typeTicket =
  (holder: string): Step =>
  async (page) => {
    const code = await page.evaluate(
      (name) => window.preview!.doorCodes().tickets.find((ticket) => ticket.holder === name)!.code,
      holder,
    );
    await page.keyboard.press('F2');
    await page.fill('[data-testid=door-code]', code);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=door-verdict][data-verdict]:not([data-verdict=""])');
  };

const SCREENS: Record<string, Step[]> = {
  pair: [],
  'sign-in': [control(`setPairing('paired')`)],
  'open-shift': [control(`setPairing('paired')`), control('setCashier(true)')],
  'sale-empty': signedIn,
  sale: [...signedIn, control('fillCart()'), control(`setSync({ unsynced: 0 })`)],
  // The tiles: a category's first page, with the pager; then folded away to their tabs.
  'tiles-category': [...signedIn, (page) => page.locator('.tile-tab').nth(1).click()],
  'tiles-folded': [...signedIn, control('fillCart()'), (page) => page.click('[data-testid=tiles-fold]')],
  // Each line's stock left; the milk (4 in the cart, 3 in stock) says so.
  'cart-stock': [...signedIn, control('fillCart()'), press('ArrowUp')],
  search: [
    ...signedIn,
    control('fillCart()'),
    (page) => page.fill('[data-testid=search]', 'suk'),
    (page) => page.waitForSelector('[data-testid=results] li').then(() => undefined),
  ],
  tender: [
    ...signedIn,
    control('fillCart()'),
    press('F10'),
    (page) => page.fill('[data-testid=cash-given]', '80000'),
  ],
  'tender-quick-cash': [
    ...signedIn,
    control('fillCart()'),
    press('F10'),
    (page) => page.locator('[data-testid=quick-cash] button').nth(2).click(),
  ],
  'no-sale': [...signedIn, press('Alt+N'), (page) => page.locator('.reason-choices button').first().click()],
  'no-sale-manager': [...signedIn, control('setSettings({ noSaleNeedsManager: true })'), press('Alt+N')],
  'no-sale-done': [
    ...signedIn,
    press('Alt+N'),
    (page) => page.locator('.reason-choices button').first().click(),
    press('Enter'),
  ],
  'tender-offline': [
    ...signedIn,
    control('fillCart()'),
    control(`setSync({ connection: 'offline' })`),
    press('F10', 'Alt+2'),
  ],
  done: [
    ...signedIn,
    control('fillCart()'),
    (page) => page.fill('[data-testid=search]', ''),
    press('F10'),
    (page) => page.fill('[data-testid=cash-given]', '80000'),
    press('Enter'),
  ],
  customer: [...signedIn, control('fillCart()'), press('F3'), (page) => page.keyboard.type('a')],
  'customer-new': [
    ...signedIn,
    control('fillCart()'),
    press('F3'),
    (page) => page.keyboard.type('0713 456'),
    press('Enter'),
    (page) => page.keyboard.type('Neema Joseph'),
  ],
  'customer-bad-phone': [
    ...signedIn,
    press('F3', 'Enter'),
    (page) => page.keyboard.type('Neema Joseph'),
    // Filled, not typed: digits typed 0 ms apart are a scanner's, and the till takes a scan back out.
    (page) => page.fill('[data-testid=customer-phone]', '022 212 3456'),
    press('Enter'),
  ],
  'done-digital': [
    ...signedIn,
    control('fillCart()'),
    press('F10'),
    (page) => page.fill('[data-testid=cash-given]', '80000'),
    press('Enter'),
    (page) => page.click('[data-testid=digital-receipt-toggle]'),
  ],
  'order-discount': [...signedIn, control('fillCart()'), press('F7'), (page) => page.keyboard.type('15')],
  offline: [
    ...signedIn,
    control('fillCart()'),
    control('addSales(3, "pending")'),
    control(`setSync({ connection: 'offline', unsynced: 3, lastSyncAt: Date.UTC(2026, 10, 26, 6, 58) })`),
    press('Alt+S'),
  ],
  sales: [
    ...signedIn,
    control('addSales(2, "applied")'),
    control('addSales(1, "refused")'),
    control('addSales(2, "pending")'),
    control(
      `setSync({ unsynced: 2, refused: [{ id: 'cmd_x', type: 'order.create', createdAt: Date.UTC(2026, 10, 26, 6, 30), label: 'T01-000123', refusal: { code: 'product_not_found', message: 'A product on this sale was deleted.' } }] })`,
    ),
    press('Alt+S'),
  ],
  refund: [
    ...signedIn,
    control('addSales(1, "applied")'),
    press('Alt+S'),
    // Enter opens the highlighted sale: the list must be on screen first.
    (page) => page.waitForSelector('[data-testid=sales-panel] .sale-open.active').then(() => undefined),
    press('Enter'),
    (page) => page.click('[data-testid=sale-detail] >> text=/^(Refund|Rejesha)$/'),
  ],
  'sales-list': [...signedIn, control('addHistory()'), control('addSales(60, "applied")'), press('Alt+S')],
  'sales-search': [
    ...signedIn,
    control('addHistory()'),
    press('Alt+S'),
    (page) => page.keyboard.type('7,800'),
  ],
  'sale-opened': [
    ...signedIn,
    control('addHistory()'),
    press('Alt+S'),
    press('ArrowDown', 'ArrowDown', 'ArrowDown', 'Enter'),
  ],
  shift: [...signedIn, press('Alt+Z')],
  'z-report': [
    ...signedIn,
    press('Alt+Z'),
    (page) => page.locator('[data-testid=shift-panel] form').last().locator('input').fill('950000'),
    (page) => page.locator('[data-testid=shift-panel] button[type=submit].danger').click(),
  ],
  settings: [...signedIn, press('Alt+T')],
  'settings-refused': [
    ...signedIn,
    control(
      `setSync({ refused: [{ id: 'cmd_x', type: 'order.create', createdAt: Date.UTC(2026, 10, 26, 6, 30), label: 'T01-000123', refusal: { code: 'parameter_invalid', message: 'The order.create command is malformed' } }] })`,
    ),
    press('Alt+T'),
    (page) => page.click('[data-testid=export-refused]'),
  ],
  help: [...signedIn, press('F1')],
  revoked: [
    ...signedIn,
    control(`setPairing('revoked')`),
    control('addSales(2, "pending")'),
    control(`setSync({ revoked: true, connection: 'online', unsynced: 2 })`),
  ],
  ended: [
    control(`setPairing('revoked')`),
    control(`setSync({ revoked: true, connection: 'online', unsynced: 2 })`),
    (page) => page.click('[data-testid=abandon]'),
  ],
  'ended-exported': [
    control(`setPairing('revoked')`),
    control(`setSync({ revoked: true, connection: 'online', unsynced: 2 })`),
    (page) => page.click('[data-testid=export-unsynced]'),
  ],
  retiring: [...signedIn, control(`setPairing('retiring')`), control('addSales(2, "pending")')],
  notice: [...signedIn, control('fillCart()'), (page) => typeTimed(page, '6209999999999', 5)],
  'unpair-confirm': [...signedIn, press('Alt+T'), (page) => page.click('[data-testid=unpair]')],
  // The front desk: a till whose merchant has the hospitality app's property.
  desk: [...desk],
  'desk-walk-in': [
    ...desk,
    press('F2'),
    (page) => page.fill('[data-testid=walk-in-nights]', '2'),
    (page) => page.fill('[data-testid=walk-in-name]', 'Peter Mushi'),
    (page) => page.waitForSelector('[data-testid=walk-in-total]').then(() => undefined),
  ],
  'desk-walk-in-day-use': [
    ...desk,
    press('F2'),
    (page) => page.selectOption('[data-testid=walk-in-type]', 'rt_siesta').then(() => undefined),
    (page) => page.fill('[data-testid=walk-in-blocks]', '3'),
    (page) => page.fill('[data-testid=walk-in-name]', 'Rehema Ali'),
    (page) => page.waitForSelector('[data-testid=walk-in-total]').then(() => undefined),
  ],
  'desk-check-in': [
    ...desk,
    press('F3'),
    (page) => page.fill('[data-testid=guest-0-id_number]', '19900101-12345-00001-23'),
    (page) => page.fill('[data-testid=guest-0-arriving_from]', 'Arusha'),
    (page) => page.fill('[data-testid=guest-0-going_to]', 'Dar es Salaam'),
  ],
  'desk-checked-in': [
    ...desk,
    press('F3'),
    (page) => page.fill('[data-testid=guest-0-id_number]', '19900101-12345-00001-23'),
    (page) => page.fill('[data-testid=guest-0-arriving_from]', 'Arusha'),
    (page) => page.fill('[data-testid=guest-0-going_to]', 'Dar es Salaam'),
    (page) => page.click('[data-testid=check-in-confirm]'),
    (page) => page.waitForSelector('[data-room="201"][data-state=occupied]').then(() => undefined),
  ],
  'desk-check-out': [
    ...desk,
    press('F4'),
    (page) => page.fill('[data-testid=check-out-cash-shillings]', '20000'),
  ],
  // Paid in dollars at the property's rate: the most within the balance, the rest in shillings.
  'desk-check-out-usd': [
    ...desk,
    press('F4'),
    (page) => page.click('[data-testid=check-out-cash] [role=radio]:nth-child(2)'),
  ],
  'desk-check-in-usd': [
    ...desk,
    press('F3'),
    (page) => page.click('[data-testid=check-in-deposit] [role=radio]:nth-child(2)'),
    (page) => page.fill('[data-testid=check-in-deposit-foreign]', '50'),
  ],
  'tender-room': [...desk, press('Alt+D'), control('fillCart()'), press('F10'), press('Alt+4')],
  // A sale charged to room 103, refused: the guest checked out on another desk before it synced.
  'sale-room-refused': [
    ...desk,
    press('Alt+D'),
    control('fillCart()'),
    press('F10'),
    press('Alt+4'),
    (page) => page.waitForSelector('[data-testid=room-charge-guests]').then(() => undefined),
    press('Enter'),
    (page) => page.waitForSelector('[data-testid=sale-done]').then(() => undefined),
    press('Escape'),
    control('refuseRoomCharge()'),
    press('Alt+S'),
  ],
  'desk-housekeeping': [...desk, (page) => page.click('[data-room="102"]'), press('F7')],
  'desk-conflict': [
    ...desk,
    control('refuseNextCheckIn()'),
    press('F3'),
    (page) => page.fill('[data-testid=guest-0-id_number]', 'AB123456'),
    (page) => page.fill('[data-testid=guest-0-arriving_from]', 'Moshi'),
    (page) => page.fill('[data-testid=guest-0-going_to]', 'Moshi'),
    (page) => page.click('[data-testid=check-in-confirm]'),
    (page) => page.waitForSelector('[data-testid=desk-conflict]').then(() => undefined),
  ],
  'desk-clash': [
    ...desk,
    control('clashElsewhere()'),
    (page) => page.waitForSelector('[data-testid=desk-conflict][data-mine=no]').then(() => undefined),
  ],
  // The door: a till with a ticketed event pulled; every verdict big, in colour, a mark and a word.
  door: [...door],
  'door-ok': [...door, typeTicket('Neema Mollel')],
  'door-again': [...door, typeTicket('Baraka Mushi')],
  'door-invalid': [
    ...door,
    press('F2'),
    (page) => page.fill('[data-testid=door-code]', 'not-a-ticket'),
    press('Enter'),
  ],
  'door-choose': [...signedIn, control(`setDoor('two')`), press('Alt+G')],
  // Door staff with no shift open scan all the same.
  'door-no-shift': [
    control(`setPairing('paired')`),
    control('setCashier(true)'),
    control(`setDoor('one')`),
    press('Alt+G'),
    (page) => page.waitForSelector('[data-testid=door-screen]').then(() => undefined),
  ],
  // The box office: tiers with what is left (one sold out), two tickets chosen, then the payment.
  'box-office': [
    ...door,
    press('F6'),
    (page) => page.waitForSelector('[data-testid=box-office-tier]').then(() => undefined),
    (page) => page.click('[data-testid=box-office-tier]:nth-child(2) [data-testid=box-office-more]'),
    (page) => page.click('[data-testid=box-office-tier]:nth-child(2) [data-testid=box-office-more]'),
    settle,
  ],
  'box-office-pay': [
    ...door,
    press('F6'),
    (page) => page.click('[data-testid=box-office-tier]:nth-child(1) [data-testid=box-office-more]'),
    (page) => page.click('[data-testid=box-office-tier]:nth-child(2) [data-testid=box-office-more]'),
    press('F10'),
    (page) => page.waitForSelector('[data-testid=tender-dialog]').then(() => undefined),
    settle,
  ],
  'box-office-shift': [
    control(`setPairing('paired')`),
    control('setCashier(true)'),
    control(`setDoor('one')`),
    press('Alt+G'),
    press('F6'),
    settle,
  ],
};

const preview = await startTillPreview();
const browser = await launchChromium();
await mkdir(outDir, { recursive: true });
const only = process.env.SCREENS?.split(',');
try {
  for (const size of SIZES) {
    for (const language of ['sw', 'en']) {
      for (const [screen, steps] of Object.entries(SCREENS)) {
        if (only && !only.includes(screen)) continue;
        const page = await browser.newPage({ viewport: { width: size.width, height: size.height } });
        page.on('pageerror', (error) => console.error(screen, error.stack ?? error.message));
        await page.goto(`${preview.url}?lang=${language}`);
        await page.waitForFunction(() => window.preview !== undefined);
        for (const step of steps) {
          await step(page);
          await settle(page);
        }
        const name = `${screen}-${language}-${size.name}`;
        await page.screenshot({ path: path.join(outDir, `${name}.png`) });
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
  await preview.close();
}
console.log(`screenshots in ${outDir}`);
