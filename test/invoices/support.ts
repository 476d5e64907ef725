import { expect } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { eventually } from '../support/server.ts';
import type { Api } from '../support/retail.ts';

/** A customer with a mobile money number; fails the test when creation fails. */
export async function makeCustomer(api: Api, phone = '0700000001'): Promise<string> {
  const created = await api.post('/v1/customers', { name: 'Asha Mussa', phone });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

/** Two standard-rated lines and one exempt line: 28,600 TZS with 3,600 VAT on the mainland. */
export const SAMPLE_LINES = [
  { description: 'Ushauri wa biashara (saa)', quantity: 2, unit_amount: 11_800 },
  { description: 'Mafunzo ya wafanyakazi', quantity: 1, unit_amount: 5_000, tax_class: 'exempt' },
];

export async function draftInvoice(api: Api, customer: string, extra: Record<string, unknown> = {}) {
  const created = await api.post('/v1/invoices', {
    customer,
    currency: 'TZS',
    lines: SAMPLE_LINES,
    memo: 'Asante kwa biashara yako',
    ...extra,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

export async function openInvoice(api: Api, customer: string, extra: Record<string, unknown> = {}) {
  const draft = await draftInvoice(api, customer, extra);
  const finalized = await api.post(`/v1/invoices/${draft.id}/finalize`);
  expect(finalized.status, JSON.stringify(finalized.body)).toBe(200);
  return finalized.body;
}

/** The types of the events recorded about one object, oldest first. */
export async function eventTypesOf(server: RunningServer, objectId: string): Promise<string[]> {
  const found = await server.database.pool.query<{ type: string }>(
    `SELECT type FROM events WHERE data->'object'->>'id' = $1 ORDER BY seq`,
    [objectId],
  );
  return found.rows.map((row) => row.type);
}

export const invoiceInStatus = (api: Api, id: string, status: string) =>
  eventually(async () => {
    const invoice = await api.get(`/v1/invoices/${id}`);
    return invoice.body.status === status ? invoice.body : undefined;
  });
