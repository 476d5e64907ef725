import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderCommand, newId, type CommandResult } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import type { TillActor } from '../../apps/server/src/actor.ts';
import { eventually } from '../support/server.ts';
import { withMerchant } from '../support/merchant.ts';
import { makeProduct, sell, stockOf, type Api } from '../support/retail.ts';
import { inTransaction, makeEmployee, pairedTill, refusal } from '../support/tills.ts';

let server: RunningServer;
let api: Api;
let actor: TillActor;
let till: { id: string; name: string; store: string };

beforeAll(async () => {
  ({ server, api } = await withMerchant());
  ({ till, actor } = await pairedTill(server, api));
});
afterAll(() => server?.close());

/** A till's sale, applied as the sync router applies it: one transaction, the till as the actor. */
const tillSale = (body: Record<string, unknown>) =>
  inTransaction(server, (tx) =>
    server.services.orders.create(
      tx,
      actor,
      createOrderCommand.parse({ client_order_id: `till-${crypto.randomUUID()}`, ...body }),
    ),
  );

const setStock = (product: string, quantity: number) =>
  api.post('/v1/retail/stock-adjustments', {
    product,
    store: till.store,
    reason: 'count',
    set_on_hand: quantity,
  });

describe('a till’s sale is a fact', () => {
  it('is recorded at the till’s price, flagged price_changed, when the catalogue price changed meanwhile', async () => {
    const soap = await makeProduct(api, { name: 'Sabuni', price: 2_000, track_stock: false });
    expect((await api.patch(`/v1/retail/products/${soap.id}`, { price: 2_500 })).status).toBe(200);
    const { order, created } = await tillSale({
      lines: [{ product: soap.id, quantity: 2, unit_price: 2_000 }],
      tenders: [{ method: 'cash', amount: 4_000 }],
    });
    expect(created).toBe(true);
    expect(order.total).toBe(4_000);
    expect(order.lines[0]).toMatchObject({ unit_price: 2_000, list_unit_price: 2_000, total: 4_000 });
    expect(order.flags).toEqual(['price_changed']);
    expect(order.store).toBe(till.store);
    const row = await server.database.pool.query(`SELECT till_id, flags FROM retail_orders WHERE id = $1`, [
      order.id,
    ]);
    expect(row.rows[0]).toEqual({ till_id: till.id, flags: ['price_changed'] });
    // The order as read back says the same.
    expect((await api.get(`/v1/orders/${order.id}`)).body.flags).toEqual(['price_changed']);
  });

  it('sells a product deleted since, under its stored name, flagged product_unavailable', async () => {
    const tea = await makeProduct(api, { name: 'Chai Bora', price: 1_500, track_stock: false });
    expect((await api.delete(`/v1/retail/products/${tea.id}`)).status).toBe(200);
    const { order } = await tillSale({
      lines: [{ product: tea.id, quantity: 1, unit_price: 1_500 }],
      tenders: [{ method: 'cash', amount: 2_000 }],
    });
    expect(order.lines[0]).toMatchObject({ description: 'Chai Bora', unit_price: 1_500 });
    expect(order.change_due).toBe(500);
    expect(order.flags).toEqual(['product_unavailable']);
  });

  it('sells a product made inactive since, flagged product_unavailable', async () => {
    const salt = await makeProduct(api, { name: 'Chumvi', price: 500, track_stock: false });
    expect((await api.patch(`/v1/retail/products/${salt.id}`, { active: false })).status).toBe(200);
    const { order } = await tillSale({
      lines: [{ product: salt.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 500 }],
    });
    expect(order.flags).toEqual(['product_unavailable']);
  });

  it('sells a variant deleted since, flagged product_unavailable', async () => {
    const soda = await makeProduct(api, {
      name: 'Soda',
      price: 1_000,
      track_stock: false,
      variants: [{ name: 'Ndogo' }, { name: 'Kubwa', price: 1_500 }],
    });
    const large = soda.variants.find((variant: { name: string }) => variant.name === 'Kubwa');
    expect((await api.delete(`/v1/retail/variants/${large.id}`)).status).toBe(200);
    const { order } = await tillSale({
      lines: [{ product: soda.id, variant: large.id, quantity: 1, unit_price: 1_500 }],
      tenders: [{ method: 'cash', amount: 1_500 }],
    });
    expect(order.lines[0]).toMatchObject({ variant: large.id, description: 'Soda Kubwa', unit_price: 1_500 });
    expect(order.flags).toEqual(['product_unavailable']);
  });

  it('flags stock_short when the sale takes stock below zero, and still moves it', async () => {
    const oil = await makeProduct(api, { name: 'Mafuta', price: 4_000 });
    expect((await setStock(oil.id, 1)).status).toBe(201);
    const { order } = await tillSale({
      lines: [{ product: oil.id, quantity: 3 }],
      tenders: [{ method: 'cash', amount: 12_000 }],
    });
    expect(order.flags).toEqual(['stock_short']);
    expect((await stockOf(api, till.store, oil.id)).on_hand_milli).toBe(-2_000);
  });

  it('does not flag a sale that leaves stock at zero or above', async () => {
    const flour = await makeProduct(api, { name: 'Unga', price: 1_800 });
    expect((await setStock(flour.id, 2)).status).toBe(201);
    const { order } = await tillSale({
      lines: [{ product: flour.id, quantity: 2 }],
      tenders: [{ method: 'cash', amount: 3_600 }],
    });
    expect(order.flags).toEqual([]);
  });

  it('drops a customer the server does not know, flagged customer_unknown', async () => {
    const soap = await makeProduct(api, { price: 1_000, track_stock: false });
    const { order } = await tillSale({
      customer: 'cus_never_synced',
      lines: [{ product: soap.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 1_000 }],
    });
    expect(order.customer).toBeNull();
    expect(order.flags).toEqual(['customer_unknown']);
  });

  it('flags cashier_inactive, on the order and its event, a sale made after its cashier was deactivated', async () => {
    const soap = await makeProduct(api, { price: 1_000, track_stock: false });
    const cashier = await makeEmployee(api, [till.store]);
    const sale = (soldAt: number) =>
      tillSale({
        cashier: cashier.id,
        sold_at: soldAt,
        lines: [{ product: soap.id, quantity: 1 }],
        tenders: [{ method: 'cash', amount: 1_000 }],
      });
    const beforeOff = Math.floor(Date.now() / 1000) - 60;
    expect((await sale(beforeOff)).order.flags).toEqual([]);
    expect((await api.patch(`/v1/employees/${cashier.id}`, { active: false })).status).toBe(200);
    // Sold before the deactivation, pushed after it: nothing to review.
    expect((await sale(beforeOff)).order.flags).toEqual([]);
    const { order, created } = await sale(Math.floor(Date.now() / 1000) + 1);
    expect(created).toBe(true);
    expect(order.flags).toEqual(['cashier_inactive']);
    expect((await api.get(`/v1/orders/${order.id}`)).body.flags).toEqual(['cashier_inactive']);
    const events = await server.database.pool.query(
      `SELECT type, data->'object'->'flags' AS flags FROM events WHERE data->'object'->>'id' = $1 ORDER BY seq`,
      [order.id],
    );
    expect(events.rows).toContainEqual({ type: 'order.created', flags: ['cashier_inactive'] });
  });

  it('keeps the till’s receipt number and sale time, and records it at the till’s store', async () => {
    const soap = await makeProduct(api, { price: 1_000 });
    const soldAt = Math.floor(Date.now() / 1000) - 3_600;
    const { order } = await tillSale({
      receipt_number: 'T77-000001',
      sold_at: soldAt,
      lines: [{ product: soap.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 1_000 }],
    });
    expect(order.receipt_number).toBe('T77-000001');
    expect(order.paid_at).toBe(soldAt);
    expect(order.store).toBe(till.store);
  });

  it('still refuses a sale naming another store than the till’s', async () => {
    const other = await api.post('/v1/retail/stores', { name: 'Tawi la Pili' });
    const soap = await makeProduct(api, { price: 1_000 });
    const error = await refusal(
      tillSale({
        store: other.body.id,
        lines: [{ product: soap.id, quantity: 1 }],
        tenders: [{ method: 'cash', amount: 1_000 }],
      }),
    );
    expect(error.code).toBe('parameter_invalid');
    expect(error.details).toHaveProperty('store');
  });

  it('still refuses a mobile money tender whose payment is not paid: no money changed hands', async () => {
    const soap = await makeProduct(api, { price: 1_000 });
    const created = await api.post('/v1/payments', { amount: 1_000, currency: 'TZS', phone: '0700000002' });
    expect(created.status).toBe(201);
    await eventually(async () => (await api.get(`/v1/payments/${created.body.id}`)).body.status === 'failed');
    const error = await refusal(
      tillSale({
        lines: [{ product: soap.id, quantity: 1 }],
        tenders: [{ method: 'mobile_money', payment: created.body.id }],
      }),
    );
    expect(error.code).toBe('payment_not_paid');
  });
});

