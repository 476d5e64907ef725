/**
 * The till's keyboard in Chromium, over the preview's sample state (the screens
 * are the real ones; the store is a stand-in): PIN and Enter, scans wherever
 * focus is, a person's typing, F9, help and the language switch.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { helpShortcuts } from '../../apps/desktop/src/renderer/app/keyboard/shortcuts.ts';
import { launchChromium } from '../support/browser.ts';
import { typeTimed } from '../support/keyboard.ts';
import { openSaleScreen, startTillPreview, type TillPreview } from '../support/till-preview.ts';

let preview: TillPreview;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  preview = await startTillPreview();
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await preview?.close();
});
beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(`${preview.url}?lang=en`);
  await page.waitForFunction(() => window.preview !== undefined, null, { timeout: 30_000 });
  await page.evaluate(() => window.preview!.setPairing('paired'));
});

const cartText = () => page.textContent('[data-testid=cart]');

/** Scans a barcode as a scanner would (5 ms a key) and waits for the total to read `total`. */
async function scanAndSee(code: string, total: string) {
  await typeTimed(page, code, 5);
  await page.waitForFunction(
    (expected) => document.querySelector('[data-testid=total]')?.textContent?.includes(expected),
    total,
    { timeout: 30_000 },
  );
}

async function signInAndOpenShift() {
  // Keys typed before the PIN field is on screen and focused would go nowhere.
  await page.waitForSelector('[data-testid=sign-in-screen] input:focus', { timeout: 30_000 });
  await page.keyboard.type('1234');
  await page.keyboard.press('Enter');
  await page.evaluate(() => window.preview!.setShift(true));
  await page.waitForSelector('[data-testid=sale-screen]', { timeout: 30_000 });
}

