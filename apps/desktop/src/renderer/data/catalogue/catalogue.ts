/**
 * Finding what to sell, from the catalogue in memory (`catalogue-index.ts`):
 * a search walks its sorted name, SKU and barcode keys, a scan reads its
 * barcode map, and neither touches storage (only a search result with
 * tracked stock reads its stock level, to show it; a scan's item goes into
 * the cart, which shows none, so a scan is answered without waiting). A
 * lookup made before the catalogue is in memory waits for it to be read (it
 * is started then if it was not yet), except a scan the snapshot of barcodes
 * can answer.
 *
 * A product with variants is sold only as one of them (the server records
 * such a product sold as itself as `product_unavailable`): its item says
 * `hasVariants` and `variantsOf` lists what to offer instead.
 */
import type { MangoQuerySelector } from 'rxdb';
import type { PullDocument, ScaleLabel } from '@tz/core';
import type { CatalogueItem } from '../api.ts';
import { catalogueItem } from './catalogue-item.ts';
import type { EarlyFound } from './catalogue-snapshot.ts';
import { device } from '../store/context.ts';
import type { Context } from '../store/context.ts';
import { normalise } from '../store/schema.ts';
import { labelProducts, readLabel } from './scale-labels.ts';

type Product = PullDocument<'products'>;
type Variant = PullDocument<'variants'>;

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

function productItems(ctx: Context, products: Product[]): Promise<CatalogueItem[]> {
  return Promise.all(
    products
      .filter((product) => product.active)
      .map(async (product) =>
        catalogueItem(
          product,
          null,
          await onHand(ctx, product, null),
          ctx.catalogue.hasVariants(product.id) === true,
        ),
      ),
  );
}

/** The active variants of active products, as items. */
async function variantItems(ctx: Context, variants: Variant[]): Promise<CatalogueItem[]> {
  const items = await Promise.all(
    variants.map(async (variant) => {
      const parent = ctx.catalogue.product(variant.product);
      if (!variant.active || !parent?.active) return null;
      return catalogueItem(parent, variant, await onHand(ctx, parent, variant));
    }),
  );
  return items.filter((item): item is CatalogueItem => item !== null);
}

export async function search(ctx: Context, text: string, limit = 50): Promise<CatalogueItem[]> {
  const wanted = normalise(text);
  if (wanted === '') return [];
  await ctx.catalogue.ready();
  const found = ctx.catalogue.search(wanted, text.trim(), limit);
  if (!found) return [];
  const [fromProducts, fromVariants] = await Promise.all([
    productItems(ctx, found.products),
    variantItems(ctx, found.variants),
  ]);
  return [...fromProducts, ...fromVariants];
}

/**
 * The first active variant of an active product, else the first active product, of those found.
 * An item found by barcode goes straight into the cart, which shows no stock, so no stock level
 * is read: that keeps a scan free of storage reads.
 */
function barcodeItem(found: EarlyFound): CatalogueItem | null {
  for (const { variant, parent } of found.variants) {
    if (variant.active && parent?.active) return catalogueItem(parent, variant, null);
  }
  for (const { product, hasVariants } of found.products) {
    if (product.active) return catalogueItem(product, null, null, hasVariants);
  }
  return null;
}

/** What the catalogue in memory holds for a barcode (a variant's wins over its product's). */
function inMemory(ctx: Context, barcode: string): EarlyFound {
  const found = ctx.catalogue.withBarcode(barcode);
  return {
    variants: (found?.variants ?? []).map((variant) => ({
      variant,
      parent: ctx.catalogue.product(variant.product) ?? null,
    })),
    products: (found?.products ?? []).map((product) => ({
      product,
      hasVariants: ctx.catalogue.hasVariants(product.id) === true,
    })),
  };
}

/**
 * The product or variant with exactly this barcode, without waiting: `undefined` while the
 * catalogue is not in memory yet (then `findByBarcode` answers). A scan answered here is on
 * screen in the frame after its Enter.
 */
export function findByBarcodeNow(ctx: Context, code: string): CatalogueItem | null | undefined {
  const barcode = code.trim();
  if (barcode === '') return null;
  return ctx.catalogue.isBuilt() ? barcodeItem(inMemory(ctx, barcode)) : undefined;
}

/**
 * The product or variant with exactly this barcode. Before the catalogue is in memory, the
 * snapshot of its barcodes answers when it can (`catalogue-snapshot.ts`), so a scan at once
 * after opening does not wait for the whole catalogue.
 */
export async function findByBarcode(ctx: Context, code: string): Promise<CatalogueItem | null> {
  const barcode = code.trim();
  if (barcode === '') return null;
  if (!ctx.catalogue.isBuilt()) {
    const early = await ctx.catalogue.early(barcode);
    if (early) return barcodeItem(early);
  }
  await ctx.catalogue.ready();
  return barcodeItem(inMemory(ctx, barcode));
}

/** A scan's find: the item, and the scale label it was read from, if it was one. */
export interface Scanned {
  item: CatalogueItem;
  label: ScaleLabel | null;
}

/** The active product a scale label names, as the store's format matches it (in memory). */
function labelItem(ctx: Context, code: string): Scanned | null {
  const format = ctx.scale.current();
  const label = readLabel(code, format);
  if (!label) return null;
  const product = (labelProducts(ctx.catalogue, label, format) ?? []).find((found) => found.active);
  if (!product) return null;
  return { item: catalogueItem(product, null, null, ctx.catalogue.hasVariants(product.id) === true), label };
}

/**
 * What a scanned code sells, without waiting: the item with exactly this barcode, else the
 * product a scale label names (`scale-labels.ts`); `undefined` while the catalogue is not in
 * memory. Refused (`scale_label_unreadable`) for a label whose check digits are wrong.
 */
export function scanNow(ctx: Context, code: string): Scanned | null | undefined {
  const barcode = code.trim();
  if (barcode === '') return null;
  if (!ctx.catalogue.isBuilt()) return undefined;
  const item = barcodeItem(inMemory(ctx, barcode));
  return item ? { item, label: null } : labelItem(ctx, barcode);
}

/** What a scanned code sells; before the catalogue is in memory the snapshot answers a plain barcode it knows. */
export async function scan(ctx: Context, code: string): Promise<Scanned | null> {
  const barcode = code.trim();
  if (barcode === '') return null;
  if (!ctx.catalogue.isBuilt()) {
    const early = await ctx.catalogue.early(barcode);
    const item = early ? barcodeItem(early) : null;
    if (item) return { item, label: null };
  }
  await ctx.catalogue.ready();
  return scanNow(ctx, barcode) ?? null;
}

/** Whether a code sells something, from memory: a barcode, or a readable scale label of a known product. */
export function knownNow(ctx: Context, code: string): boolean {
  try {
    return scanNow(ctx, code) != null;
  } catch {
    return false;
  }
}

/** What to offer for a product with variants: its variants for sale, by name. */
export async function variantsOf(ctx: Context, product: string): Promise<CatalogueItem[]> {
  await ctx.catalogue.ready();
  const items = await variantItems(ctx, ctx.catalogue.variantsOfProduct(product) ?? []);
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