describe('who sold a till’s sale', () => {
  /** The sale pushed as a till pushes it: the sync service's `order.create`, through the write path. */
  const push = async (payload: Record<string, unknown>) => {
    const soap = await makeProduct(api, { name: 'Sabuni', price: 1_000, track_stock: false });
    const [result] = await server.services.sync.push(actor, [
      {
        id: `cmd_${newId('request').slice(-26).toUpperCase()}`,
        type: 'order.create',
        created_at: Date.now(),
        payload: {
          client_order_id: `till-${crypto.randomUUID()}`,
          lines: [{ product: soap.id, quantity: 1, unit_price: 1_000 }],
          tenders: [{ method: 'cash', amount: 1_000 }],
          ...payload,
        },
      },
    ]);
    expect(result?.status, JSON.stringify(result)).toBe('applied');
    const applied = result as Extract<CommandResult, { status: 'applied' }>;
    return (await api.get(`/v1/orders/${String(applied.result.order)}`)).body;
  };

  it('keeps the till’s and the cashier’s ids on the order and prints their names on its receipt', async () => {
    const cashier = await makeEmployee(api, [till.store], { name: 'Neema Mushi' });
    const order = await push({
      till_id: till.id,
      till_name: 'Kaunta ya mbele',
      cashier_id: cashier.id,
      cashier_name: 'Neema',
    });
    expect(order).toMatchObject({ till: till.id, cashier: cashier.id });
    // The names the paper showed, not the employee's name now.
    expect(order.receipt).toMatchObject({ till: 'Kaunta ya mbele', cashier: 'Neema' });
  });

  it('takes a sale queued before tills sent the names, whose till and cashier are ids, and prints the names', async () => {
    const cashier = await makeEmployee(api, [till.store], { name: 'Baraka' });
    const order = await push({ till: till.id, cashier: cashier.id });
    expect(order).toMatchObject({ till: till.id, cashier: cashier.id, flags: [] });
    expect(order.receipt).toMatchObject({ till: till.name, cashier: 'Baraka' });
  });

  it('lists the sales by till and by cashier, as the back office shows them', async () => {
    const [asha, juma] = [
      await makeEmployee(api, [till.store], { name: 'Asha' }),
      await makeEmployee(api, [till.store], { name: 'Juma' }),
    ];
    const byAsha = await push({ till_id: till.id, cashier_id: asha.id });
    const byJuma = await push({ till_id: till.id, cashier_id: juma.id });
    const ids = async (query: string) =>
      (await api.get(`/v1/orders?limit=100&${query}`)).body.data.map((order: { id: string }) => order.id);
    expect(await ids(`cashier=${asha.id}`)).toEqual([byAsha.id]);
    expect(await ids(`cashier=${juma.id}&till=${till.id}`)).toEqual([byJuma.id]);
    expect(await ids(`till=${till.id}`)).toEqual(expect.arrayContaining([byAsha.id, byJuma.id]));
    expect(await ids('till=till_none')).toEqual([]);
  });
});