describe('the till keyboard', () => {
  it('signs in with the PIN ended by Enter, and says so when the PIN is wrong', async () => {
    await page.waitForSelector('[data-testid=sign-in-screen]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=sign-in-screen] label')).toContain('PIN');
    await page.keyboard.type('1111');
    await page.keyboard.press('Enter');
    await page.waitForSelector('text=Wrong PIN.', { timeout: 30_000 });
    await page.keyboard.type('1234');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=open-shift-screen]', { timeout: 30_000 });
  });

  it('adds a scanned barcode wherever focus is and leaves the field as it was', async () => {
    await signInAndOpenShift();
    await typeTimed(page, '6201234567890', 5);
    await page.waitForFunction(
      () => document.querySelector('[data-testid=cart]')?.textContent?.includes('Sukari Kilombero'),
      null,
      { timeout: 30_000 },
    );
    expect(await page.inputValue('[data-testid=search]')).toBe('');

    // Into the cash field of the payment dialog, over what the cashier had typed.
    await page.keyboard.press('F10');
    await page.fill('[data-testid=cash-given]', '50');
    await typeTimed(page, '6203000000017', 5);
    await page.waitForFunction(
      () => document.querySelector('[data-testid=remaining]')?.textContent === 'TZS 4,700',
      null,
      { timeout: 30_000 },
    );
    expect(await page.inputValue('[data-testid=cash-given]')).toBe('50');
    expect(await page.isVisible('[data-testid=tender-dialog]')).toBe(true);
  });

  it('takes a person typing a word and Enter as a search, adding the highlighted result', async () => {
    await signInAndOpenShift();
    await page.focus('[data-testid=search]');
    await typeTimed(page, 'maji', 120, { enter: false });
    await page.waitForFunction(
      () => document.querySelector('[data-testid=results] li.active')?.textContent?.includes('Maji'),
      null,
      { timeout: 30_000 },
    );
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=cart]')?.textContent?.includes('Maji Kilimanjaro'),
      null,
      { timeout: 30_000 },
    );
    expect(await page.inputValue('[data-testid=search]')).toBe('');
  });

  it('completes the sale in cash for the exact total with F9', async () => {
    await signInAndOpenShift();
    await scanAndSee('6009801234567', 'TZS 4,500');
    await page.keyboard.press('F9');
    await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=change-due]')).toBe('TZS 0');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=sale-done]', { state: 'detached' });
    expect(await cartText()).toContain('Scan an item');
    expect(await page.textContent('[data-testid=unsynced]')).toBe('1 not synced');
  });

  it('keeps the selected line in view below the header, moved by the arrows or added by a scan, in a cart longer than its box', async () => {
    await signInAndOpenShift();
    await page.evaluate(() => window.preview!.fillCart());
    await page.waitForSelector('[data-testid=cart] tbody tr:nth-child(5)', { timeout: 30_000 });
    // A box two lines high stands for a long sale on a short screen.
    await page.addStyleTag({ content: '[data-testid=cart] { height: 160px; flex: none; }' });
    // The selected line's name once it lies wholly between the column headings and the box's bottom.
    const selectedInView = () =>
      page.waitForFunction(
        () => {
          const cart = document.querySelector('[data-testid=cart]')!;
          const row = cart.querySelector('tr.selected');
          if (!row) return null;
          const top = cart.querySelector('th')!.getBoundingClientRect().bottom;
          const bottom = cart.getBoundingClientRect().bottom;
          const at = row.getBoundingClientRect();
          return (
            at.top >= top - 0.5 && at.bottom <= bottom + 0.5 && row.querySelector('.line-name')!.textContent
          );
        },
        null,
        { timeout: 30_000 },
      );
    await page.$eval('[data-testid=cart]', (cart) => cart.scrollTo(0, cart.scrollHeight));
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowUp');
    expect(await (await selectedInView()).jsonValue()).toBe('Sukari Kilombero 1kg');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
    expect(await (await selectedInView()).jsonValue()).toBe('Mkate wa Kawaida Azam');

    // A scan adds a line at the end and selects it: in view, and again after the cashier scrolled up.
    const scanned = async (code: string, name: string) => {
      await typeTimed(page, code, 5);
      await page.waitForSelector(`[data-testid=cart] tr.selected >> text=${name}`, { timeout: 30_000 });
    };
    await scanned('6009801234567', 'Unga wa Sembe');
    expect(await (await selectedInView()).jsonValue()).toBe('Unga wa Sembe Azam 2kg');
    await page.$eval('[data-testid=cart]', (cart) => cart.scrollBy(0, -cart.scrollHeight));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    await scanned('6201111000013', 'Maji Kilimanjaro');
    expect(await (await selectedInView()).jsonValue()).toBe('Maji Kilimanjaro 1.5L');
  });

  it('closes the sale-done dialog with an Esc that comes the moment the dialog is on screen', async () => {
    await signInAndOpenShift();
    for (let sale = 1; sale <= 3; sale++) {
      await scanAndSee('6009801234567', 'TZS 4,500');
      // Esc the instant the dialog is in the page: a mutation observer runs right after React's commit,
      // before effects that wait for the next task (where a busy till's key can also land).
      await page.evaluate((sale) => {
        const observer = new MutationObserver(() => {
          if (!document.querySelector('[data-testid=sale-done]')) return;
          observer.disconnect();
          window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
          document.body.dataset.escSent = String(sale);
        });
        observer.observe(document.body, { childList: true, subtree: true });
      }, sale);
      await page.keyboard.press('F9');
      // The dialog came and got its Esc; Esc is not pressed again: that one closes it, or the test fails here.
      await page.waitForSelector(`body[data-esc-sent="${sale}"]`, { timeout: 30_000 });
      await page.waitForSelector('[data-testid=sale-done]', { state: 'detached', timeout: 30_000 });
      await page.waitForFunction(
        () => document.activeElement?.getAttribute('data-testid') === 'search',
        null,
        {
          timeout: 30_000,
        },
      );
    }
    expect(await page.textContent('[data-testid=unsynced]')).toBe('3 not synced');
  });

  it('closes only the dialog on top with Esc: help over the payment dialog', async () => {
    await signInAndOpenShift();
    await scanAndSee('6201111000013', 'TZS 1,000');
    await page.keyboard.press('F10');
    await page.waitForSelector('[data-testid=tender-dialog]', { timeout: 30_000 });
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid=help]', { timeout: 30_000 });
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=help]', { state: 'detached', timeout: 30_000 });
    expect(await page.isVisible('[data-testid=tender-dialog]')).toBe(true);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=tender-dialog]', { state: 'detached', timeout: 30_000 });
  });

  it('gives the float field focus after the Z report’s Done, so the next float typed lands there', async () => {
    await signInAndOpenShift();
    await page.keyboard.press('Alt+Z');
    await page.fill('[data-testid=shift-panel] form:last-of-type input', '950000');
    await page.click('[data-testid=shift-panel] button:has-text("Close shift")');
    await page.waitForSelector('[data-testid=z-report]', { timeout: 30_000 });
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=z-report]', { state: 'detached', timeout: 30_000 });
    await typeTimed(page, '30000', 120, { enter: false });
    expect(await page.inputValue('[data-testid=open-shift-screen] input')).toBe('30000');
  });

  it('moves to the manager’s PIN when Enter ends an order discount above the limit', async () => {
    await signInAndOpenShift();
    await scanAndSee('6009801234567', 'TZS 4,500');
    await page.keyboard.press('F7');
    await page.waitForSelector('[data-testid=discount-dialog] input:focus', { timeout: 30_000 });
    await typeTimed(page, '20', 120);
    await page.waitForSelector('[data-testid=discount-dialog] .pin-input:focus', { timeout: 30_000 });
    await typeTimed(page, '9999', 120);
    await page.waitForSelector('[data-testid=discount-dialog]', { state: 'detached', timeout: 30_000 });
    await page.waitForSelector('[data-testid=total] >> text=TZS 3,600', { timeout: 30_000 });
  });

  it('keeps focus inside a dialog: it starts there, Tab goes round inside it, and it comes back after', async () => {
    await signInAndOpenShift();
    const focusIn = (testId: string) =>
      page.evaluate((id) => !!document.activeElement?.closest(`[data-testid=${id}]`), testId);
    for (const [open, testId] of [
      ['F8', 'parked-dialog'],
      ['Alt+S', 'sales-panel'],
      ['F1', 'help'],
    ] as const) {
      await page.keyboard.press(open);
      await page.waitForSelector(`[data-testid=${testId}]`, { timeout: 30_000 });
      expect(await focusIn(testId)).toBe(true);
      for (let tab = 0; tab < 6; tab++) {
        await page.keyboard.press(tab % 2 ? 'Shift+Tab' : 'Tab');
        await page.keyboard.press('Tab');
        expect(await focusIn(testId)).toBe(true);
      }
      await page.keyboard.press('Escape');
      await page.waitForSelector(`[data-testid=${testId}]`, { state: 'detached', timeout: 30_000 });
      await page.waitForFunction(
        () => document.activeElement?.getAttribute('data-testid') === 'search',
        null,
        {
          timeout: 30_000,
        },
      );
    }
  });

  it('moves through the parked sales with the arrows and resumes the one chosen with Enter', async () => {
    await signInAndOpenShift();
    for (const [code, name, total] of [
      ['6009801234567', 'Asha', 'TZS 4,500'],
      ['6201111000013', 'Baraka', 'TZS 1,000'],
    ] as const) {
      await scanAndSee(code, total);
      await page.keyboard.press('F8');
      await page.waitForSelector('[data-testid=parked-dialog] input:focus', { timeout: 30_000 });
      await typeTimed(page, name, 120);
      await page.waitForSelector('[data-testid=parked-dialog]', { state: 'detached', timeout: 30_000 });
    }
    await page.keyboard.press('F8');
    await page.waitForSelector('[data-testid=parked-dialog] li', { timeout: 30_000 });
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(await focused()).toContain('Asha');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toContain('Baraka');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toContain('Baraka');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=parked-dialog]', { state: 'detached', timeout: 30_000 });
    await page.waitForSelector('[data-testid=total] >> text=TZS 1,000', { timeout: 30_000 });
  });

  it('shows the first sync’s progress until the cashiers are on the till, then the PIN pad', async () => {
    await page.evaluate(() => window.preview!.setFirstSync({ cashiers: 0, catalogue: false }));
    await page.waitForSelector('[data-testid=first-sync-screen]', { timeout: 30_000 });
    expect(await page.$('[data-testid=sign-in-screen]')).toBeNull();
    await page.evaluate(() => window.preview!.setFirstSync({ cashiers: 2 }));
    await page.waitForSelector('[data-testid=sign-in-screen] input:focus', { timeout: 30_000 });
  });

  it('shows every shortcut on ? and switches language with Alt+L', async () => {
    await signInAndOpenShift();
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid=help]', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=help]')).toContain(
      'Complete the sale in cash for the exact total',
    );
    await page.keyboard.press('Escape');
    await page.keyboard.press('Alt+L');
    await page.waitForSelector('text=Taslimu kamili', { timeout: 30_000 });
    expect(await page.textContent('[data-testid=language]')).toBe('English');
  });

  it('shows every shortcut of the help without scrolling, at each counter size and in both languages, on the sale screen and the desk', async () => {
    const hidden: string[] = [];
    /** The help's rows cut off or past a fold, after checking it shows `count` of them. */
    const cutRows = async (sized: Page, count: number) => {
      await sized.keyboard.press('F1');
      await sized.waitForSelector('[data-testid=help] .shortcut', { timeout: 30_000 });
      // Each shortcut lies wholly inside the help's visible body and the window, none cut off or past a fold.
      const cut = await sized.$$eval('[data-testid=help] .shortcut', (rows) => {
        const body = rows[0]!.closest('.dialog-body')!.getBoundingClientRect();
        return rows
          .filter((row) => {
            const box = row.getBoundingClientRect();
            const text = row.querySelector('dd')!;
            return (
              box.top < body.top ||
              box.bottom > body.bottom + 0.5 ||
              box.bottom > window.innerHeight ||
              box.right > body.right + 0.5 ||
              text.scrollWidth > text.clientWidth + 1
            );
          })
          .map((row) => row.textContent ?? '');
      });
      expect(await sized.$$eval('[data-testid=help] .shortcut', (rows) => rows.length)).toBe(count);
      await sized.keyboard.press('Escape');
      await sized.waitForSelector('[data-testid=help]', { state: 'detached' });
      return cut;
    };
    for (const [width, height] of [
      [1366, 768],
      [1280, 800],
      [800, 1280],
    ] as const) {
      for (const lang of ['sw', 'en'] as const) {
        const sized = await browser.newPage({ viewport: { width, height } });
        try {
          await openSaleScreen(sized, preview, lang);
          const sale = await cutRows(sized, helpShortcuts({ atDesk: false, hasDesk: false }).length);
          hidden.push(...sale.map((row) => `${width}x${height} ${lang}: ${row}`));
          if (width !== 1366) continue;
          // A guest house's till: the desk's keys on the desk, its switch on the sale screen.
          await sized.evaluate(() => window.preview!.setDesk(true));
          await sized.waitForSelector('[data-testid=mode-desk]', { timeout: 30_000 });
          await cutRows(sized, helpShortcuts({ atDesk: false, hasDesk: true }).length);
          await sized.keyboard.press('Alt+D');
          await sized.waitForSelector('[data-testid=desk-screen]', { timeout: 30_000 });
          const desk = await cutRows(sized, helpShortcuts({ atDesk: true, hasDesk: true }).length);
          hidden.push(...desk.map((row) => `${width}x${height} ${lang} desk: ${row}`));
        } finally {
          await sized.close();
        }
      }
    }
    expect(hidden).toEqual([]);
  });

  it('greys out and refuses payment on a retiring till, which still shows its sales', async () => {
    await page.evaluate(() => {
      window.preview!.setCashier(true);
      window.preview!.setShift(true);
      window.preview!.fillCart();
      window.preview!.setPairing('retiring');
    });
    await page.waitForSelector('[data-testid=retiring]', { timeout: 30_000 });
    expect(await page.isDisabled('[data-testid=cash-exact]')).toBe(true);
    expect(await page.isDisabled('button:has-text("Pay")')).toBe(true);
    await page.keyboard.press('F9');
    await page.waitForSelector('.notice.error:has-text("retired")', { timeout: 30_000 });
    await page.keyboard.press('F10');
    expect(await page.$('[data-testid=sale-done], .tender')).toBeNull();
  });

  it('asks before unpairing in its own dialog and language, never the browser’s', async () => {
    const browserDialogs: string[] = [];
    page.on('dialog', (dialog) => {
      browserDialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await openSaleScreen(page, preview, 'sw');
    await page.keyboard.press('Alt+T');
    await page.click('[data-testid=unpair]');
    const asked = await page.waitForSelector('[data-testid=unpair-confirm]', { timeout: 30_000 });
    expect(await asked.textContent()).toContain('Itahitaji msimbo mpya');
    // Cancel has focus: Enter keeps the till paired.
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=unpair-confirm]', { state: 'detached', timeout: 30_000 });
    expect(await page.$('[data-testid=pair-screen]')).toBeNull();
    await page.click('[data-testid=unpair]');
    await page.click('[data-testid=unpair-confirm] button.danger');
    await page.waitForSelector('[data-testid=pair-screen]', { timeout: 30_000 });
    expect(browserDialogs).toEqual([]);
  });

  it('shows a notice clear of the cart on a counter screen and of the total on a phone', async () => {
    const overlaps: string[] = [];
    for (const [width, height, clearOf] of [
      [1366, 768, 'cart'],
      [1280, 800, 'cart'],
      [360, 740, 'total'],
    ] as const) {
      const sized = await browser.newPage({ viewport: { width, height } });
      try {
        await openSaleScreen(sized, preview, 'sw');
        await sized.evaluate(() => window.preview!.fillCart());
        await typeTimed(sized, '6209999999999', 5);
        const notice = await sized.waitForSelector('.notice.error', { timeout: 30_000 });
        const a = (await notice.boundingBox())!;
        const b = (await (await sized.$(`[data-testid=${clearOf}]`))!.boundingBox())!;
        const apart =
          a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        if (!apart) overlaps.push(`${width}x${height} covers the ${clearOf}`);
      } finally {
        await sized.close();
      }
    }
    expect(overlaps).toEqual([]);
  }, 120_000);
});
