import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogueIndex } from './catalogue-index.ts';
import { openDatabase } from './database.ts';
import type { TillDatabase } from './database.ts';
import { toLocal } from './schema.ts';
import { makeProduct } from './testing.ts';

let db: TillDatabase | null = null;
afterEach(async () => {
  await db?.close();
  db = null;
});

const code = (i: number) => `620${String(i).padStart(10, '0')}`;

describe('the catalogue index', () => {
  it('reads what was stored before it began, page by page, and follows writes made while it reads', async () => {
    db = await openDatabase({
      name: `index${Date.now()}`,
      storage: getRxStorageMemory(),
      multiInstance: false,
    });
    const products = Array.from({ length: 4500 }, (_, i) =>
      toLocal('products', makeProduct({ id: `prod_${String(i).padStart(5, '0')}`, barcodes: [code(i)] })),
    );
    await db.products.bulkInsert(products);
    await db.variants.insert(
      toLocal('variants', {
        id: 'var_1',
        _deleted: false,
        product: 'prod_00007',
        name: 'Kubwa',
        sku: null,
        barcodes: ['6209990000011'],
        price: 5000,
        active: true,
      }),
    );
    const index = new CatalogueIndex({ products: db.products, variants: db.variants });
    index.follow();
    expect(index.withBarcode(code(1))).toBeUndefined();
    const building = index.build();
    // Written while the build reads: the write wins over the page read before it.
    await db.products.upsert(
      toLocal('products', makeProduct({ id: 'prod_04499', barcodes: ['6209990009999'] })),
    );
    await building;
    expect(index.withBarcode(code(4321))?.products.map((p) => p.id)).toEqual(['prod_04321']);
    expect(index.withBarcode('6209990009999')?.products.map((p) => p.id)).toEqual(['prod_04499']);
    expect(index.withBarcode(code(4499))?.products).toEqual([]);
    expect(index.withBarcode('6209990000011')?.variants.map((v) => v.id)).toEqual(['var_1']);
    expect(index.hasVariants('prod_00007')).toBe(true);
    expect(index.hasVariants('prod_00008')).toBe(false);
    // Deleted after: gone from the answers.
    await (await db.variants.findOne('var_1').exec())!.remove();
    expect(index.hasVariants('prod_00007')).toBe(false);
    expect(index.withBarcode('6209990000011')?.variants).toEqual([]);
    index.stop();
  }, 60_000);
});
