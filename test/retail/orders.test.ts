import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { anotherMerchant, withMerchant } from '../support/merchant.ts';
import { makeProduct, paidPayment, sell, stockOf, uniqueCode, type Api } from '../support/retail.ts';

let server: RunningServer;
let api: Api;
let merchantId: string;
let store: { id: string };

beforeAll(async () => {
  const setup = await withMerchant({ business_name: 'Duka la Mama Asha' });
  ({ server, api } = setup);
  merchantId = setup.merchant.id;
  store = (
    await api.post('/v1/retail/stores', {
      name: 'Duka la Mama Asha',
      address_lines: ['Kariakoo, Dar es Salaam'],
      tin: '123-456-789',
      vrn: '40-012345-A',
      receipt_footer: ['Asante kwa kununua'],
    })
  ).body;
});
afterAll(() => server?.close());

const eventTypes = async (orderId: string) =>
  (
    await server.database.pool.query(
      `SELECT type FROM events WHERE merchant_id = $1 AND data->'object'->>'id' = $2 ORDER BY seq`,
      [merchantId, orderId],
    )
  ).rows.map((row) => row.type);

describe('recording a sale', () => {
  it('prices lines with discounts and 18% mainland VAT, gives cash change and a server receipt number', async () => {
    const soap = await makeProduct(api, { name: 'Sabuni', price: 2_360 });
    const rice = await makeProduct(api, { name: 'Mchele', price: 3_000, unit: 'kg', tax_rate: 'exempt' });
    const response = await sell(api, {
      lines: [
        { product: rice.id, quantity_milli: 750 },
        { product: soap.id, quantity: 2, discount: { type: 'percent', basis_points: 1_000 } },
      ],
      discount: { type: 'amount', amount: 498 },
      tenders: [{ method: 'cash', amount: 10_000 }],
      cashier: 'Neema',
    });
    expect(response.status).toBe(201);
    const order = response.body;
    // rice 0.750 kg x 3,000 = 2,250 (exempt); soap 2 x 2,360 = 4,720 less 10% = 4,248; less 498 -> 6,000
    expect(order).toMatchObject({
      object: 'order',
      status: 'paid',
      store: store.id,
      currency: 'TZS',
      vat_region: 'mainland',
      subtotal: 6_498,
      order_discount: 498,
      total: 6_000,
      amount_tendered: 10_000,
      change_due: 4_000,
      tax_breakdown: [
        { rate_basis_points: 1_800, gross: 3_922, net: 3_324, tax: 598 },
        { rate_basis_points: 0, gross: 2_078, net: 2_078, tax: 0 },
      ],
      tax_total: 598,
      net_total: 5_402,
    });
    expect(order.id).toMatch(/^ord_/);
    expect(order.receipt_number).toMatch(/^S01-\d{6}$/);
    expect(order.lines[1]).toMatchObject({
      line: 1,
      quantity_milli: 2_000,
      line_discount: 472,
      tax_rate: 'standard',
    });
    expect(order.tenders).toEqual([
      {
        method: 'cash',
        amount: 10_000,
        paid: 6_000,
        payment: null,
        reservation: null,
        network: null,
        reference: null,
      },
    ]);
    expect(order.receipt).toMatchObject({
      language: 'sw',
      receiptNumber: order.receipt_number,
      total: 6_000,
      change: 4_000,
      cashier: 'Neema',
      store: { name: 'Duka la Mama Asha', tin: '123-456-789', vrn: '40-012345-A' },
      footerLines: ['Asante kwa kununua'],
      taxLines: [
        { code: 'A', label: 'Kodi (VAT) 18%', net: 3_324, tax: 598 },
        { code: 'B', label: 'Kodi (VAT) 0%', net: 2_078, tax: 0 },
      ],
    });
    expect(order.receipt.lines[0]).toMatchObject({ description: 'Mchele', quantityText: '0.750 kg' });
    expect(await eventTypes(order.id)).toEqual(['order.created', 'order.paid']);
    expect((await api.get(`/v1/orders/${order.id}`)).body).toEqual(order);
    const next = await sell(api, {
      lines: [{ product: soap.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 2_360 }],
    });
    const sequence = (n: string) => Number(n.split('-')[1]);
    expect(sequence(next.body.receipt_number)).toBe(sequence(order.receipt_number) + 1);
  });

  it('uses 15% VAT for a Zanzibar store and an English receipt', async () => {
    const zanzibar = (
      await api.post('/v1/retail/stores', {
        name: 'Stone Town',
        vat_region: 'zanzibar',
        receipt_language: 'en',
      })
    ).body;
    const tea = await makeProduct(api, { name: 'Chai', price: 1_150 });
    const response = await sell(api, {
      store: zanzibar.id,
      lines: [{ product: tea.id, quantity: 2 }],
      tenders: [{ method: 'card', amount: 2_300, reference: 'AUTH-778' }],
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      vat_region: 'zanzibar',
      total: 2_300,
      change_due: 0,
      tax_breakdown: [{ rate_basis_points: 1_500, gross: 2_300, net: 2_000, tax: 300 }],
      tenders: [{ method: 'card', amount: 2_300, paid: 2_300, reference: 'AUTH-778' }],
    });
    expect(response.body.receipt_number).toBe('S02-000001');
    expect(response.body.receipt.taxLines[0].label).toBe('VAT 15%');
    expect(response.body.receipt.tenders).toEqual([{ label: 'Card', amount: 2_300, reference: 'AUTH-778' }]);
  });

  it('records a price override with its reason', async () => {
    const product = await makeProduct(api, { price: 5_000 });
    const response = await sell(api, {
      lines: [
        { product: product.id, quantity: 1, price_override: { unit_price: 4_500, reason: 'damaged box' } },
      ],
      tenders: [{ method: 'cash', amount: 4_500 }],
    });
    expect(response.body.lines[0]).toMatchObject({
      list_unit_price: 5_000,
      unit_price: 4_500,
      price_override: { unit_price: 4_500, reason: 'damaged box' },
      total: 4_500,
    });
  });

  it('takes a paid mobile money payment as a tender, once', async () => {
    const product = await makeProduct(api, { price: 3_000 });
    const payment = await paidPayment(api, 2_000);
    const response = await sell(api, {
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [
        { method: 'mobile_money', payment: payment.id },
        { method: 'cash', amount: 1_500 },
      ],
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ total: 3_000, change_due: 500 });
    expect(response.body.tenders[0]).toMatchObject({
      method: 'mobile_money',
      payment: payment.id,
      amount: 2_000,
      paid: 2_000,
    });
    const again = await sell(api, {
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [
        { method: 'mobile_money', payment: payment.id },
        { method: 'cash', amount: 1_000 },
      ],
    });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      code: 'payment_already_used',
      details: { 'tenders.0.payment': expect.any(String) },
    });
  });

  it('refuses a mobile money payment that is not paid, of another merchant, or of another amount', async () => {
    const product = await makeProduct(api, { price: 1_000 });
    const pending = await api.post('/v1/payments', { amount: 1_000, currency: 'TZS', phone: '0700000003' });
    const notPaid = await sell(api, {
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'mobile_money', payment: pending.body.id }],
    });
    expect(notPaid.body).toMatchObject({
      code: 'payment_not_paid',
      details: { 'tenders.0.payment': expect.any(String) },
    });

    const foreign = await paidPayment((await anotherMerchant(server)).api, 1_000);
    const foreignTender = await sell(api, {
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'mobile_money', payment: foreign.id }],
    });
    expect(foreignTender.status).toBe(400);
    expect(foreignTender.body.details).toEqual({ 'tenders.0.payment': 'is not a payment of this account' });

    const mine = await paidPayment(api, 900);
    const wrongAmount = await sell(api, {
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'mobile_money', payment: mine.id, amount: 1_000 }],
    });
    expect(wrongAmount.body).toMatchObject({
      code: 'amount_invalid',
      details: { 'tenders.0.amount': expect.any(String) },
    });
    const tooMuch = await sell(api, {
      lines: [{ product: product.id, quantity: 1, price_override: { unit_price: 800, reason: 'promo' } }],
      tenders: [{ method: 'mobile_money', payment: mine.id }],
    });
    expect(tooMuch.body).toMatchObject({
      code: 'tender_exceeds_due',
      details: { 'tenders.0.amount': expect.any(String) },
    });
  });

  it('refuses a mobile money payment in another currency', async () => {
    const product = await makeProduct(api, { price: 1_000 });
    const kes = await paidPayment(api, 1_000, 'KES');
    const response = await sell(api, {
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'mobile_money', payment: kes.id }],
    });
    expect(response.body).toMatchObject({
      code: 'currency_mismatch',
      details: { 'tenders.0.payment': expect.any(String) },
    });
  });

  it('accepts a till’s own receipt number once and refuses a repeat or a server prefix', async () => {
    const product = await makeProduct(api, { price: 100 });
    const body = (receipt_number: string) => ({
      till: 'T01',
      receipt_number,
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 100 }],
    });
    const number = `T${String(Date.now()).slice(-5)}-000001`;
    const first = await sell(api, body(number));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ receipt_number: number, till: 'T01' });
    const repeat = await sell(api, body(number));
    expect(repeat.body).toMatchObject({
      code: 'receipt_number_taken',
      details: { receipt_number: expect.any(String) },
    });
    expect((await sell(api, body('S01-000999'))).body.details).toEqual({
      receipt_number: expect.stringContaining('reserved'),
    });
    expect((await sell(api, body('12-3'))).body.details).toEqual({ receipt_number: expect.any(String) });
  });
});

