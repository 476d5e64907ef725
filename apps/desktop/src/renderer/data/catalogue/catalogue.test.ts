import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PullDocument } from '@tz/core';
import { makeEmployee, makeProduct, openTestTill, settle } from '../../../../test/till-data.ts';
import type { TestTill } from '../../../../test/till-data.ts';

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

const PRODUCTS = 100_000;

function catalogue() {
  return Array.from({ length: PRODUCTS }, (_, i) =>
    makeProduct({
      id: `prod_${String(i).padStart(6, '0')}`,
      name: `${['Sukari', 'Mchele', 'Unga', 'Maziwa', 'Chai'][i % 5]} ${i}`,
      sku: `SKU-${i}`,
      barcodes:
        i % 1000 === 7
          ? ['a', 'b', 'c', `620${String(i).padStart(10, '0')}`]
          : [`620${String(i).padStart(10, '0')}`],
      active: i % 97 !== 0,
    }),
  );
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

describe('catalogue search with 100,000 products', () => {
  it('finds by name, SKU and barcode prefix, and by any barcode, from memory', async () => {
    till = await openTestTill({ products: catalogue() });
    const { store } = till;
    await vi.waitFor(
      async () =>
        expect(await store.findByBarcode(`620${String(PRODUCTS - 1).padStart(10, '0')}`)).not.toBeNull(),
      { timeout: 120_000, interval: 500 },
    );
    expect((await firstValueFrom(store.sync$)).connection).toBe('online');

    const [byName, nameMs] = await timed(() => store.search('maziwa 1234', 10));
    expect(byName.map((item) => item.name)).toEqual(['Maziwa 12343', 'Maziwa 12348']);

    const [bySku, skuMs] = await timed(() => store.search('sku-4242', 5));
    expect(bySku[0]?.productId).toBe('prod_004242');

    const [byBarcode, barcodeMs] = await timed(() => store.findByBarcode('6200000054321'));
    expect(byBarcode?.productId).toBe('prod_054321');
    // A fourth barcode.
    const [extra, extraMs] = await timed(() => store.findByBarcode('6200000099007'));
    expect(extra?.productId).toBe('prod_099007');
    // Inactive products are not sold.
    expect(await store.findByBarcode('6200000000097')).toBeNull();

    console.info(
      `100k products: name ${nameMs.toFixed(1)} ms, sku ${skuMs.toFixed(1)} ms, barcode ${barcodeMs.toFixed(1)} ms, fourth barcode ${extraMs.toFixed(1)} ms`,
    );
    // Generous bounds for a shared machine; a full scan of 100,000 documents takes far longer.
    for (const ms of [nameMs, skuMs, barcodeMs, extraMs]) expect(ms).toBeLessThan(250);
  }, 180_000);
});

const variant = (overrides: Partial<PullDocument<'variants'>>): PullDocument<'variants'> => ({
  id: 'var_1',
  _deleted: false,
  product: 'prod_kanga',
  name: 'Nyekundu',
  sku: null,
  barcodes: [],
  price: 12_500,
  active: true,
  ...overrides,
});

// Read into memory on a timer, or by the first lookup, which waits for it.
describe.each([
  ['read into memory at once', 0],
  ['read into memory by the first lookup', Infinity],
])('a product with variants (%s)', (_how, indexCatalogueAfterMs) => {
  it('is sold only as one of its variants, and follows variants added and removed', async () => {
    const kanga = makeProduct({ id: 'prod_kanga', name: 'Kanga', sku: 'KANGA', barcodes: ['6209990000001'] });
    const soap = makeProduct({ id: 'prod_soap', name: 'Sabuni', sku: 'SAB', barcodes: ['6209990000002'] });
    till = await openTestTill(
      {
        products: [kanga, soap],
        variants: [
          variant({ id: 'var_red', name: 'Nyekundu', barcodes: ['6209990000011'], price: 12_500 }),
          variant({ id: 'var_blue', name: 'Bluu', barcodes: ['6209990000012'], price: 13_000 }),
          variant({ id: 'var_old', name: 'Zamani', barcodes: ['6209990000013'], active: false }),
        ],
        employees: [await makeEmployee()],
      },
      { indexCatalogueAfterMs },
    );
    const { store, transport } = till;
    await settle(async () => expect(await store.findByBarcode('6209990000012')).not.toBeNull());
    await store.signIn('1234');

    // Searching the product offers it as a product with variants, and its variants for sale by name.
    const [found] = await store.search('kanga');
    expect(found).toMatchObject({ productId: 'prod_kanga', variantId: null, hasVariants: true });
    const offered = await store.variantsOf('prod_kanga');
    expect(offered.map((item) => [item.name, item.variantId, item.price])).toEqual([
      ['Kanga Bluu', 'var_blue', 13_000],
      ['Kanga Nyekundu', 'var_red', 12_500],
    ]);
    // Neither picking nor scanning the product itself puts it in the cart.
    await expect(store.addItem(found!)).rejects.toMatchObject({ code: 'choose_variant' });
    expect(await store.addBarcode('6209990000001')).toMatchObject({
      kind: 'choose_variant',
      item: { hasVariants: true },
    });
    // Scanning a variant adds that variant; an inactive one is not for sale.
    expect(await store.addBarcode('6209990000011')).toMatchObject({
      kind: 'added',
      item: { variantId: 'var_red' },
    });
    expect(await store.findByBarcode('6209990000013')).toBeNull();
    const cart = await firstValueFrom(store.cart$);
    expect(cart.lines.map((line) => [line.item.productId, line.item.variantId])).toEqual([
      ['prod_kanga', 'var_red'],
    ]);

    // A product without variants sells as itself, until the server gives it one.
    expect(await store.findByBarcode('6209990000002')).toMatchObject({ hasVariants: false });
    const large = variant({
      id: 'var_soap_large',
      product: 'prod_soap',
      name: 'Kubwa',
      barcodes: ['62099900021'],
    });
    transport.documents.variants = [...(transport.documents.variants ?? []), large];
    await store.syncNow();
    await settle(async () =>
      expect(await store.findByBarcode('6209990000002')).toMatchObject({ hasVariants: true }),
    );
    expect((await store.search('sabuni'))[0]).toMatchObject({ hasVariants: true });
    expect(await store.addBarcode('62099900021')).toMatchObject({
      kind: 'added',
      item: { variantId: 'var_soap_large' },
    });

    // Its variant deleted and its barcode changed: it sells as itself again, under the new barcode only.
    transport.documents.variants = [...transport.documents.variants, { ...large, _deleted: true }];
    transport.documents.products = [
      ...(transport.documents.products ?? []),
      { ...soap, barcodes: ['6209990000003'] },
    ];
    await store.syncNow();
    await settle(async () =>
      expect(await store.findByBarcode('6209990000003')).toMatchObject({ hasVariants: false }),
    );
    expect(await store.findByBarcode('6209990000002')).toBeNull();
    expect(await store.findByBarcode('62099900021')).toBeNull();
  }, 30_000);
});
