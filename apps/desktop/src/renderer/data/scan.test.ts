import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { PullDocument } from '@tz/core';
import type { Cart, TillStore } from './api.ts';
import { makeEmployee, makeProduct, openTestTill, settle } from './testing.ts';
import type { TestTill } from './testing.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

const SUGAR = '6201234500017';
const CUSTOMER: PullDocument<'customers'> = {
  id: 'cus_asha',
  _deleted: false,
  name: 'Asha Mwinyi',
  phone: '+255712345678',
  email: null,
};

/** The cart as the screen last saw it, kept current by a subscription. */
function watchLatest(store: TillStore) {
  const latest: { cart: Cart | null } = { cart: null };
  const subscription = store.cart$.subscribe((cart) => (latest.cart = cart));
  return { latest, stop: () => subscription.unsubscribe() };
}

const productIds = (cart: Cart | null) => cart?.lines.map((line) => line.item.productId) ?? [];

describe('a scan answered from the catalogue in memory', () => {
  it('is in the cart on screen before addBarcode returns, with the customer still shown, and written once', async () => {
    till = await openTestTill({
      products: [makeProduct({ track_stock: true })],
      employees: [await makeEmployee()],
      customers: [CUSTOMER],
    });
    const { store } = till;
    await settle(async () => expect(await store.findByBarcode(SUGAR)).not.toBeNull());
    await store.signIn('1234');
    await store.setCustomer(CUSTOMER.id);
    const { latest, stop } = watchLatest(store);
    await settle(() => expect(latest.cart?.customer?.id).toBe(CUSTOMER.id));

    const added = store.addBarcode(SUGAR);
    // No await between the scan and this check: the line was drawn in the same task.
    expect(productIds(latest.cart)).toEqual(['prod_1']);
    expect(latest.cart?.customer?.name).toBe('Asha Mwinyi');
    expect(latest.cart?.priced.total).toBe(3500);

    expect((await added)?.productId).toBe('prod_1');
    const again = store.addBarcode(SUGAR);
    expect(latest.cart?.lines[0]?.quantityMilli).toBe(2000);
    await again;
    await settle(async () => expect((await firstValueFrom(store.cart$)).priced.total).toBe(7000));
    stop();
    expect(productIds(await firstValueFrom(store.cart$))).toEqual(['prod_1']);
  });

  it('is refused, and leaves the cart, when nobody is signed in', async () => {
    till = await openTestTill({ products: [makeProduct()], employees: [await makeEmployee()] });
    const { store } = till;
    await settle(async () => expect(await store.findByBarcode(SUGAR)).not.toBeNull());
    await expect(store.addBarcode(SUGAR)).rejects.toMatchObject({ code: 'not_signed_in' });
    expect((await firstValueFrom(store.cart$)).lines).toEqual([]);
  });
});
