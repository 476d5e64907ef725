import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { commandPayloads, priceCart } from '@tz/core';
import type { TillStore } from '../api.ts';
import { makeEmployee, makeProduct, openTestTill, settle } from '../../../../test/till-data.ts';
import type { TestTill } from '../../../../test/till-data.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

async function readyToSell(store: TillStore) {
  await settle(async () => expect(await store.findByBarcode('6201234500017')).not.toBeNull());
  await store.signIn('1234');
  await store.openShift(10_000);
}

async function commandsOf(store: TillStore) {
  // The store's own view of the outbox: every sale, newest first.
  return firstValueFrom(store.sales$);
}

describe('completeSale', () => {
  it('writes one order.create command carrying the priced order and the receipt', async () => {
    till = await openTestTill({
      products: [
        makeProduct(),
        makeProduct({ id: 'prod_2', name: 'Mchele', barcodes: ['111'], price: 2900, unit: 'kg' }),
      ],
      employees: [await makeEmployee()],
    });
    const { store } = till;
    await readyToSell(store);
    await store.addBarcode('6201234500017');
    await store.addBarcode('6201234500017');
    const rice = await store.findByBarcode('111');
    await store.addItem(rice!, 750);
    const cart = await firstValueFrom(store.cart$);
    expect(cart.priced.total).toBe(2 * 3500 + 2175);

    const { sale, change } = await store.completeSale([{ method: 'cash', amount: 10_000 }]);
    expect(change).toBe(10_000 - 9175);
    expect(sale.receiptNumber).toBe('T01-000001');
    expect(sale.status).toBe('pending');
    expect(sale.receipt.total).toBe(9175);
    expect(sale.receipt.receiptNumber).toBe('T01-000001');

    const sales = await commandsOf(store);
    expect(sales).toHaveLength(1);
    // The sold lines leave the cart just after the sale is written.
    await settle(async () => expect((await firstValueFrom(store.cart$)).lines).toHaveLength(0));
    const pushed = till.transport;
    await store.syncNow();
    const command = pushed.pushes.flat().find((c) => c.type === 'order.create')!;
    expect(command.id).toMatch(/^cmd_[0-9A-HJKMNP-TV-Z]{26}$/);
    const payload = commandPayloads['order.create'].parse(command.payload);
    expect(payload).toMatchObject({
      client_order_id: sale.clientOrderId,
      receipt_number: 'T01-000001',
      store: 'store_1',
      till_id: 'till_1',
      till_name: 'Counter 1',
      cashier_id: 'emp_cashier',
      cashier_name: 'Asha',
      tenders: [{ method: 'cash', amount: 10_000 }],
    });
    // The receipt names them as the payload does: a receipt the server rebuilds from it reads the same.
    expect([sale.receipt.till, sale.receipt.cashier]).toEqual([payload.till_name, payload.cashier_name]);
    expect(payload.lines.map((line) => [line.product, line.quantity_milli])).toEqual([
      ['prod_1', 2000],
      ['prod_2', 750],
    ]);
    // The server prices the payload's lines from its catalogue to the same total.
    const server = priceCart({
      currency: 'TZS',
      vatRegion: 'mainland',
      lines: [
        {
          productId: 'prod_1' as never,
          description: 'a',
          unitPrice: 3500,
          quantityMilli: 2000,
          taxClass: 'standard',
        },
        {
          productId: 'prod_2' as never,
          description: 'b',
          unitPrice: 2900,
          unit: 'kg',
          quantityMilli: 750,
          taxClass: 'standard',
        },
      ],
    });
    expect(server.total).toBe(sale.total);
  });

  it('makes one sale when the same cart is completed 200 times at once', async () => {
    till = await openTestTill({ products: [makeProduct()], employees: [await makeEmployee()] });
    const { store } = till;
    await readyToSell(store);
    await store.addBarcode('6201234500017');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, () => store.completeSale([{ method: 'cash', amount: 3500 }])),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes
      .filter((o) => o.status === 'rejected')
      .map((o) => (o.reason as { code: string }).code);
    expect(new Set(refused)).toEqual(new Set(['cart_empty']));
    expect(await commandsOf(store)).toHaveLength(1);
  });

  it('never repeats or skips a receipt number across 200 concurrent completeSale calls', async () => {
    till = await openTestTill({ products: [makeProduct()], employees: [await makeEmployee()] });
    const { store } = till;
    await readyToSell(store);
    // Each call scans an item and completes: sales take whatever the cart holds by then.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, async () => {
        await store.addBarcode('6201234500017');
        return store.completeSale([{ method: 'cash', amount: 1_000_000 }]);
      }),
    );
    const sold = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.sale] : []));
    const refused = outcomes.flatMap((o) =>
      o.status === 'rejected' ? [(o.reason as { code: string }).code] : [],
    );
    expect(new Set(refused).size).toBeLessThanOrEqual(1);
    if (refused.length > 0) expect(refused[0]).toBe('cart_empty');
    const numbers = sold.map((sale) => sale.receiptNumber).sort();
    expect(new Set(numbers).size).toBe(sold.length);
    expect(numbers).toEqual(sold.map((_, i) => `T01-${String(i + 1).padStart(6, '0')}`));
    // Every scanned item is in exactly one sale.
    const items = sold.reduce((sum, sale) => sum + sale.total / 3500, 0);
    expect(items).toBe(200);
    expect(await commandsOf(store)).toHaveLength(sold.length);
  });

  it('refuses to sell without a signed-in cashier or an open shift', async () => {
    till = await openTestTill({ products: [makeProduct()], employees: [await makeEmployee()] });
    const { store } = till;
    await settle(async () => expect(await store.findByBarcode('6201234500017')).not.toBeNull());
    await expect(store.addBarcode('6201234500017')).rejects.toMatchObject({ code: 'not_signed_in' });
    await store.signIn('1234');
    await store.addBarcode('6201234500017');
    await expect(store.completeSale([{ method: 'cash', amount: 3500 }])).rejects.toMatchObject({
      code: 'shift_not_open',
    });
  });
});