describe('an API key’s sale with unit_price', () => {
  it('is refused with price_changed, naming the line, when unit_price differs from the catalogue', async () => {
    const soap = await makeProduct(api, { price: 2_360 });
    const response = await sell(api, {
      lines: [
        { product: soap.id, quantity: 1 },
        { product: soap.id, quantity: 1, unit_price: 2_000 },
      ],
      tenders: [{ method: 'cash', amount: 5_000 }],
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('price_changed');
    expect(response.body.details).toEqual({
      'lines.1.unit_price': 'is 2000 but the catalogue price is 2360',
    });
  });

  it('is recorded as before, without flags, when unit_price equals the catalogue price', async () => {
    const soap = await makeProduct(api, { price: 2_360 });
    const response = await sell(api, {
      lines: [{ product: soap.id, quantity: 1, unit_price: 2_360 }],
      tenders: [{ method: 'cash', amount: 2_360 }],
    });
    expect(response.status).toBe(201);
    expect(response.body.flags).toEqual([]);
    expect(response.body.total).toBe(2_360);
  });

  it('still refuses a deleted product and an unknown customer', async () => {
    const tea = await makeProduct(api, { price: 1_500 });
    await api.delete(`/v1/retail/products/${tea.id}`);
    const deleted = await sell(api, {
      lines: [{ product: tea.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 1_500 }],
    });
    expect(deleted.status).toBe(400);
    expect(deleted.body.code).toBe('product_unknown');
    const live = await makeProduct(api, { price: 1_500 });
    const customer = await sell(api, {
      customer: 'cus_never_synced',
      lines: [{ product: live.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 1_500 }],
    });
    expect(customer.status).toBe(400);
    expect(customer.body.details).toHaveProperty('customer');
  });
});
