import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import type { InvoicePaymentOutcome } from '../../apps/server/src/invoices/collection.ts';
import { OverdueInvoices } from '../../apps/server/src/invoices/overdue.ts';
import { client, eventually, startTestServer } from '../support/server.ts';
import { quietLogger } from '../support/logger.ts';
import { anotherMerchant } from '../support/merchant.ts';
import type { Api } from '../support/retail.ts';
import {
  draftInvoice,
  eventTypesOf,
  invoiceInStatus,
  makeCustomer,
  openInvoice,
  SAMPLE_LINES,
} from './support.ts';

const DAY = 86_400;
const clock = movableClock();
let server: RunningServer;
let api: Api;
let liveApi: Api;
let customer: string;
const heard: Array<{ invoice: string; status: string; outcome: InvoicePaymentOutcome['status'] }> = [];

beforeAll(async () => {
  server = await startTestServer({}, { clock });
  const signed = await anotherMerchant(server);
  api = signed.api;
  liveApi = client(server.url, signed.merchant.keys.secretLive);
  customer = await makeCustomer(api);
  // What an invoice was made for hears of its payment's outcome inside the outcome's transaction:
  // it sees the invoice as just moved.
  const billing = server.services.subscriptionBilling;
  const told = billing.onInvoicePayment.bind(billing);
  vi.spyOn(billing, 'onInvoicePayment').mockImplementation(async (tx, invoice, outcome) => {
    const row = await tx.query<{ status: string }>('SELECT status FROM invoices WHERE id = $1', [invoice]);
    heard.push({ invoice, status: row.rows[0]!.status, outcome });
    return told(tx, invoice, outcome);
  });
});
afterAll(() => server?.close());

const count = async (sql: string, params: unknown[]) =>
  Number((await server.database.pool.query<{ n: string }>(sql, params)).rows[0]!.n);

describe('drafts and totals', () => {
  it('prices lines VAT-inclusive by tax class and region, and takes no number', async () => {
    const draft = await draftInvoice(api, customer);
    expect(draft).toMatchObject({
      object: 'invoice',
      status: 'draft',
      number: null,
      hosted_invoice_url: null,
      customer,
      subscription: null,
      vat_region: 'mainland',
      total: 28_600,
      tax: 3_600,
      subtotal: 25_000,
      amount_due: 28_600,
      amount_paid: 0,
      memo: 'Asante kwa biashara yako',
    });
    expect(draft.lines).toEqual([
      {
        description: 'Ushauri wa biashara (saa)',
        quantity: 2,
        unit_amount: 11_800,
        tax_class: 'standard',
        tax_rate_basis_points: 1800,
        amount: 23_600,
        tax: 3_600,
      },
      {
        description: 'Mafunzo ya wafanyakazi',
        quantity: 1,
        unit_amount: 5_000,
        tax_class: 'exempt',
        tax_rate_basis_points: 0,
        amount: 5_000,
        tax: 0,
      },
    ]);
    expect(draft.due_date).toBeGreaterThan(Math.floor(clock.now().getTime() / 1000) + 29 * DAY);
    expect(await eventTypesOf(server, draft.id)).toEqual(['invoice.created']);

    const zanzibar = await api.post(`/v1/invoices/${draft.id}`, {
      vat_region: 'zanzibar',
      lines: [{ description: 'Ushauri', unit_amount: 11_500 }],
    });
    expect(zanzibar.status).toBe(200);
    expect(zanzibar.body).toMatchObject({ total: 11_500, tax: 1_500, subtotal: 10_000, memo: draft.memo });
    expect(await eventTypesOf(server, draft.id)).toEqual(['invoice.created', 'invoice.updated']);
  });

  it('refuses a due date in the past, another merchant’s customer and a finalised invoice’s edit, moving nothing', async () => {
    const before = await count('SELECT count(*) AS n FROM invoices', []);
    const past = await api.post('/v1/invoices', {
      customer,
      currency: 'TZS',
      lines: SAMPLE_LINES,
      due_date: Math.floor(clock.now().getTime() / 1000) - 60,
    });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ code: 'parameter_invalid', details: { due_date: 'is in the past' } });

    const stranger = await anotherMerchant(server);
    const theirs = await makeCustomer(stranger.api);
    const foreign = await api.post('/v1/invoices', {
      customer: theirs,
      currency: 'TZS',
      lines: SAMPLE_LINES,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('resource_missing');

    const badLine = await api.post('/v1/invoices', {
      customer,
      currency: 'TZS',
      lines: [{ description: 'x', unit_amount: -1 }],
    });
    expect(badLine.status).toBe(400);
    expect(await count('SELECT count(*) AS n FROM invoices', [])).toBe(before);

    const open = await openInvoice(api, customer);
    const edit = await api.post(`/v1/invoices/${open.id}`, { memo: 'changed' });
    expect(edit.status).toBe(400);
    expect(edit.body.code).toBe('state_transition_invalid');
    expect((await api.get(`/v1/invoices/${open.id}`)).body.memo).toBe(open.memo);
  });
});

