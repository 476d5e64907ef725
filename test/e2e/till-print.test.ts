/**
 * `POST /v1/print` end to end: the job waits on the server until the printer's
 * till pulls it, prints on the virtual printer through the local bridge and
 * reports `printed`. A job made while the till is offline waits, and prints
 * exactly once when the till is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/server.ts';
import { goOffline, goOnline, newTill, openTill, startTillShop, type TillShop } from '../support/till-e2e.ts';

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
  }, 30_000);

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
      const [first] = await shop.printer.waitForJobs(before + 1, 15_000).then((jobs) => jobs.slice(before));
      expect(first!.text).toContain('Karibu tena: ofa ya leo');

      await goOffline(shop, context);
      const queued = await shop.api.post('/v1/print', { printer, text: 'Bei mpya ya sukari' });
      expect(queued.status).toBe(201);
      // The till cannot hear of it: the job stays pending and nothing prints.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect((await shop.api.get(`/v1/print-jobs/${queued.body.id}`)).body.status).toBe('pending');
      expect(shop.printer.jobs.length).toBe(before + 1);

      await goOnline(shop, context);
      const job = await printedJob(queued.body.id);
      expect(job).toMatchObject({ status: 'printed', till: till.id, text: 'Bei mpya ya sukari' });
      const printed = await shop.printer.waitForJobs(before + 2, 15_000);
      expect(printed[before + 1]!.text).toContain('Bei mpya ya sukari');
      // Once: later pulls do not print it again.
      await new Promise((resolve) => setTimeout(resolve, 5000));
      expect(shop.printer.jobs.filter((j) => j.text.includes('Bei mpya ya sukari'))).toHaveLength(1);
      expect(page.isClosed()).toBe(false);
    } finally {
      await context.close();
    }
  }, 180_000);
});