describe('idempotency', () => {
  it('returns the original order with 200 for a repeated client_order_id, even with another body', async () => {
    const product = await makeProduct(api, { price: 1_000 });
    const client_order_id = uniqueCode('cmd_');
    const body = {
      client_order_id,
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 1_000 }],
    };
    const first = await sell(api, body);
    expect(first.status).toBe(201);
    const second = await sell(api, { ...body, tenders: [{ method: 'cash', amount: 5_000 }] });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const stock = await stockOf(api, store.id, product.id);
    expect(stock.on_hand_milli).toBe(-1_000);
  });

  it('records concurrent repeats of a client_order_id once', async () => {
    const product = await makeProduct(api, { price: 1_000 });
    const client_order_id = uniqueCode('cmd_');
    const body = {
      client_order_id,
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 1_000 }],
    };
    const responses = await Promise.all(Array.from({ length: 5 }, () => sell(api, body)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    const count = await server.database.pool.query(
      'SELECT count(*)::int AS n FROM retail_orders WHERE client_order_id = $1',
      [client_order_id],
    );
    expect(count.rows[0].n).toBe(1);
    expect((await stockOf(api, store.id, product.id)).on_hand_milli).toBe(-1_000);
  });

  it('records an order once per Idempotency-Key, also for concurrent repeats', async () => {
    const product = await makeProduct(api, { price: 700 });
    const body = {
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 1_000 }],
    };
    const key = uniqueCode('key-');
    const first = await sell(api, body, { 'Idempotency-Key': key });
    const replay = await sell(api, body, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);

    const concurrentKey = uniqueCode('key-');
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => sell(api, body, { 'Idempotency-Key': concurrentKey })),
    );
    for (const response of responses) expect([201, 409]).toContain(response.status);
    const ids = new Set(responses.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(ids.size).toBe(1);
    const orders = await api.get(`/v1/orders?limit=100`);
    const forProduct = orders.body.data.filter(
      (o: { lines: Array<{ product: string }> }) => o.lines[0]?.product === product.id,
    );
    expect(forProduct).toHaveLength(2);
  });
});

