import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { anotherMerchant, withMerchant } from '../support/merchant.ts';
import { makeProduct, paidPayment, sell, stockOf, type Api } from '../support/retail.ts';

let server: RunningServer;
let api: Api;
let merchantId: string;
let store: { id: string };

beforeAll(async () => {
  const setup = await withMerchant();
  ({ server, api } = setup);
  merchantId = setup.merchant.id;
  store = (await api.patch('/v1/retail/store', { name: 'Duka Kuu' })).body;
});
afterAll(() => server?.close());

const events = async (type: string) =>
  (
    await server.database.pool.query(
      `SELECT data FROM events WHERE merchant_id = $1 AND type = $2 ORDER BY seq`,
      [merchantId, type],
    )
  ).rows.map((row) => row.data.object);

const setStock = (product: string, body: Record<string, unknown>) =>
  api.post('/v1/retail/stock-adjustments', { product, reason: 'count', ...body });

describe('stock', () => {
  it('sets and adjusts on-hand stock with a reorder level, in units or thousandths', async () => {
    const flour = await makeProduct(api, { name: 'Unga', unit: 'kg' });
    const set = await setStock(flour.id, { set_on_hand: 20, reorder_level: 5 });
    expect(set.status).toBe(201);
    expect(set.body).toMatchObject({
      object: 'stock_level',
      store: store.id,
      product: flour.id,
      variant: null,
      unit: 'kg',
      on_hand_milli: 20_000,
      reorder_level_milli: 5_000,
      negative: false,
      low: false,
    });
    const adjusted = await setStock(flour.id, {
      adjust_by_milli: -2_500,
      reason: 'damaged',
      note: 'wet bag',
    });
    expect(adjusted.body.on_hand_milli).toBe(17_500);
    const movements = await server.database.pool.query(
      `SELECT reason, delta_milli, on_hand_after_milli, note FROM retail_stock_movements WHERE product_id = $1 ORDER BY id`,
      [flour.id],
    );
    expect(movements.rows).toEqual([
      { reason: 'count', delta_milli: 20_000, on_hand_after_milli: 20_000, note: null },
      { reason: 'damaged', delta_milli: -2_500, on_hand_after_milli: 17_500, note: 'wet bag' },
    ]);
    expect((await events('stock.adjusted')).filter((o) => o.product === flour.id)).toHaveLength(2);
  });

  it('keeps stock per variant for a product with variants', async () => {
    const soda = await makeProduct(api, { variants: [{ name: '350ml' }, { name: '500ml' }] });
    const missing = await setStock(soda.id, { set_on_hand: 3 });
    expect(missing.body).toMatchObject({
      code: 'parameter_missing',
      details: { variant: expect.any(String) },
    });
    const ok = await setStock(soda.id, { variant: soda.variants[1].id, set_on_hand: 3 });
    expect(ok.body).toMatchObject({ variant: soda.variants[1].id, on_hand_milli: 3_000 });
    const sale = await sell(api, {
      lines: [{ product: soda.id, variant: soda.variants[1].id, quantity: 2 }],
      tenders: [{ method: 'cash', amount: 10_000 }],
    });
    expect(sale.status).toBe(201);
    expect(sale.body.lines[0].description).toBe(`${soda.name} 500ml`);
    expect((await stockOf(api, store.id, soda.id, soda.variants[1].id)).on_hand_milli).toBe(1_000);
    const noVariant = await sell(api, {
      lines: [{ product: soda.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 10_000 }],
    });
    expect(noVariant.body).toMatchObject({ details: { 'lines.0.variant': expect.any(String) } });
  });

  it('decrements stock on a sale, goes negative rather than refusing, and flags it', async () => {
    const pens = await makeProduct(api, { name: 'Kalamu', price: 500 });
    await setStock(pens.id, { set_on_hand: 1 });
    const sale = await sell(api, {
      lines: [{ product: pens.id, quantity: 3 }],
      tenders: [{ method: 'cash', amount: 1_500 }],
    });
    expect(sale.status).toBe(201);
    expect(await stockOf(api, store.id, pens.id)).toMatchObject({
      on_hand_milli: -2_000,
      negative: true,
      low: true,
    });
    const low = await api.get(`/v1/retail/stores/${store.id}/stock?low=true&limit=100`);
    expect(low.body.data.map((level: { product: string }) => level.product)).toContain(pens.id);
    const flagged = (await events('stock.low')).filter((o) => o.product === pens.id);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatchObject({ negative: true, on_hand_milli: -2_000 });
  });

  it('writes stock.low once when a sale takes an item to its reorder level', async () => {
    const milk = await makeProduct(api, { name: 'Maziwa', price: 1_500 });
    await setStock(milk.id, { set_on_hand: 10, reorder_level: 6 });
    const sellMilk = (quantity: number) =>
      sell(api, { lines: [{ product: milk.id, quantity }], tenders: [{ method: 'cash', amount: 100_000 }] });
    await sellMilk(3);
    expect((await events('stock.low')).filter((o) => o.product === milk.id)).toHaveLength(0);
    await sellMilk(1);
    await sellMilk(1);
    const low = (await events('stock.low')).filter((o) => o.product === milk.id);
    expect(low).toHaveLength(1);
    expect(low[0]).toMatchObject({
      on_hand_milli: 6_000,
      reorder_level_milli: 6_000,
      low: true,
      negative: false,
    });
  });

  it('leaves untracked products alone', async () => {
    const service = await makeProduct(api, { name: 'Kuchaji simu', track_stock: false });
    await sell(api, {
      lines: [{ product: service.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 10_000 }],
    });
    expect(await stockOf(api, store.id, service.id)).toBeUndefined();
  });
});

