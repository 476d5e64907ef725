import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { PullDocument } from '@tz/core';
import { CatalogueIndex } from './catalogue-index.ts';
import { compactIfGrown, readPages } from './catalogue-pages.ts';
import { openDatabase } from '../store/database.ts';
import type { TillDatabase } from '../store/database.ts';
import { KV, Kv } from '../store/kv.ts';
import { makeProduct, settle, storeCatalogue } from '../../../../test/till-data.ts';

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
      makeProduct({ id: `prod_${String(i).padStart(5, '0')}`, barcodes: [code(i)] }),
    );
    await storeCatalogue(db.products, products);
    // A later page's copy is the current one.
    await storeCatalogue(db.products, [makeProduct({ id: 'prod_00002', barcodes: ['6209990000002'] })]);
    const kubwa = {
      id: 'var_1',
      _deleted: false,
      product: 'prod_00007',
      name: 'Kubwa',
      sku: null,
      barcodes: ['6209990000011'],
      price: 5000,
      active: true,
    };
    await storeCatalogue(db.variants, [kubwa]);
    const index = new CatalogueIndex({ products: db.products, variants: db.variants });
    index.follow();
    expect(index.withBarcode(code(1))).toBeUndefined();
    const building = index.build();
    // Written while the build reads: the write wins over the page read before it.
    await storeCatalogue(db.products, [makeProduct({ id: 'prod_04499', barcodes: ['6209990009999'] })]);
    await building;
    expect(index.withBarcode(code(2))?.products).toEqual([]);
    expect(index.withBarcode('6209990000002')?.products.map((p) => p.id)).toEqual(['prod_00002']);
    expect(index.withBarcode(code(4321))?.products.map((p) => p.id)).toEqual(['prod_04321']);
    expect(index.withBarcode('6209990009999')?.products.map((p) => p.id)).toEqual(['prod_04499']);
    expect(index.withBarcode(code(4499))?.products).toEqual([]);
    expect(index.withBarcode('6209990000011')?.variants.map((v) => v.id)).toEqual(['var_1']);
    expect(index.hasVariants('prod_00007')).toBe(true);
    expect(index.hasVariants('prod_00008')).toBe(false);
    // Deleted after: gone from the answers.
    await storeCatalogue(db.variants, [{ ...kubwa, _deleted: true }]);
    expect(index.hasVariants('prod_00007')).toBe(false);
    expect(index.withBarcode('6209990000011')?.variants).toEqual([]);
    index.stop();
  }, 60_000);

  it('answers the same through a compaction of the stored pages, and a build after it too', async () => {
    db = await openDatabase({
      name: `compact${Date.now()}`,
      storage: getRxStorageMemory(),
      multiInstance: false,
    });
    const kv = new Kv(db.kv);
    for (let n = 0; n < 60; n++)
      await storeCatalogue(db.products, [
        makeProduct({ id: `prod_${n % 20}`, name: `Chai ${n}`, barcodes: [code(n)] }),
      ]);
    await storeCatalogue(db.products, [makeProduct({ id: 'prod_7', _deleted: true })]);
    const index = new CatalogueIndex({ products: db.products, variants: db.variants });
    index.follow();
    await index.build();
    const answers = (of: CatalogueIndex) => ({
      found: of
        .search('chai', 'chai', 50)
        ?.products.map((p) => `${p.id} ${p.name}`)
        .sort(),
      old: of.withBarcode(code(3))?.products,
      current: of.withBarcode(code(43))?.products.map((p) => p.id),
      deleted: of.product('prod_7'),
    });
    const before = answers(index);
    expect(before.found).toHaveLength(19);
    expect(before).toMatchObject({ old: [], current: ['prod_3'], deleted: null });

    await kv.set(KV.cataloguePages('products'), 1);
    expect(await compactIfGrown(db.products, 'products', kv)).toBe(true);
    expect(await readPages(db.products, '')).toHaveLength(1);
    expect(answers(index)).toEqual(before);
    const rebuilt = new CatalogueIndex({ products: db.products, variants: db.variants });
    rebuilt.follow();
    await rebuilt.build();
    expect(answers(rebuilt)).toEqual(before);
    index.stop();
    rebuilt.stop();
  }, 30_000);
});

const variant = (overrides: Partial<PullDocument<'variants'>>): PullDocument<'variants'> => ({
  id: 'var_1',
  _deleted: false,
  product: 'prod_sukari',
  name: 'Nusu',
  sku: null,
  barcodes: [],
  price: 1800,
  active: true,
  ...overrides,
});