describe('listing orders', () => {
  it('lists newest first with filters and hides other merchants’ orders', async () => {
    const product = await makeProduct(api, { price: 10 });
    const a = await sell(api, {
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 10 }],
    });
    const b = await sell(api, {
      lines: [{ product: product.id, quantity: 2 }],
      tenders: [{ method: 'cash', amount: 20 }],
    });
    const list = await api.get(`/v1/orders?limit=2&store=${store.id}`);
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual([b.body.id, a.body.id]);
    expect(list.body.data[0].lines[0].quantity_milli).toBe(2_000);
    const byReceipt = await api.get(`/v1/orders?receipt_number=${a.body.receipt_number}`);
    expect(byReceipt.body.data.map((o: { id: string }) => o.id)).toEqual([a.body.id]);

    const { api: other } = await anotherMerchant(server);
    expect((await other.get(`/v1/orders/${a.body.id}`)).status).toBe(404);
    expect((await other.get('/v1/orders')).body.data).toEqual([]);
    expect((await other.post(`/v1/orders/${a.body.id}/refund`, {})).status).toBe(404);
    expect((await other.post(`/v1/orders/${a.body.id}/void`, {})).status).toBe(404);
    const foreignProduct = await sell(other, {
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 10 }],
    });
    expect(foreignProduct.body).toMatchObject({
      code: 'product_unknown',
      details: { 'lines.0.product': expect.any(String) },
    });
    expect((await other.get(`/v1/products/${product.id}`)).status).toBe(404);
    expect((await other.delete(`/v1/retail/products/${product.id}`)).status).toBe(404);
    expect((await other.get(`/v1/retail/stores/${store.id}`)).status).toBe(404);
  });
});