describe('refunds and voids', () => {
  it('refunds part of an order and then the rest, restocking, with amounts adding up to the total', async () => {
    const soap = await makeProduct(api, { price: 1_000 });
    await setStock(soap.id, { set_on_hand: 10 });
    const order = (
      await sell(api, {
        lines: [{ product: soap.id, quantity: 3 }],
        discount: { type: 'amount', amount: 1 },
        tenders: [{ method: 'cash', amount: 2_999 }],
      })
    ).body;
    expect((await stockOf(api, store.id, soap.id)).on_hand_milli).toBe(7_000);
    const partial = await api.post(`/v1/orders/${order.id}/refund`, {
      lines: [{ line: 0, quantity: 1 }],
      reason: 'broken',
    });
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ status: 'partially_refunded', refunded_amount: 1_000 });
    expect(partial.body.refunds[0]).toMatchObject({
      object: 'order_refund',
      amount: 1_000,
      restocked: true,
      reason: 'broken',
      lines: [{ line: 0, quantity_milli: 1_000, amount: 1_000 }],
    });
    expect(partial.body.refunds[0].id).toMatch(/^oref_/);
    expect((await stockOf(api, store.id, soap.id)).on_hand_milli).toBe(8_000);
    const rest = await api.post(`/v1/orders/${order.id}/refund`, {});
    expect(rest.body).toMatchObject({ status: 'refunded', refunded_amount: 2_999 });
    expect(rest.body.refunds[1].amount).toBe(1_999);
    expect((await stockOf(api, store.id, soap.id)).on_hand_milli).toBe(10_000);
    expect((await events('order.refunded')).filter((o) => o.id === order.id)).toHaveLength(2);
    const again = await api.post(`/v1/orders/${order.id}/refund`, {});
    expect(again.body).toMatchObject({ code: 'state_transition_invalid' });
  });

  it('refunds without restocking when asked, and refuses more than was sold', async () => {
    const eggs = await makeProduct(api, { price: 400 });
    await setStock(eggs.id, { set_on_hand: 30 });
    const order = (
      await sell(api, {
        lines: [{ product: eggs.id, quantity: 6 }],
        tenders: [{ method: 'cash', amount: 2_400 }],
      })
    ).body;
    const tooMany = await api.post(`/v1/orders/${order.id}/refund`, { lines: [{ line: 0, quantity: 7 }] });
    expect(tooMany.body).toMatchObject({
      code: 'quantity_invalid',
      details: { 'lines.0.quantity': expect.any(String) },
    });
    const unknownLine = await api.post(`/v1/orders/${order.id}/refund`, {
      lines: [{ line: 4, quantity: 1 }],
    });
    expect(unknownLine.body.details).toEqual({ 'lines.0.line': expect.any(String) });
    const broken = await api.post(`/v1/orders/${order.id}/refund`, {
      lines: [{ line: 0, quantity: 2 }],
      restock: false,
    });
    expect(broken.body).toMatchObject({ status: 'partially_refunded', refunded_amount: 800 });
    expect((await stockOf(api, store.id, eggs.id)).on_hand_milli).toBe(24_000);
  });

  it('voids a sale the same day: restocks everything, frees the mobile money payment, refuses a second void', async () => {
    const bread = await makeProduct(api, { price: 1_500 });
    await setStock(bread.id, { set_on_hand: 5 });
    const payment = await paidPayment(api, 3_000);
    const body = {
      lines: [{ product: bread.id, quantity: 2 }],
      tenders: [{ method: 'mobile_money', payment: payment.id }],
    };
    const order = (await sell(api, body)).body;
    expect((await stockOf(api, store.id, bread.id)).on_hand_milli).toBe(3_000);
    const voided = await api.post(`/v1/orders/${order.id}/void`, { reason: 'rang the wrong item' });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ status: 'voided', void_reason: 'rang the wrong item' });
    expect(voided.body.voided_at).toEqual(expect.any(Number));
    expect((await stockOf(api, store.id, bread.id)).on_hand_milli).toBe(5_000);
    expect((await events('order.voided')).map((o) => o.id)).toContain(order.id);
    expect((await api.post(`/v1/orders/${order.id}/void`, {})).body.code).toBe('state_transition_invalid');
    expect((await api.post(`/v1/orders/${order.id}/refund`, {})).body.code).toBe('state_transition_invalid');
    const rerung = await sell(api, body);
    expect(rerung.status).toBe(201);
  });

  it('refuses to void a sale paid on an earlier day, or one already partly refunded', async () => {
    const item = await makeProduct(api, { price: 100 });
    const yesterday = Math.floor(Date.now() / 1000) - 86_400 * 2;
    const old = (
      await sell(api, {
        sold_at: yesterday,
        lines: [{ product: item.id, quantity: 1 }],
        tenders: [{ method: 'cash', amount: 100 }],
      })
    ).body;
    const refused = await api.post(`/v1/orders/${old.id}/void`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('state_transition_invalid');
    const today = (
      await sell(api, {
        lines: [{ product: item.id, quantity: 2 }],
        tenders: [{ method: 'cash', amount: 200 }],
      })
    ).body;
    await api.post(`/v1/orders/${today.id}/refund`, { lines: [{ line: 0, quantity: 1 }] });
    expect((await api.post(`/v1/orders/${today.id}/void`, {})).body.code).toBe('state_transition_invalid');
  });
});

