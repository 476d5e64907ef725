import { afterEach, describe, expect, it } from 'vitest';
import { commandPayloads, isReceiptToken, type PairResult, type PullDocument } from '@tz/core';
import {
  FakeTransport,
  PAIRING,
  STORE,
  makeEmployee,
  makeProduct,
  openTestTill,
  settle,
} from '../../../../test/till-data.ts';
import type { TestTill } from '../../../../test/till-data.ts';
import type { TillStore } from '../api.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

const CUSTOMER: PullDocument<'customers'> = {
  id: 'cus_asha',
  _deleted: false,
  name: 'Asha Mwinyi',
  phone: '0712 345 678',
  email: null,
};

/** A transport whose pairing answer names the server's public address. */
class PublicTransport extends FakeTransport {
  override pair(): Promise<PairResult> {
    return Promise.resolve({ ...structuredClone(PAIRING), public_url: 'https://pay.example.co.tz' });
  }
}

async function sellOne(store: TillStore) {
  await settle(async () => expect(await store.findByBarcode('6201234500017')).not.toBeNull());
  await store.signIn('1234');
  await store.openShift(10_000);
  await store.addBarcode('6201234500017');
  return store.completeSale([{ method: 'cash', amount: 5_000 }]);
}

const pushedSale = async (t: TestTill) => {
  await t.store.syncNow();
  const command = t.transport.pushes.flat().find((c) => c.type === 'order.create')!;
  return commandPayloads['order.create'].parse(command.payload);
};

describe('a sale’s digital receipt', () => {
  it('is made at the till: the sale carries a fresh token, and the link uses it under the public address', async () => {
    const seed = { products: [makeProduct()], employees: [await makeEmployee()], customers: [CUSTOMER] };
    const transport = new PublicTransport();
    transport.documents = { stores: [STORE], ...seed };
    till = await openTestTill(seed, { transport });
    till.transport = transport;
    await settle(async () => expect(await till!.store.searchCustomers('Asha', 1)).toHaveLength(1));
    await till.store.setCustomer(CUSTOMER.id);
    const { digitalReceipt } = await sellOne(till.store);
    const payload = await pushedSale(till);
    expect(isReceiptToken(payload.receipt_token!)).toBe(true);
    expect(digitalReceipt).toEqual({
      url: `https://pay.example.co.tz/receipt/${payload.receipt_token}`,
      phone: '255712345678',
    });
  });

  it('uses the address the till reaches the server at when the pairing named none, and no phone without a customer', async () => {
    till = await openTestTill({ products: [makeProduct()], employees: [await makeEmployee()] });
    const { digitalReceipt } = await sellOne(till.store);
    const payload = await pushedSale(till);
    expect(digitalReceipt).toEqual({
      url: `http://127.0.0.1:0/receipt/${payload.receipt_token}`,
      phone: null,
    });
  });
});