describe('numbers', () => {
  it('numbers per merchant and mode without gaps, at finalisation only', async () => {
    const { api: fresh, merchant } = await anotherMerchant(server);
    const freshLive = client(server.url, merchant.keys.secretLive);
    const who = await makeCustomer(fresh);
    const liveWho = await makeCustomer(freshLive);
    const drafts = await Promise.all([1, 2, 3, 4, 5].map(() => draftInvoice(fresh, who)));
    // A failed finalisation (due date passed meanwhile) gives its number back.
    const stale = await draftInvoice(fresh, who, { days_until_due: 1 });
    clock.advance(2 * DAY * 1000);
    try {
      const refused = await fresh.post(`/v1/invoices/${stale.id}/finalize`);
      expect(refused.status).toBe(400);
      expect(refused.body.details).toHaveProperty('due_date');
      const finalized = await Promise.all(drafts.map((d) => fresh.post(`/v1/invoices/${d.id}/finalize`)));
      for (const response of finalized) expect(response.status).toBe(200);
      expect(finalized.map((r) => r.body.number).sort()).toEqual([
        'INV-000001',
        'INV-000002',
        'INV-000003',
        'INV-000004',
        'INV-000005',
      ]);
    } finally {
      clock.advance(-2 * DAY * 1000);
    }
    const live = await openInvoice(freshLive, liveWho);
    expect(live).toMatchObject({ number: 'INV-000001', livemode: true });
    const again = await fresh.post(`/v1/invoices/${drafts[0].id}/finalize`);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('state_transition_invalid');
  });

  it('hides other merchants’ and the other mode’s invoices', async () => {
    const open = await openInvoice(api, customer);
    const stranger = await anotherMerchant(server);
    for (const [who, path] of [
      [stranger.api, `/v1/invoices/${open.id}`],
      [liveApi, `/v1/invoices/${open.id}`],
    ] as const) {
      expect((await who.get(path)).status).toBe(404);
      const voided = await who.post(`${path}/void`);
      expect(voided.status).toBe(404);
      expect(voided.body.code).toBe('resource_missing');
      expect((await who.post(`${path}/pay`, { phone: '0700000001' })).status).toBe(404);
    }
    expect((await api.get(`/v1/invoices/${open.id}`)).body.status).toBe('open');
    expect(await count('SELECT count(*) AS n FROM payments WHERE invoice_id = $1', [open.id])).toBe(0);
    const listed = await api.get(`/v1/invoices?status=open&customer=${customer}&limit=100`);
    expect(listed.body.data.map((i: { id: string }) => i.id)).toContain(open.id);
    expect((await stranger.api.get('/v1/invoices')).body.data).toEqual([]);
  });
});