describe('bad input', () => {
  it('answers 400 naming the field for each kind of bad order', async () => {
    const product = await makeProduct(api, { price: 1_000 });
    const line = { product: product.id, quantity: 1 };
    const cash = [{ method: 'cash', amount: 1_000 }];
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [
        { lines: [{ product: 'prod_nope', quantity: 1 }], tenders: cash },
        'lines.0.product',
        'product_unknown',
      ],
      [
        { lines: [line, { product: product.id, quantity: -2 }], tenders: cash },
        'lines.1.quantity',
        'quantity_invalid',
      ],
      [
        { lines: [{ product: product.id, quantity_milli: 0 }], tenders: cash },
        'lines.0.quantity_milli',
        'parameter_invalid',
      ],
      [
        { lines: [{ product: product.id, quantity_milli: 1_500 }], tenders: cash },
        'lines.0.quantity',
        'quantity_invalid',
      ],
      [{ lines: [{ product: product.id }], tenders: cash }, 'lines.0.quantity', 'quantity_invalid'],
      [{ lines: [line], tenders: [{ method: 'cash', amount: 999 }] }, 'tenders', 'tender_insufficient'],
      [{ lines: [line], tenders: [] }, 'tenders', 'tender_insufficient'],
      [
        { lines: [line], tenders: [{ method: 'card', amount: 1_001, reference: 'A' }] },
        'tenders.0.amount',
        'tender_exceeds_due',
      ],
      [
        { lines: [line], tenders: [{ method: 'mobile_money', payment: 'pay_nope' }] },
        'tenders.0.payment',
        'parameter_invalid',
      ],
      [{ lines: [line], tenders: cash, currency: 'KES' }, 'currency', 'currency_mismatch'],
      [
        { lines: [line], tenders: cash, discount: { type: 'amount', amount: 1_001 } },
        'discount.amount',
        'discount_invalid',
      ],
      [
        { lines: [{ ...line, price_override: { unit_price: 1, reason: ' ' } }], tenders: cash },
        'lines.0.price_override.reason',
        'parameter_invalid',
      ],
      [{ lines: [], tenders: cash }, 'lines', 'parameter_invalid'],
      [{ lines: [line], tenders: cash, store: 'store_nope' }, 'store', 'parameter_invalid'],
      [{ lines: [line], tenders: cash, customer: 'cus_nope' }, 'customer', 'parameter_invalid'],
      [{ lines: [line], tenders: cash, colour: 'red' }, 'colour', 'parameter_unknown'],
      [
        { lines: [line], tenders: [{ method: 'cheque', amount: 1_000 }] },
        'tenders.0.method',
        'parameter_invalid',
      ],
    ];
    for (const [body, field, code] of cases) {
      const response = await sell(api, body);
      expect(response.status, `${field}: ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body, field).toMatchObject({
        error: 'invalid_request_error',
        code,
        details: { [field]: expect.any(String) },
      });
    }
    const kesProduct = await makeProduct(api, { price: 100, currency: 'KES' });
    const mixed = await sell(api, { lines: [{ product: kesProduct.id, quantity: 1 }], tenders: cash });
    expect(mixed.body).toMatchObject({
      code: 'currency_mismatch',
      details: { 'lines.0.product': expect.any(String) },
    });
    const deleted = await makeProduct(api);
    await api.delete(`/v1/retail/products/${deleted.id}`);
    const soldDeleted = await sell(api, { lines: [{ product: deleted.id, quantity: 1 }], tenders: cash });
    expect(soldDeleted.body).toMatchObject({
      code: 'product_unknown',
      details: { 'lines.0.product': 'is deleted' },
    });
  });

  it('answers 400 for bad catalogue and stock input', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/v1/retail/products', { price: 1 }, 'name'],
      ['/v1/retail/products', { name: 'x', price: -1 }, 'price'],
      ['/v1/retail/products', { name: 'x', price: 1.5 }, 'price'],
      ['/v1/retail/products', { name: 'x', price: 1, tax_rate: 'luxury' }, 'tax_rate'],
      ['/v1/retail/products', { name: 'x', price: 1, barcodes: ['has space'] }, 'barcodes.0'],
      ['/v1/retail/products', { name: 'x', price: 1, category: 'cat_nope' }, 'category'],
      ['/v1/retail/stock-adjustments', { product: 'prod_nope', set_on_hand: 1, reason: 'count' }, 'product'],
      [
        '/v1/retail/stock-adjustments',
        { product: 'prod_x', set_on_hand: 1, adjust_by: 1, reason: 'count' },
        'adjust_by',
      ],
      ['/v1/retail/stores', { name: 'x', vat_region: 'pemba' }, 'vat_region'],
    ];
    for (const [path, body, field] of cases) {
      const response = await api.post(path, body);
      expect(response.status, `${path} ${field}: ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body.details, field).toHaveProperty([field]);
    }
  });
});

