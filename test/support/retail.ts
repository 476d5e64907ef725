import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { eventually, type client } from './server.ts';

export type Api = ReturnType<typeof client>;

let counter = 0;
/** A unique code per call, so fixtures never clash on SKU or barcode. */
export const uniqueCode = (prefix: string) => `${prefix}${++counter}${randomUUID().slice(0, 6)}`;

/** Creates a product and returns it; fails the test when creation fails. */
export async function makeProduct(api: Api, overrides: Record<string, unknown> = {}) {
  const response = await api.post('/v1/retail/products', {
    name: 'Sabuni ya Kipande',
    sku: uniqueCode('SKU-'),
    barcodes: [uniqueCode('620')],
    price: 2_360,
    ...overrides,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** Records a sale and returns the response. */
export const sell = (api: Api, body: Record<string, unknown>, headers?: Record<string, string>) =>
  api.post('/v1/retail/orders', body, headers);

/** A sandbox mobile money payment (0700000001 succeeds), awaited until paid. */
export async function paidPayment(api: Api, amount: number, currency = 'TZS') {
  const created = await api.post('/v1/payments', { amount, currency, phone: '0700000001' });
  expect(created.status).toBe(201);
  return eventually(async () => {
    const payment = await api.get(`/v1/payments/${created.body.id}`);
    return payment.body.status === 'paid' ? payment.body : undefined;
  });
}

export async function stockOf(api: Api, store: string, product: string, variant?: string) {
  const list = await api.get(`/v1/retail/stores/${store}/stock?product=${product}&limit=100`);
  expect(list.status).toBe(200);
  return list.body.data.find((level: { variant: string | null }) => level.variant === (variant ?? null));
}
