import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { withMerchant, anotherMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import { draftInvoice, invoiceInStatus, makeCustomer, openInvoice } from './support.ts';

let server: RunningServer;
let api: Api;
let key: string;
let customer: string;

beforeAll(async () => {
  const made = await withMerchant({ business_name: 'Duka la Bi Mwanaisha' });
  server = made.server;
  api = made.api;
  key = made.merchant.keys.secretTest;
  customer = await makeCustomer(api);
});
afterAll(() => server?.close());

/** Runs a poppler tool on the PDF given on standard input. */
function poppler(tool: string, args: string[], pdf: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(tool, args, (error, stdout) =>
      error ? reject(new Error(`${tool} failed: ${error.message}`)) : resolve(stdout),
    );
    child.stdin!.end(pdf);
  });
}

/** The PDF's text as pdftotext reads it (layout kept, so a row stays on one line). */
const pdfText = (pdf: Buffer) => poppler('pdftotext', ['-layout', '-', '-'], pdf);

async function fetchPdf(path: string, withKey = true) {
  const response = await fetch(`${server.url}${path}`, {
    headers: withKey ? { Authorization: `Bearer ${key}` } : {},
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

describe('invoice PDFs', () => {
  it('shows the number, lines, VAT and totals, in English and Swahili', async () => {
    const open = await openInvoice(api, customer);
    const pdf = await fetchPdf(`/v1/invoices/${open.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf.bytes);
    expect(text).toContain('Duka la Bi Mwanaisha');
    expect(text).toContain(open.number);
    expect(text).toMatch(/Ushauri wa biashara \(saa\)\s+2\s+TZS 11,800\s+18%\s+TZS 23,600/);
    expect(text).toMatch(/Mafunzo ya wafanyakazi\s+1\s+TZS 5,000\s+0%\s+TZS 5,000/);
    expect(text).toMatch(/Subtotal \(excl\. VAT\)\s+TZS 25,000/);
    expect(text).toMatch(/VAT 18%\s+TZS 3,600/);
    expect(text).toMatch(/Total\s+TZS 28,600/);
    expect(text).toMatch(/Amount due\s+TZS 28,600/);
    expect(text).toContain('Asante kwa biashara yako');
    expect(text).toContain(open.hosted_invoice_url);

    const sw = await pdfText((await fetchPdf(`/v1/invoices/${open.id}/pdf?lang=sw`)).bytes);
    expect(sw).toContain('ANKARA');
    expect(sw).toMatch(/Jumla bila VAT\s+TZS 25,000/);
    expect(sw).toMatch(/Kinachodaiwa\s+TZS 28,600/);
  });

  it('gives a receipt only once paid, naming the payment', async () => {
    const open = await openInvoice(api, customer);
    const early = await fetchPdf(`/v1/invoices/${open.id}/receipt/pdf`);
    expect(early.status).toBe(400);
    expect(JSON.parse(early.bytes.toString())).toMatchObject({ code: 'payment_not_paid' });
    const charged = await api.post(`/v1/invoices/${open.id}/pay`, {});
    await invoiceInStatus(api, open.id, 'paid');
    const receipt = await fetchPdf(`/v1/invoices/${open.id}/receipt/pdf`);
    expect(receipt.status).toBe(200);
    const text = await pdfText(receipt.bytes);
    expect(text).toContain('RECEIPT');
    expect(text).toContain(open.number);
    expect(text).toContain(charged.body.payment);
    expect(text).toMatch(/Amount paid\s+TZS 28,600/);
    expect(text).toMatch(/Amount due\s+TZS 0/);
    // The hosted page serves the same documents by its token, without a key.
    const token = open.hosted_invoice_url.split('/').pop();
    const hosted = await fetchPdf(`/invoice/${token}/receipt.pdf?lang=sw`, false);
    expect(hosted.status).toBe(200);
    expect(await pdfText(hosted.bytes)).toContain('STAKABADHI');
  });

  it('pages a long invoice and keeps every line', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => ({
      description: `Bidhaa namba ${i + 1} — maelezo marefu ya kutosha kuvunjwa kwenye mistari miwili ndani ya safu`,
      quantity: i + 1,
      unit_amount: 1_000,
    }));
    const open = await openInvoice(api, customer, { lines });
    const pdf = await fetchPdf(`/v1/invoices/${open.id}/pdf`);
    const info = await poppler('pdfinfo', ['-'], pdf.bytes);
    expect(Number(/Pages:\s+(\d+)/.exec(info)?.[1])).toBeGreaterThan(2);
    const text = await pdfText(pdf.bytes);
    for (let i = 1; i <= 100; i++) expect(text).toContain(`Bidhaa namba ${i} —`);
    expect(text).toMatch(/Total\s+TZS 5,050,000/);
  });

  it('renders a finalised invoice once, and again only when what it shows changes', async () => {
    const open = await openInvoice(api, customer);
    const renders = () => server.services.pdfRenderer.rendered;
    const before = renders();
    const first = await fetchPdf(`/v1/invoices/${open.id}/pdf`);
    expect(renders()).toBe(before + 1);
    const again = await fetchPdf(`/v1/invoices/${open.id}/pdf`);
    expect(again.status).toBe(200);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    // The hosted page serves the same stored copy.
    const token = open.hosted_invoice_url.split('/').pop();
    expect((await fetchPdf(`/invoice/${token}/pdf?lang=en`, false)).bytes.equals(first.bytes)).toBe(true);
    expect(renders()).toBe(before + 1);
    // Each language is its own document.
    await fetchPdf(`/v1/invoices/${open.id}/pdf?lang=sw`);
    expect(renders()).toBe(before + 2);

    // Paid, it shows so: rendered again once, then served as stored.
    await api.post(`/v1/invoices/${open.id}/pay`, {});
    await invoiceInStatus(api, open.id, 'paid');
    const paid = await fetchPdf(`/v1/invoices/${open.id}/pdf`);
    expect(renders()).toBe(before + 3);
    expect(await pdfText(paid.bytes)).toMatch(/Amount due\s+TZS 0/);
    expect(await pdfText(first.bytes)).toMatch(/Amount due\s+TZS 28,600/);
    await fetchPdf(`/v1/invoices/${open.id}/pdf`);
    const stored = await server.database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM invoice_documents WHERE invoice_id = $1`,
      [open.id],
    );
    expect(renders()).toBe(before + 3);
    expect(stored.rows[0]!.n).toBe(2);
  });

  it('has none for a draft, and none of another merchant’s invoice', async () => {
    const draft = await draftInvoice(api, customer);
    expect((await fetchPdf(`/v1/invoices/${draft.id}/pdf`)).status).toBe(400);
    const open = await openInvoice(api, customer);
    const stranger = await anotherMerchant(server);
    const theirs = await fetch(`${server.url}/v1/invoices/${open.id}/pdf`, {
      headers: { Authorization: `Bearer ${stranger.merchant.keys.secretTest}` },
    });
    expect(theirs.status).toBe(404);
    expect((await fetchPdf(`/invoice/not-a-token/pdf`, false)).status).toBe(404);
  });
});