describe('overview', () => {
  it('shows today’s sales net of refunds, order count, top products and low stock per store', async () => {
    const { api: fresh } = await anotherMerchant(server);
    const shop = (await fresh.post('/v1/retail/stores', { name: 'Mama Ntilie' })).body;
    const rice = await makeProduct(fresh, { name: 'Wali', price: 2_000 });
    const beans = await makeProduct(fresh, { name: 'Maharage', price: 1_000 });
    await fresh.post('/v1/retail/stock-adjustments', {
      product: beans.id,
      set_on_hand: 3,
      reorder_level: 2,
      reason: 'count',
    });
    const cash = (amount: number) => [{ method: 'cash', amount }];
    await sell(fresh, { lines: [{ product: rice.id, quantity: 3 }], tenders: cash(6_000) });
    const refunded = (
      await sell(fresh, { lines: [{ product: beans.id, quantity: 2 }], tenders: cash(2_000) })
    ).body;
    await fresh.post(`/v1/orders/${refunded.id}/refund`, { lines: [{ line: 0, quantity: 1 }] });
    const voided = (await sell(fresh, { lines: [{ product: rice.id, quantity: 1 }], tenders: cash(2_000) }))
      .body;
    await fresh.post(`/v1/orders/${voided.id}/void`, {});
    await sell(fresh, {
      sold_at: Math.floor(Date.now() / 1000) - 3 * 86_400,
      lines: [{ product: rice.id, quantity: 1 }],
      tenders: cash(2_000),
    });

    const overview = await fresh.get('/v1/retail');
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({
      object: 'retail_overview',
      time_zone: 'Africa/Dar_es_Salaam',
      livemode: false,
    });
    expect(overview.body.stores).toHaveLength(1);
    expect(overview.body.stores[0]).toMatchObject({
      store: shop.id,
      sales: 7_000,
      refunds: 1_000,
      order_count: 2,
      voided_count: 1,
      top_products: [
        { product: rice.id, quantity_milli: 3_000, sales: 6_000 },
        { product: beans.id, quantity_milli: 1_000, sales: 1_000 },
      ],
      // Rice was never counted: selling it took it below zero, which is flagged first.
      low_stock: [
        { product: rice.id, on_hand_milli: -4_000, reorder_level_milli: null, negative: true },
        { product: beans.id, on_hand_milli: 2_000, reorder_level_milli: 2_000, negative: false },
      ],
    });
    // Its hours and days add up to its sales; a week takes in the sale three days ago.
    const today = overview.body.stores[0];
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    expect(overview.body.days).toBe(1);
    expect(today.sales_by_hour).toHaveLength(24);
    expect(sum(today.sales_by_hour)).toBe(7_000);
    expect(today.sales_by_day).toEqual([{ date: overview.body.date, sales: 7_000 }]);
    const week = await fresh.get('/v1/retail?days=7');
    expect(week.status).toBe(200);
    const store = week.body.stores[0];
    expect(store).toMatchObject({ sales: 9_000, order_count: 3, voided_count: 1 });
    expect(sum(store.sales_by_hour)).toBe(9_000);
    expect(store.sales_by_day.map((day: any) => day.sales)).toEqual([0, 0, 0, 2_000, 0, 0, 7_000]);
    expect(store.sales_by_day.at(-1).date).toBe(week.body.date);
    for (const days of ['0', '32', 'x'])
      expect((await fresh.get(`/v1/retail?days=${days}`)).status).toBe(400);
    const past = await fresh.get('/v1/retail?date=2020-01-01');
    expect(past.body.stores[0]).toMatchObject({ sales: 0, order_count: 0, top_products: [] });
    expect((await fresh.get('/v1/retail?date=2020-02-30')).status).toBe(400);
  });
});

