/**
 * The till's product tiles: building the shelves (`tileShelves`, what runs
 * after each run of catalogue writes) over a large catalogue, against the
 * floor any build must pay, one pass making each active product's item
 * (`catalogueItem`) with no grouping or sorting. Same process, same run, so
 * the ratio holds on a noisy host.
 *
 *   npx tsx bench/tiles.ts
 *
 * BENCH_PRODUCTS (default 100000), BENCH_CATEGORIES (default 40), BENCH_ROUNDS (default 15: medians).
 */
import type { PullDocument } from '@tz/core';
import { catalogueItem } from '../apps/desktop/src/renderer/data/catalogue/catalogue-item.ts';
import { tileShelves } from '../apps/desktop/src/renderer/data/catalogue/tiles.ts';
import { BRANDS, GOODS } from './support/harness.ts';

const productCount = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const categoryCount = Number(process.env.BENCH_CATEGORIES ?? 40);
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);

const categories = Array.from({ length: categoryCount }, (_, i) => ({ id: `cat_${i}`, name: `Aina ${i}` }));
const products: PullDocument<'products'>[] = Array.from({ length: productCount }, (_, i) => ({
  id: `prod_${i}`,
  _deleted: false,
  name: `${BRANDS[i % BRANDS.length]} ${GOODS[i % GOODS.length]} ${i}`,
  sku: `SKU-${i}`,
  barcodes: [],
  price: 500 + (i % 100) * 50,
  currency: 'TZS',
  tax_rate: 'standard',
  // Most products in a category; every 50th a favourite; 1 in 20 inactive.
  category: i % 10 === 0 ? null : `cat_${i % categoryCount}`,
  unit: 'piece',
  track_stock: true,
  active: i % 20 !== 0,
  favourite_position: i % 50 === 0 ? ((i / 50) % 999) + 1 : null,
}));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function time(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

const floor: number[] = [];
const shelves: number[] = [];
for (let round = 0; round < rounds; round++) {
  // Alternated, so both see the same machine.
  floor.push(
    time(() => {
      const items = [];
      for (const product of products)
        if (product.active) items.push(catalogueItem(product, null, null, false));
      return items;
    }),
  );
  shelves.push(time(() => tileShelves(products, categories, () => false)));
}
const floorMs = median(floor);
const shelvesMs = median(shelves);
console.log(
  JSON.stringify(
    {
      products: productCount,
      categories: categoryCount,
      floorMs: Number(floorMs.toFixed(1)),
      shelvesMs: Number(shelvesMs.toFixed(1)),
      ratio: Number((shelvesMs / floorMs).toFixed(2)),
    },
    null,
    2,
  ),
);
