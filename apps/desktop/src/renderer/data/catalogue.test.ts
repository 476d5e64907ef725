import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeProduct, openTestTill } from './testing.ts';
import type { TestTill } from './testing.ts';

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
  it('finds by name, SKU and barcode prefix, and by any barcode, from indexes', async () => {
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
    // A fourth barcode, past the indexed ones.
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