describe('the totals the retail overview reads', () => {
  it('equal the sums of the orders and lines themselves after the sales, refunds and voids above', async () => {
    const db = server.database.pool;
    const kept = await db.query(
      `SELECT store_id, quarter, sum(orders)::int AS orders, sum(voided)::int AS voided, sum(total)::bigint AS total,
         sum(refunded)::bigint AS refunded
       FROM retail_quarter_sales WHERE merchant_id = $1
       GROUP BY 1, 2 HAVING sum(orders) <> 0 OR sum(voided) <> 0 ORDER BY 1, 2`,
      [merchantId],
    );
    const fromOrders = await db.query(
      `SELECT store_id, quarter_of(paid_at) AS quarter,
         count(*) FILTER (WHERE status <> 'voided')::int AS orders, count(*) FILTER (WHERE status = 'voided')::int AS voided,
         coalesce(sum(total) FILTER (WHERE status <> 'voided'), 0)::bigint AS total,
         coalesce(sum(refunded_amount) FILTER (WHERE status <> 'voided'), 0)::bigint AS refunded
       FROM retail_orders WHERE merchant_id = $1 AND paid_at IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`,
      [merchantId],
    );
    // The tests above voided a sale and refunded others: both kinds are in what is compared.
    expect(fromOrders.rows.some((row) => row.voided > 0)).toBe(true);
    expect(fromOrders.rows.some((row) => row.refunded > 0)).toBe(true);
    expect(kept.rows).toEqual(fromOrders.rows);
    const days = await db.query(
      `SELECT store_id, day, product_id, nullif(variant_id, '') AS variant_id, sum(quantity_milli)::bigint AS quantity_milli,
         sum(sales)::bigint AS sales
       FROM retail_product_days WHERE merchant_id = $1 AND span = 1
       GROUP BY 1, 2, 3, 4 HAVING sum(quantity_milli) <> 0 OR sum(sales) <> 0 ORDER BY 1, 2, 3, 4`,
      [merchantId],
    );
    const fromLines = await db.query(
      `SELECT o.store_id, retail_day_of(o.paid_at) AS day, l.product_id, l.variant_id,
         sum(l.quantity_milli - l.refunded_quantity_milli)::bigint AS quantity_milli,
         sum(l.total - l.refunded_amount)::bigint AS sales
       FROM retail_orders o JOIN retail_order_lines l ON l.order_id = o.id
       WHERE o.merchant_id = $1 AND o.paid_at IS NOT NULL AND o.status <> 'voided'
       GROUP BY 1, 2, 3, 4 HAVING sum(l.quantity_milli - l.refunded_quantity_milli) <> 0 OR sum(l.total - l.refunded_amount) <> 0
       ORDER BY 1, 2, 3, 4`,
      [merchantId],
    );
    expect(fromLines.rows.length).toBeGreaterThan(3);
    expect(days.rows).toEqual(fromLines.rows);
    // Each block of 2 to 16 days holds what its days hold.
    const blocks = await db.query(
      `SELECT span, store_id, day, product_id, nullif(variant_id, '') AS variant_id,
         sum(quantity_milli)::bigint AS quantity_milli, sum(sales)::bigint AS sales
       FROM retail_product_days WHERE merchant_id = $1 AND span > 1
       GROUP BY 1, 2, 3, 4, 5 HAVING sum(quantity_milli) <> 0 OR sum(sales) <> 0 ORDER BY 1, 2, 3, 4, 5`,
      [merchantId],
    );
    const fromDays = await db.query(
      `SELECT s.span, d.store_id, retail_block_of(d.day, s.span) AS day, d.product_id, nullif(d.variant_id, '') AS variant_id,
         sum(d.quantity_milli)::bigint AS quantity_milli, sum(d.sales)::bigint AS sales
       FROM retail_product_days d CROSS JOIN (VALUES (2), (4), (8), (16)) AS s(span)
       WHERE d.merchant_id = $1 AND d.span = 1
       GROUP BY 1, 2, 3, 4, 5 HAVING sum(d.quantity_milli) <> 0 OR sum(d.sales) <> 0 ORDER BY 1, 2, 3, 4, 5`,
      [merchantId],
    );
    expect(fromDays.rows.length).toBeGreaterThan(3 * 4);
    expect(blocks.rows).toEqual(fromDays.rows);
    // Any run of 1 to 31 days is its days exactly, as at most 8 aligned blocks.
    const tilings = await db.query(
      `SELECT f.first::date AS first, n FROM generate_series(date '2025-12-20', date '2026-03-01', interval '1 day') f(first),
         generate_series(1, 31) n
       WHERE (SELECT array_agg(d::date ORDER BY d) FROM retail_blocks(f.first::date, f.first::date + n) b,
                generate_series(b.day, b.day + b.span - 1, interval '1 day') d)
             IS DISTINCT FROM (SELECT array_agg(d::date ORDER BY d)
               FROM generate_series(f.first, f.first + (n - 1) * interval '1 day', interval '1 day') d)
         OR (SELECT count(*) > 8 OR bool_or(retail_block_of(b.day, b.span) <> b.day)
             FROM retail_blocks(f.first::date, f.first::date + n) b)`,
    );
    expect(tilings.rows).toEqual([]);
  });
});
