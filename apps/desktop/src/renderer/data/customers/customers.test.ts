import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { commandPayloads, type PullDocument } from '@tz/core';
import type { TillStore } from '../api.ts';
import { makeEmployee, makeProduct, openTestTill, settle } from '../../../../test/till-data.ts';
import type { TestTill } from '../../../../test/till-data.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

const KNOWN: PullDocument<'customers'> = {
  id: 'cus_known',
  _deleted: false,
  name: 'Mama Neema',
  phone: '255754000111',
  email: null,
};

async function readyToSell(store: TillStore) {
  await settle(async () => expect(await store.findByBarcode('6201234500017')).not.toBeNull());
  await store.signIn('1234');
  await store.openShift(10_000);
}

const cartCustomer = async (store: TillStore) => (await firstValueFrom(store.cart$)).customer;

describe('a customer made at the till', () => {
  it('is one customer.create command, offline, found by name or phone, and sold to under the till’s id', async () => {
    till = await openTestTill({
      products: [makeProduct()],
      employees: [await makeEmployee()],
      customers: [KNOWN],
    });
    const { store, transport } = till;
    await readyToSell(store);
    transport.answer = () => Promise.reject(new Error('offline'));

    const { customer, existing } = await store.createCustomer({ name: ' Juma Ali ', phone: '0712 345 678' });
    expect(existing).toBe(false);
    expect(customer).toMatchObject({ name: 'Juma Ali', phone: '255712345678' });
    expect(customer.id).toMatch(/^cus_[0-9a-z]{26}$/);
    for (const text of ['juma', '0712', '+255 712', '712345']) {
      expect(
        (await store.searchCustomers(text)).map((c) => c.id),
        text,
      ).toEqual([customer.id]);
    }
    expect((await store.searchCustomers('mama')).map((c) => c.id)).toEqual([KNOWN.id]);

    await store.setCustomer(customer.id);
    await settle(async () => expect((await cartCustomer(store))?.name).toBe('Juma Ali'));
    await store.addBarcode('6201234500017');
    const { sale } = await store.completeSale([{ method: 'cash', amount: 3500 }]);
    expect(sale.receipt.customer).toBe('Juma Ali');

    transport.answer = (commands) =>
      commands.map((command) => ({ id: command.id, status: 'applied', result: {} }));
    await store.syncNow();
    const pushed = transport.pushes.at(-1)!;
    // The customer goes up before the sale that names them.
    expect(pushed.map((command) => command.type)).toEqual(['shift.open', 'customer.create', 'order.create']);
    expect(commandPayloads['customer.create'].parse(pushed[1]!.payload)).toEqual({
      customer: customer.id,
      name: 'Juma Ali',
      phone: '255712345678',
    });
    expect(pushed[2]!.payload).toMatchObject({ customer: customer.id });
  });

  it('refuses a number that is not a Tanzanian mobile, or no name, and queues nothing', async () => {
    till = await openTestTill({ employees: [await makeEmployee()] });
    const { store } = till;
    await settle(async () => expect(await store.signIn('1234')).toBeTruthy());
    await expect(store.createCustomer({ name: 'Juma', phone: '022 212 3456' })).rejects.toMatchObject({
      code: 'phone_invalid',
    });
    await expect(store.createCustomer({ name: '  ', phone: '0712345678' })).rejects.toMatchObject({
      code: 'customer_name_missing',
    });
    await store.syncNow();
    expect(till.transport.pushes.flat()).toEqual([]);
  });

  it('answers the customer the till knows with that phone, rather than making another', async () => {
    till = await openTestTill({ employees: [await makeEmployee()], customers: [KNOWN] });
    const { store } = till;
    await settle(async () => expect(await store.searchCustomers('mama')).toHaveLength(1));
    await store.signIn('1234');
    const answered = await store.createCustomer({ name: 'Neema', phone: '+255 754 000 111' });
    expect(answered).toEqual({ customer: expect.objectContaining({ id: KNOWN.id }), existing: true });
    const made = await store.createCustomer({ name: 'Baraka', phone: '0655 000 222' });
    expect(await store.createCustomer({ name: 'Baraka M', phone: '255655000222' })).toEqual({
      customer: made.customer,
      existing: true,
    });
    await store.syncNow();
    expect(till.transport.pushes.flat().map((command) => command.type)).toEqual(['customer.create']);
  });

  it('shows on the cart as the customer the server linked the till’s id to', async () => {
    till = await openTestTill({ employees: [await makeEmployee()] });
    const { store, transport } = till;
    await settle(async () => expect(await store.signIn('1234')).toBeTruthy());
    const { customer } = await store.createCustomer({ name: 'Neema', phone: '0754000111' });
    await store.setCustomer(customer.id);
    await settle(async () => expect((await cartCustomer(store))?.name).toBe('Neema'));
    // Another till had made her first: the server links this till's id to that customer.
    transport.documents.customers = [KNOWN];
    transport.answer = (commands) =>
      commands.map((command) => ({
        id: command.id,
        status: 'applied',
        result: { customer: KNOWN.id, linked: true },
      }));
    await store.syncNow();
    transport.hint({ collections: ['customers'] });
    await settle(async () => expect((await cartCustomer(store))?.name).toBe('Mama Neema'));
    expect((await store.searchCustomers('0754')).map((c) => c.id)).toEqual([KNOWN.id]);
  });
});
