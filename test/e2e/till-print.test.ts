/**
 * `POST /v1/print` end to end: the job waits on the server until the printer's
 * till pulls it, prints on the virtual printer through the local bridge and
 * reports `printed`. A job made while the till is offline waits, and prints
 * exactly once when the till is back. At the counter, a reprint is marked as a
 * copy and a refund prints its slip, read back from the virtual printer; a
 * reprint of a till's sale through the API reads as the till's own reprint.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/server.ts';
import {
  MANAGER_PIN,
  goOffline,
  goOnline,
  newTill,
  openTill,
  startTillShop,
  type TillShop,
} from '../support/till-e2e.ts';

let shop: TillShop;

beforeAll(async () => {
  shop = await startTillShop();
}, 240_000);
afterAll(async () => {
  await shop?.close();
});

const printedJob = (id: string) =>
  eventually(async () => {
    const job = (await shop.api.get(`/v1/print-jobs/${id}`)).body;
    return job.status === 'printed' ? job : undefined;
  }, 60_000);

describe('printing from the API through the till', () => {
  it('prints a text job on the till printer and marks it printed; offline it waits and prints once when back', async () => {
    const { till, context, printer } = await newTill(shop);
    try {
      const page = await openTill(context, till.pairing_url);
      const before = shop.printer.jobs.length;

      const online = await shop.api.post('/v1/print', { printer, text: 'Karibu tena: ofa ya leo' });
      expect(online.status).toBe(201);
      expect(online.body.status).toBe('pending');
      await printedJob(online.body.id);
      const [first] = await shop.printer.waitForJobs(before + 1, 30_000).then((jobs) => jobs.slice(before));
      expect(first!.text).toContain('Karibu tena: ofa ya leo');

      await goOffline(shop, context);
      const queued = await shop.api.post('/v1/print', { printer, text: 'Bei mpya ya sukari' });
      expect(queued.status).toBe(201);
      // The till cannot hear of it: the job stays pending and nothing prints. Proving nothing
      // happens needs a moment: an offline till marks none.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect((await shop.api.get(`/v1/print-jobs/${queued.body.id}`)).body.status).toBe('pending');
      expect(shop.printer.jobs.length).toBe(before + 1);

      await goOnline(shop, context);
      const job = await printedJob(queued.body.id);
      expect(job).toMatchObject({ status: 'printed', till: till.id, text: 'Bei mpya ya sukari' });
      const printed = await shop.printer.waitForJobs(before + 2, 30_000);
      expect(printed[before + 1]!.text).toContain('Bei mpya ya sukari');
      // Once: later pulls do not print it again. A job sent after it prints after any second print of it.
      const later = await shop.api.post('/v1/print', { printer, text: 'Habari za jioni' });
      await printedJob(later.body.id);
      const all = await shop.printer.waitForJobs(before + 3, 30_000);
      expect(all.at(-1)!.text).toContain('Habari za jioni');
      expect(shop.printer.jobs.filter((j) => j.text.includes('Bei mpya ya sukari'))).toHaveLength(1);
      expect(page.isClosed()).toBe(false);
    } finally {
      await context.close();
    }
  }, 180_000);
});

/** Sells the cart with F9, then reprints the sale with Alt+R: its number and both jobs as printed. */
async function sellAndReprint(page: Page) {
  const before = shop.printer.jobs.length;
  await page.keyboard.press('F9');
  await page.waitForSelector('[data-testid=sale-done]', { timeout: 30_000 });
  const [receipt] = (await shop.printer.waitForJobs(before + 1, 30_000)).slice(before);
  const receiptNumber = /Risiti:\s+(T\d{2}-\d{6})/.exec(receipt!.text)?.[1];
  expect(receiptNumber).toBeDefined();
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=sale-done]', { state: 'detached' });
  await page.keyboard.press('Alt+R');
  const [copy] = (await shop.printer.waitForJobs(before + 2, 30_000)).slice(before + 1);
  return { before, receipt: receipt!, receiptNumber: receiptNumber!, copy: copy! };
}

describe('paper at the counter', () => {
  it('marks a reprint NAKALA at the top, and prints a refund slip after a refund', async () => {
    const { till, context } = await newTill(shop);
    try {
      const errors: string[] = [];
      const page = await openTill(context, till.pairing_url, errors);
      const { before, receipt, receiptNumber, copy } = await sellAndReprint(page);
      expect(receipt.text).not.toMatch(/N A K A L A|C O P Y/);

      // Alt+R reprinted it, marked as a copy above everything else.
      // The decoded job spaces out double-width text: the mark is the first printed line.
      const firstLine = copy.text.split('\n').find((line) => line.startsWith('|'));
      expect(firstLine).toContain('* * *   N A K A L A   * * *');
      expect(copy.text).toMatch(new RegExp(`Risiti:\\s+${receiptNumber}`));
      expect(copy.text).toContain('Sukari Kilombero');

      // A refund from the sales list, approved by the manager, prints its slip at once.
      await page.keyboard.press('Alt+S');
      await page.locator('[data-testid=sales-panel] .sale-open').first().click();
      await page.click('[data-testid=sale-detail] >> text=/^Rejesha$/');
      const form = page.locator('[data-testid=manager-action]');
      await form.getByLabel('PIN ya meneja').fill(MANAGER_PIN);
      await form.locator('button[type=submit]').click();
      const [slip] = (await shop.printer.waitForJobs(before + 3, 30_000)).slice(before + 2);
      expect(slip!.text).toContain('M A R E J E S H O');
      expect(slip!.text).toMatch(new RegExp(`Risiti ya awali:\\s+${receiptNumber}`));
      expect(slip!.text).toContain('Sukari Kilombero');
      expect(slip!.text).toMatch(/IMEREJESHWA TZS\s+3,500/);
      expect(slip!.text).toMatch(/Taslimu\s+3,500/);
      expect(slip!.text).toMatch(/Keshia:\s+Neema/);
      expect(slip!.text).toMatch(/Imeidhinishwa na:\s+Baraka/);
      expect(slip!.text).not.toContain('N A K A L A');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('reprints a till’s sale through the API word for word as the till reprints it, names and all', async () => {
    const { till, context, printer } = await newTill(shop);
    try {
      const errors: string[] = [];
      const page = await openTill(context, till.pairing_url, errors);
      const { before, receiptNumber, copy } = await sellAndReprint(page);

      // The sale syncs; the server's copy of its receipt goes back to the till's printer.
      const order = await eventually(async () => {
        const found = await shop.api.get(`/v1/orders?receipt_number=${receiptNumber}`);
        return found.body.data?.[0];
      }, 30_000);
      expect(order).toMatchObject({ till: till.id, cashier: expect.stringMatching(/^emp_/) });
      const job = await shop.api.post('/v1/print', { printer, order: order.id });
      expect(job.status).toBe(201);
      await printedJob(job.body.id);
      const [reprint] = (await shop.printer.waitForJobs(before + 3, 30_000)).slice(before + 2);
      expect(reprint!.text).toMatch(/Keshia:\s+Neema/);
      expect(reprint!.text).toMatch(/Kituo:\s+Kaunta 1/);
      expect(reprint!.text).toBe(copy.text);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
