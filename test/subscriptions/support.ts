import type { client } from '../support/server.ts';

type Api = ReturnType<typeof client>;

/** A customer and a subscription for it, with the given fields over sensible defaults. */
export async function makeSubscription(api: Api, overrides: Record<string, unknown> = {}) {
  const customer = await api.post('/v1/customers', { name: 'Neema Mushi' });
  const created = await api.post('/v1/subscriptions', {
    customer: customer.body.id,
    amount: 15_000,
    currency: 'TZS',
    interval: 'month',
    phone: '255700000001',
    ...overrides,
  });
  return created;
}