describe('payment by mobile money', () => {
  it('pays an open invoice through the payment path and emits invoice.paid in the outcome', async () => {
    const open = await openInvoice(api, customer);
    expect(open.hosted_invoice_url).toMatch(
      new RegExp(`^${server.config.publicUrl}/invoice/[A-Za-z0-9]{32}$`),
    );
    const charged = await api.post(`/v1/invoices/${open.id}/pay`, {});
    expect(charged.status).toBe(200);
    expect(charged.body.payment).toMatch(/^pay_/);
    const payment = await api.get(`/v1/payments/${charged.body.payment}`);
    expect(payment.body).toMatchObject({ amount: 28_600, phone: '255700000001', invoice: open.id });

    const paid = await invoiceInStatus(api, open.id, 'paid');
    expect(paid).toMatchObject({ amount_paid: 28_600, amount_due: 0, payment: charged.body.payment });
    expect(await eventTypesOf(server, open.id)).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
    ]);
    expect(heard).toContainEqual({ invoice: open.id, status: 'paid', outcome: 'paid' });
    // The invoice and its payment moved in one transaction.
    const together = await server.database.pool.query(
      `SELECT 1 FROM events e JOIN events p ON p.data->'object'->>'id' = $2 AND p.type = 'payment.succeeded'
       WHERE e.data->'object'->>'id' = $1 AND e.type = 'invoice.paid'`,
      [open.id, charged.body.payment],
    );
    expect(together.rowCount).toBe(1);

    const twice = await api.post(`/v1/invoices/${open.id}/pay`, { phone: '0700000001' });
    expect(twice.status).toBe(400);
    expect(twice.body.code).toBe('state_transition_invalid');
    expect(await count('SELECT count(*) AS n FROM payments WHERE invoice_id = $1', [open.id])).toBe(1);
  });

  it('leaves the invoice open when the payment fails, and tells the listeners', async () => {
    const open = await openInvoice(api, customer);
    const charged = await api.post(`/v1/invoices/${open.id}/pay`, { phone: '0700000002' });
    expect(charged.status).toBe(200);
    await eventually(() => Promise.resolve(heard.find((h) => h.invoice === open.id)));
    expect(heard).toContainEqual({ invoice: open.id, status: 'open', outcome: 'failed' });
    expect((await api.get(`/v1/invoices/${open.id}`)).body.status).toBe('open');
    const retry = await api.post(`/v1/invoices/${open.id}/pay`, { phone: '0700000001' });
    expect(retry.status).toBe(200);
    await invoiceInStatus(api, open.id, 'paid');
  });

  it('refuses paying a draft or a void invoice, and voiding while a payment is pending', async () => {
    const draft = await draftInvoice(api, customer);
    const onDraft = await api.post(`/v1/invoices/${draft.id}/pay`, { phone: '0700000001' });
    expect(onDraft.status).toBe(400);
    expect(onDraft.body.message).toMatch(/finalise it first/);

    const open = await openInvoice(api, customer);
    const pending = await api.post(`/v1/invoices/${open.id}/pay`, { phone: '0700000003' });
    expect(pending.status).toBe(200);
    const voidNow = await api.post(`/v1/invoices/${open.id}/void`);
    expect(voidNow.status).toBe(400);
    expect(voidNow.body.details).toHaveProperty('payment');

    const other = await openInvoice(api, customer);
    const voided = await api.post(`/v1/invoices/${other.id}/void`);
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ status: 'void', amount_due: 0 });
    const payVoid = await api.post(`/v1/invoices/${other.id}/pay`, { phone: '0700000001' });
    expect(payVoid.status).toBe(400);
    expect(payVoid.body).toMatchObject({
      code: 'state_transition_invalid',
      details: { status: "is 'void'" },
    });
    expect(await count('SELECT count(*) AS n FROM payments WHERE invoice_id = $1', [other.id])).toBe(0);
    expect(await eventTypesOf(server, other.id)).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.voided',
    ]);
  });

  it('still takes payment for an uncollectible invoice', async () => {
    const open = await openInvoice(api, customer);
    const writtenOff = await api.post(`/v1/invoices/${open.id}/mark_uncollectible`);
    expect(writtenOff.body.status).toBe('uncollectible');
    await api.post(`/v1/invoices/${open.id}/pay`, { phone: '0700000001' });
    await invoiceInStatus(api, open.id, 'paid');
  });
});

describe('send and overdue', () => {
  it('send finalises a draft, records sent_at and emits invoice.sent', async () => {
    const draft = await draftInvoice(api, customer);
    const sent = await api.post(`/v1/invoices/${draft.id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('open');
    expect(sent.body.number).toMatch(/^INV-\d{6}$/);
    expect(sent.body.sent_at).toEqual(expect.any(Number));
    expect(await eventTypesOf(server, draft.id)).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.sent',
    ]);
  });

  it('emits invoice.overdue once, when the clock passes the due date of an open invoice', async () => {
    const open = await openInvoice(api, customer, { days_until_due: 3 });
    const paidOne = await openInvoice(api, customer, { days_until_due: 3 });
    await api.post(`/v1/invoices/${paidOne.id}/pay`, { phone: '0700000001' });
    await invoiceInStatus(api, paidOne.id, 'paid');
    // The server polls every second; a check the test runs itself has surely run when it returns.
    const check = new OverdueInvoices(
      server.database,
      server.services.invoices,
      clock,
      server.services.events,
      quietLogger,
    );
    await check.check();
    expect(await eventTypesOf(server, open.id)).not.toContain('invoice.overdue');
    clock.advance(4 * DAY * 1000);
    try {
      await eventually(async () => (await eventTypesOf(server, open.id)).includes('invoice.overdue'));
      clock.advance(DAY * 1000);
      await check.check();
    } finally {
      clock.advance(-5 * DAY * 1000);
    }
    const types = await eventTypesOf(server, open.id);
    expect(types.filter((type) => type === 'invoice.overdue')).toHaveLength(1);
    expect((await api.get(`/v1/invoices/${open.id}`)).body.overdue_at).toEqual(expect.any(Number));
    expect(await eventTypesOf(server, paidOne.id)).not.toContain('invoice.overdue');
  });
});
