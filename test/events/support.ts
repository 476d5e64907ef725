import { expect } from 'vitest';
import { eventually, type ApiResponse } from '../support/server.ts';
import type { Api } from '../support/retail.ts';

const DAY = 86_400;
/** Unix seconds a number of days from now. */
export const inDays = (days: number) => Math.floor(Date.now() / 1000) + Math.round(days * DAY);

/** A published event with one tier per entry of `tiers`. */
export async function makeEvent(
  api: Api,
  options: {
    capacity?: number;
    tiers?: Array<Record<string, unknown>>;
    publish?: boolean;
    [field: string]: unknown;
  } = {},
) {
  const {
    capacity = 100,
    tiers = [{ name: 'Regular', price: 20_000, quantity: 100 }],
    publish = true,
    ...fields
  } = options;
  const created = await api.post('/v1/events', {
    name: 'Sauti za Busara',
    venue: 'Old Fort, Stone Town',
    starts_at: inDays(10),
    ends_at: inDays(10.25),
    capacity,
    ...fields,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const tierIds: string[] = [];
  for (const tier of tiers) {
    const made = await api.post(`/v1/events/${created.body.id}/tiers`, tier);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    tierIds.push(made.body.id);
  }
  if (publish) {
    const published = await api.patch(`/v1/events/${created.body.id}`, { status: 'published' });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
  }
  return { event: created.body as { id: string }, tiers: tierIds };
}

export const buyer = (name = 'Neema Mushi') => ({ name, phone: '0754000111' });

export const order = (
  api: Api,
  event: string,
  lines: Array<{ tier: string; quantity: number }>,
  fields = {},
) => api.post('/v1/events/orders', { event, lines, buyer: buyer(), ...fields });

/** Pays an order's checkout on the hosted page (the sandbox's 0700000001 succeeds) and waits until it is paid. */
export async function payOrder(baseUrl: string, api: Api, created: ApiResponse) {
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const paid = await fetch(`${baseUrl}/pay/${created.body.checkout}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone: '0700000001' }),
  });
  expect(paid.status).toBe(201);
  return eventually(async () => {
    const found = await api.get(`/v1/events/orders/${created.body.id}`);
    return found.body.status === 'paid' ? found.body : undefined;
  });
}

/** The field named in a 400's details, with the error object's shape. */
export function expectBadRequest(answer: ApiResponse, field: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body).toMatchObject({ error: 'invalid_request_error', code: expect.any(String) });
  expect(answer.body.details, JSON.stringify(answer.body)).toHaveProperty(field);
}