describe('search from memory', () => {
  async function built() {
    db = await openDatabase({
      name: `search${Date.now()}`,
      storage: getRxStorageMemory(),
      multiInstance: false,
    });
    await storeCatalogue(db.products, [
      makeProduct({ id: 'prod_sukari', name: 'Sukari 1kg', sku: 'SUK-1', barcodes: ['6201000000001'] }),
      makeProduct({ id: 'prod_brown', name: 'Sukari Brown', sku: 'BRN-1', barcodes: ['6201000000002'] }),
      // Found by SKU only, and by barcode only.
      makeProduct({ id: 'prod_tea', name: 'Chai', sku: 'suk-chai', barcodes: ['6202000000001'] }),
      makeProduct({ id: 'prod_coded', name: 'Mchele', sku: null, barcodes: ['x', 'SUK99'] }),
      makeProduct({ id: 'prod_old', name: 'Sukari ya zamani', active: false }),
      makeProduct({ id: 'prod_gone', name: 'Kanga', active: false }),
    ]);
    await storeCatalogue(db.variants, [
      variant({ id: 'var_half', name: 'Sukari nusu', barcodes: ['6201000000011'] }),
      variant({ id: 'var_off', name: 'Sukari robo', active: false }),
      // An active variant of an inactive product is not offered.
      variant({ id: 'var_orphan', product: 'prod_gone', name: 'Sukari kanga' }),
    ]);
    const index = new CatalogueIndex({ products: db.products, variants: db.variants });
    index.follow();
    expect(index.search('sukari', 'sukari', 50)).toBeUndefined();
    await index.ready();
    return index;
  }
  const ids = (found: ReturnType<CatalogueIndex['search']>) => [
    ...(found?.products.map((p) => p.id) ?? []),
    ...(found?.variants.map((v) => v.id) ?? []),
  ];

  it('finds products before variants, by name, then SKU, then barcode, active only, up to the limit', async () => {
    const index = await built();
    // Keys compare by code unit, as IndexedDB orders them: "sukari 1kg" before "sukari brown".
    expect(ids(index.search('suk', 'SUK', 50))).toEqual([
      'prod_sukari',
      'prod_brown',
      'prod_tea',
      'prod_coded',
      'var_half',
    ]);
    // The SKU matched the name already: once only.
    expect(ids(index.search('sukari', 'Sukari', 50))).toEqual(['prod_sukari', 'prod_brown', 'var_half']);
    expect(ids(index.search('suk', 'SUK', 3))).toEqual(['prod_sukari', 'prod_brown', 'prod_tea']);
    expect(ids(index.search('620100', '620100', 50))).toEqual(['prod_sukari', 'prod_brown', 'var_half']);
    expect(ids(index.search('6201000000011', '6201000000011', 50))).toEqual(['var_half']);
    expect(ids(index.search('zzz', 'zzz', 50))).toEqual([]);
    expect(
      index
        .variantsOfProduct('prod_sukari')
        ?.map((v) => v.id)
        .sort(),
    ).toEqual(['var_half', 'var_off']);
    index.stop();
  }, 30_000);

  it('follows renames, new barcodes, deactivation and deletion', async () => {
    const index = await built();
    await storeCatalogue(db!.products, [
      makeProduct({ id: 'prod_brown', name: 'Unga Brown', sku: 'BRN-1', barcodes: ['777'] }),
      makeProduct({ id: 'prod_sukari', name: 'Sukari 1kg', sku: 'SUK-1', active: false }),
    ]);
    await storeCatalogue(db!.variants, [
      variant({ id: 'var_half', name: 'Sukari nusu', barcodes: ['6201000000011'], _deleted: true }),
    ]);
    await storeCatalogue(db!.products, [
      makeProduct({ id: 'prod_new', name: 'Sukari mpya', sku: null, barcodes: [] }),
      makeProduct({ id: 'prod_gone', name: 'Kanga', active: true }),
    ]);
    expect(ids(index.search('sukari', 'sukari', 50))).toEqual(['prod_new', 'var_orphan']);
    expect(ids(index.search('unga', 'unga', 50))).toEqual(['prod_brown']);
    expect(ids(index.search('6201000000002', '6201000000002', 50))).toEqual([]);
    expect(ids(index.search('77', '77', 50))).toEqual(['prod_brown']);
    index.stop();
  }, 30_000);

  it('keeps answering while thousands of writes wait to be sorted in, and after', async () => {
    const index = await built();
    const many = Array.from({ length: 6000 }, (_, i) =>
      makeProduct({
        id: `prod_m${String(i).padStart(4, '0')}`,
        name: `Maziwa ${i}`,
        sku: null,
        barcodes: [code(i)],
      }),
    );
    await storeCatalogue(db!.products, many);
    expect(ids(index.search('maziwa 123', 'maziwa 123', 50))).toEqual([
      'prod_m0123',
      'prod_m1230',
      'prod_m1231',
      'prod_m1232',
      'prod_m1233',
      'prod_m1234',
      'prod_m1235',
      'prod_m1236',
      'prod_m1237',
      'prod_m1238',
      'prod_m1239',
    ]);
    // Renamed, most of them: the old names are dropped at a merge and never found.
    await storeCatalogue(
      db!.products,
      many.slice(0, 5000).map((p) => ({ ...p, name: `Chumvi ${p.id}` })),
    );
    const renamed = () => {
      expect(ids(index.search('maziwa 123', 'maziwa 123', 50))).toEqual([]);
      expect(ids(index.search('maziwa 5999', 'maziwa 5999', 50))).toEqual(['prod_m5999']);
      expect(index.search('chumvi', 'chumvi', 50)?.products).toHaveLength(50);
    };
    // Answered as soon as the writes arrive, and again once their keys are merged (a timer soon after).
    await settle(renamed);
    await settle(() => expect(Reflect.get(index, 'mergeTimer')).toBeUndefined());
    renamed();
    index.stop();
  }, 60_000);
});
