import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { withMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import { eventually } from '../support/server.ts';
import { largestInvoiceView } from './largest.ts';
import { makeCustomer, openInvoice } from './support.ts';

// One worker and one render waiting: the third at once is refused. Six different documents asked
// for together: on a busy machine requests arrive spread out, and a first render may end before a
// third request comes, but not four before the sixth.
const INVOICES = 6;
let server: RunningServer;
let api: Api;
let key: string;
let largest: string[];

beforeAll(async () => {
  const made = await withMerchant({ env: { PDF_WORKERS: '1', PDF_QUEUE_MAX: '1' } });
  server = made.server;
  api = made.api;
  key = made.merchant.keys.secretTest;
  const customer = await makeCustomer(api);
  const view = largestInvoiceView().invoice;
  const lines = view.lines.map((line) => ({
    description: line.description,
    quantity: 1,
    unit_amount: 1_180,
  }));
  largest = [];
  for (let i = 0; i < INVOICES; i++)
    largest.push((await openInvoice(api, customer, { lines, memo: view.memo })).id);
  // A server and six of the largest invoices: slow on a loaded host.
}, 120_000);
afterAll(() => server?.close());

const fetchPdf = (id: string, lang = 'en') =>
  fetch(`${server.url}/v1/invoices/${id}/pdf?lang=${lang}`, { headers: { Authorization: `Bearer ${key}` } });

describe('invoice PDFs under load', () => {
  it('answers /healthz while large PDFs render', { timeout: 90_000 }, async () => {
    const renders = [fetchPdf(largest[0]!, 'sw'), fetchPdf(largest[1]!, 'sw')];
    await eventually(() => Promise.resolve(server.services.pdfRenderer.load > 0));
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    for (const response of await Promise.all(renders)) expect(response.status).toBe(200);
  });

  it(
    'refuses a PDF beyond the bound at once with the error object and Retry-After',
    { timeout: 90_000 },
    async () => {
      const responses = await Promise.all(largest.map((id) => fetchPdf(id)));
      const refused = responses.filter((response) => response.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const response of responses) {
        if (response.status === 200) {
          expect(response.headers.get('content-type')).toBe('application/pdf');
          continue;
        }
        expect(response.status).toBe(503);
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await response.json()).toMatchObject({ error: 'api_error', code: 'service_unavailable' });
      }
      // Asked again once the others are done, each is served.
      for (const id of largest) expect((await fetchPdf(id)).status).toBe(200);
    },
  );
});
