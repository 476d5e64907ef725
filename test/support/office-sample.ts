/**
 * A merchant with a day's business for the back office: paid mobile money
 * payments (one refunded), a store with products, and sales at its till.
 * Through the API only (no test runner needed), so the screenshot script and
 * the browser tests share it.
 */
import { client, eventually, signUp, type Merchant } from './server.ts';

export interface OfficeSample {
  merchant: Merchant;
  api: ReturnType<typeof client>;
  store: { id: string; name: string };
}

async function ok(response: Promise<{ status: number; body: any }>, what: string): Promise<any> {
  const answer = await response;
  if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Payments of these amounts, each awaited until the sandbox has paid it. */
export async function paidPayments(
  api: ReturnType<typeof client>,
  amounts: readonly number[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const amount of amounts) {
    const created = await ok(
      api.post('/v1/payments', { amount, currency: 'TZS', phone: '0700000001' }),
      'payment',
    );
    ids.push(created.id);
  }
  for (const id of ids)
    await eventually(async () => (await api.get(`/v1/payments/${id}`)).body.status === 'paid', 15_000);
  return ids;
}

export async function officeSample(
  baseUrl: string,
  options: { business_name?: string; payments?: readonly number[] } = {},
): Promise<OfficeSample> {
  const merchant = await signUp(baseUrl, { business_name: options.business_name ?? 'Duka la Mama Asha' });
  const api = client(baseUrl, merchant.keys.secretTest);
  const ids = await paidPayments(api, options.payments ?? [123_457, 45_000, 12_500, 8_000]);
  await ok(api.post(`/v1/payments/${ids.at(-1)}/refund`), 'refund');
  const store = await ok(api.patch('/v1/retail/store', { name: 'Duka Kuu Kariakoo' }), 'store');
  const products = [];
  for (const [name, price] of [
    ['Unga wa Sembe 2kg', 4_500],
    ['Sukari 1kg', 3_200],
    ['Mafuta ya Kupikia 1L', 6_800],
    ['Sabuni ya Kipande', 1_200],
  ] as const)
    products.push(await ok(api.post('/v1/retail/products', { name, price }), 'product'));
  const cash = (amount: number) => [{ method: 'cash', amount }];
  for (const [index, quantity] of [
    [0, 3],
    [1, 2],
    [2, 1],
    [0, 1],
    [3, 5],
  ] as const) {
    const product = products[index]!;
    await ok(
      api.post('/v1/retail/orders', {
        lines: [{ product: product.id, quantity }],
        tenders: cash(product.price * quantity),
      }),
      'sale',
    );
  }
  await ok(api.post('/v1/tills', { name: 'Kaunta 1' }), 'till');
  const old = await ok(api.post('/v1/tills', { name: 'Kaunta ya Zamani' }), 'till');
  await ok(api.delete(`/v1/tills/${old.id}`), 'revoke');
  return { merchant, api, store };
}
