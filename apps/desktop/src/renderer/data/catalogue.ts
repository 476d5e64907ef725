/**
 * Finding what to sell. A scan reads the barcode in the in-memory index
 * (`catalogue-index.ts`) and then one document by id; until the index is
 * built, and for search, every lookup reads an index (name, SKU and barcode
 * keys added by `toLocal`), never a scan, so it stays quick with 100,000
 * products on the till. Independent lookups run together; the answer keeps
 * their order of priority.
 *
 * A product with variants is sold only as one of them (the server records
 * such a product sold as itself as `product_unavailable`): its item says
 * `hasVariants` and `variantsOf` lists what to offer instead.
 */
import type { MangoQuerySelector } from 'rxdb';
import type { PullDocument } from '@tz/core';
import type { CatalogueItem } from './api.ts';
import { catalogueItem } from './catalogue-item.ts';
import { device } from './context.ts';
import type { Context } from './context.ts';
import { INDEXED_BARCODES, normalise } from './schema.ts';

type Product = PullDocument<'products'>;
type Variant = PullDocument<'variants'>;
type Kind = 'products' | 'variants';

const prefixOf = (field: string, text: string): MangoQuerySelector<Record<string, unknown>> => ({
  [field]: { $gte: text, $lt: `${text}\uffff` },
});

const plain = <T>(docs: Array<{ toJSON(): unknown }>) => docs.map((doc) => doc.toJSON() as T);

async function onHand(ctx: Context, product: Product, variant: Variant | null): Promise<number | null> {
  if (!product.track_stock) return null;
  const till = (await device(ctx))?.till;
  if (!till) return null;
  const level = await ctx.db.stock_levels
    .findOne({ selector: { product: product.id, variant_key: variant?.id ?? '', store: till.store } })
    .exec();
  return level ? (level.toJSON() as unknown as PullDocument<'stock_levels'>).on_hand_milli : null;
}

/** The products among `ids` that have variants: from memory once indexed, else one indexed query. */
async function withVariants(ctx: Context, ids: string[]): Promise<Set<string>> {
  const known = ids.filter((id) => ctx.catalogue.hasVariants(id) !== undefined);
  if (known.length === ids.length) return new Set(ids.filter((id) => ctx.catalogue.hasVariants(id)));
  const docs = await ctx.db.variants.find({ selector: { product: { $in: ids } } }).exec();
  return new Set(plain<Variant>(docs).map((variant) => variant.product));
}

async function productItems(ctx: Context, products: Product[]): Promise<CatalogueItem[]> {
  const live = products.filter((product) => product.active);
  if (live.length === 0) return [];
  const parents = await withVariants(
    ctx,
    live.map((product) => product.id),
  );
  return Promise.all(
    live.map(async (product) =>
      catalogueItem(product, null, await onHand(ctx, product, null), parents.has(product.id)),
    ),
  );
}

async function variantItems(ctx: Context, variants: Variant[]): Promise<CatalogueItem[]> {
  const live = variants.filter((variant) => variant.active);
  if (live.length === 0) return [];
  const ids = [...new Set(live.map((v) => v.product))];
  const parents = new Map<string, Product>();
  if (ids.every((id) => ctx.catalogue.product(id) !== undefined)) {
    for (const id of ids) {
      const product = ctx.catalogue.product(id);
      if (product) parents.set(id, product);
    }
  } else {
    for (const [id, doc] of await ctx.db.products.findByIds(ids).exec())
      parents.set(id, doc.toJSON() as Product);
  }
  const items = await Promise.all(
    live.map(async (variant) => {
      const parent = parents.get(variant.product);
      if (!parent?.active) return null;
      return catalogueItem(parent, variant, await onHand(ctx, parent, variant));
    }),
  );
  return items.filter((item): item is CatalogueItem => item !== null);
}

export async function search(ctx: Context, text: string, limit = 50): Promise<CatalogueItem[]> {
  const wanted = normalise(text);
  if (wanted === '') return [];
  const raw = text.trim();
  const fields: Array<[string, string]> = [
    ['name_key', wanted],
    ['sku_key', wanted],
    ['barcode0', raw],
  ];
  const query = (collection: Kind, field: string, value: string) =>
    ctx.db[collection].find({ selector: prefixOf(field, value), sort: [{ [field]: 'asc' }], limit }).exec();
  // All six lookups at once; products before variants, name before SKU before barcode.
  const [products, variants] = await Promise.all(
    (['products', 'variants'] as const).map(async (collection) => {
      const answers = await Promise.all(fields.map(([field, value]) => query(collection, field, value)));
      const seen = new Map<string, Record<string, unknown>>();
      for (const doc of answers.flat()) if (!seen.has(doc.primary)) seen.set(doc.primary, doc.toJSON());
      return [...seen.values()];
    }),
  );
  const liveProducts = (products as unknown as Product[]).filter((p) => p.active).slice(0, limit);
  const liveVariants = (variants as unknown as Variant[])
    .filter((v) => v.active)
    .slice(0, limit - liveProducts.length);
  const [fromProducts, fromVariants] = await Promise.all([
    productItems(ctx, liveProducts),
    variantItems(ctx, liveVariants),
  ]);
  return [...fromProducts, ...fromVariants].slice(0, limit);
}

/** The documents of `collection` with exactly this barcode, from the indexes. */
async function withBarcode(ctx: Context, collection: Kind, barcode: string): Promise<unknown[]> {
  const slots = Array.from({ length: INDEXED_BARCODES }, (_, slot) =>
    ctx.db[collection].find({ selector: { [`barcode${slot}`]: barcode } }).exec(),
  );
  // The rare document with more barcodes than are indexed: only those are read.
  const many = ctx.db[collection]
    .find({ selector: { more_barcodes: true } })
    .exec()
    .then((docs) => docs.filter((doc) => (doc.toJSON().barcodes as string[]).includes(barcode)));
  return plain((await Promise.all([...slots, many])).flat());
}

/** The product or variant with exactly this barcode (a variant's wins over its product's). */
export async function findByBarcode(ctx: Context, code: string): Promise<CatalogueItem | null> {
  const barcode = code.trim();
  if (barcode === '') return null;
  const inMemory = ctx.catalogue.withBarcode(barcode);
  const [variants, products] = inMemory
    ? [inMemory.variants, inMemory.products]
    : ((await Promise.all([
        withBarcode(ctx, 'variants', barcode),
        withBarcode(ctx, 'products', barcode),
      ])) as [Variant[], Product[]]);
  const fromVariants = await variantItems(ctx, variants);
  if (fromVariants[0]) return fromVariants[0];
  return (await productItems(ctx, products))[0] ?? null;
}

/** What to offer for a product with variants: its variants for sale, by name. */
export async function variantsOf(ctx: Context, product: string): Promise<CatalogueItem[]> {
  const docs = await ctx.db.variants.find({ selector: { product } }).exec();
  const items = await variantItems(ctx, plain<Variant>(docs));
  return items.sort((a, b) => a.name.localeCompare(b.name));
}

export async function searchCustomers(
  ctx: Context,
  text: string,
  limit = 20,
): Promise<Array<PullDocument<'customers'>>> {
  const wanted = normalise(text);
  if (wanted === '') return [];
  const field = /^[+\d]/.test(wanted) ? 'phone_key' : 'name_key';
  const docs = await ctx.db.customers
    .find({ selector: prefixOf(field, wanted), sort: [{ [field]: 'asc' }], limit })
    .exec();
  return plain(docs);
}
