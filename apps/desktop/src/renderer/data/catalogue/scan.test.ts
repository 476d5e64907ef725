import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ean13CheckDigit, priceCheckDigit } from '@tz/core';
import type { PullDocument } from '@tz/core';
import type { Cart, TillStore } from '../api.ts';
import { STORE, makeEmployee, makeProduct, openTestTill, settle } from '../../../../test/till-data.ts';
import type { TestTill } from '../../../../test/till-data.ts';

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

    expect(await added).toMatchObject({ kind: 'added', item: { productId: 'prod_1' } });
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

describe('a scale label', () => {
  /** A label as a scale prints it: the twelve digits given, then the EAN-13 check digit. */
  const label = (first12: string) => first12 + String(ean13CheckDigit(first12));
  const BEEF = makeProduct({
    id: 'prod_beef',
    name: 'Nyama ya ng’ombe',
    sku: '00777',
    barcodes: ['6200000000777'],
    price: 12_000,
    unit: 'kg',
    plu: '123',
  });
  const SOAP = makeProduct({ id: 'prod_soap', name: 'Sabuni', plu: '55', price: 1_500 });

  async function openWith(store: Partial<PullDocument<'stores'>> = {}) {
    till = await openTestTill({
      stores: [{ ...STORE, ...store }],
      products: [BEEF, SOAP],
      employees: [await makeEmployee()],
    });
    await settle(async () => expect(await till!.store.findByBarcode('6200000000777')).not.toBeNull());
    await till.store.signIn('1234');
    return till.store;
  }

  it('adds the product its PLU names with the weight "21 PPPPP WWWWW C" carries, by default', async () => {
    const store = await openWith();
    const code = label('210012301250');
    expect(store.hasBarcode(code)).toBe(true);
    expect(await store.addBarcode(code)).toMatchObject({
      kind: 'added',
      item: { productId: 'prod_beef' },
      quantityMilli: 1250,
    });
    await settle(async () => {
      const cart = await firstValueFrom(store.cart$);
      expect(cart.lines.map((line) => [line.item.productId, line.quantityMilli])).toEqual([
        ['prod_beef', 1250],
      ]);
      expect(cart.priced.total).toBe(15_000);
    });
  });

  it('turns a price into grams at the price per kg, and the line comes to the label’s price', async () => {
    const store = await openWith();
    // 3,000 shillings of beef at 12,000 a kg: 250 g.
    expect(await store.addBarcode(label('220012303000'))).toMatchObject({
      kind: 'added',
      quantityMilli: 250,
    });
    // 1,000 shillings of soap at 1,500 a piece is no whole number of pieces.
    await expect(store.addBarcode(label('220005501000'))).rejects.toMatchObject({
      code: 'scale_label_price_not_whole',
    });
    await expect(store.addBarcode(label('210005501000'))).rejects.toMatchObject({
      code: 'scale_label_weight_on_piece',
    });
    await settle(async () => expect((await firstValueFrom(store.cart$)).priced.total).toBe(3_000));
  });

  it('refuses a label whose check digit is wrong, and finds nothing for an unknown item code', async () => {
    const store = await openWith();
    const good = label('210012301250');
    const misread = good.slice(0, 12) + String((Number(good[12]) + 1) % 10);
    expect(store.hasBarcode(misread)).toBe(false);
    await expect(store.addBarcode(misread)).rejects.toMatchObject({ code: 'scale_label_unreadable' });
    expect(await store.addBarcode(label('210099901250'))).toEqual({ kind: 'not_found' });
    expect((await firstValueFrom(store.cart$)).lines).toEqual([]);
  });

  it('reads labels as the store’s own format says: its prefixes, item code length, check digit and match', async () => {
    const store = await openWith({
      scale_barcodes: {
        weight_prefixes: ['28'],
        price_prefixes: [],
        item_code_digits: 4,
        price_check_digit: true,
        match_by: 'sku',
      },
    });
    // 28, item 0777 (the SKU), price check digit of 00750, 750 g.
    const code = label(`280777${priceCheckDigit('00750')}00750`);
    // Once the store's format has arrived.
    await settle(() => expect(store.hasBarcode(code)).toBe(true));
    expect(await store.addBarcode(code)).toMatchObject({ kind: 'added', item: { productId: 'prod_beef' } });
    // A 21 label is no scale label in this shop.
    expect(await store.addBarcode(label('210012301250'))).toEqual({ kind: 'not_found' });
    await settle(async () =>
      expect((await firstValueFrom(store.cart$)).lines.map((line) => line.quantityMilli)).toEqual([750]),
    );
  });

  it('asks for the weight when a product sold by weight is scanned by its own barcode', async () => {
    const store = await openWith();
    expect(await store.addBarcode('6200000000777')).toMatchObject({
      kind: 'weigh',
      item: { productId: 'prod_beef' },
    });
    expect((await firstValueFrom(store.cart$)).lines).toEqual([]);
  });
});
