/**
 * Finding what to sell. Every lookup reads an index (name, SKU and barcode
 * keys added by `toLocal`), never a scan, so search stays quick with 100,000
 * products on the till.
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

const prefixOf = (field: string, text: string): MangoQuerySelector<Record<string, unknown>> => ({
  [field]: { $gte: text, $lt: `${text}\uffff` },
});

async function onHand(ctx: Context, product: Product, variant: Variant | null): Promise<number | null> {
  if (!product.track_stock) return null;
  const till = (await device(ctx))?.till;
  if (!till) return null;
  const level = await ctx.db.stock_levels
    .findOne({ selector: { product: product.id, variant_key: variant?.id ?? '', store: till.store } })
    .exec();
  return level ? (level.toJSON() as unknown as PullDocument<'stock_levels'>).on_hand_milli : null;
}

async function toItem(ctx: Context, doc: Record<string, unknown>, isVariant: boolean) {
  if (!isVariant) {
    const product = doc as unknown as Product;
    return product.active ? catalogueItem(product, null, await onHand(ctx, product, null)) : null;
  }
  const variant = doc as unknown as Variant;
  const parent = await ctx.db.products.findOne(variant.product).exec();
  if (!parent || !variant.active) return null;
  const product = parent.toJSON() as unknown as Product;
  return product.active ? catalogueItem(product, variant, await onHand(ctx, product, variant)) : null;
}

export async function search(ctx: Context, text: string, limit = 50): Promise<CatalogueItem[]> {
  const wanted = normalise(text);
  if (wanted === '') return [];
  const raw = text.trim();
  const found = new Map<string, CatalogueItem>();
  const lookups: Array<[keyof typeof ctx.db.collections & ('products' | 'variants'), string, string]> = [];
  for (const collection of ['products', 'variants'] as const) {
    lookups.push(
      [collection, 'name_key', wanted],
      [collection, 'sku_key', wanted],
      [collection, 'barcode0', raw],
    );
  }
  for (const [collection, field, value] of lookups) {
    if (found.size >= limit) break;
    const docs = await ctx.db[collection]
      .find({ selector: prefixOf(field, value), sort: [{ [field]: 'asc' }], limit })
      .exec();
    for (const doc of docs) {
      const result = await toItem(ctx, doc.toJSON(), collection === 'variants');
      if (result) found.set(`${result.productId}/${result.variantId ?? ''}`, result);
      if (found.size >= limit) break;
    }
  }
  return [...found.values()].slice(0, limit);
}

/** The product or variant with exactly this barcode (a variant's wins over its product's). */
export async function findByBarcode(ctx: Context, code: string): Promise<CatalogueItem | null> {
  const barcode = code.trim();
  if (barcode === '') return null;
  for (const collection of ['variants', 'products'] as const) {
    for (let slot = 0; slot < INDEXED_BARCODES; slot++) {
      const docs = await ctx.db[collection].find({ selector: { [`barcode${slot}`]: barcode } }).exec();
      for (const doc of docs) {
        const result = await toItem(ctx, doc.toJSON(), collection === 'variants');
        if (result) return result;
      }
    }
    // The rare product with more barcodes than are indexed: only those are read.
    const many = await ctx.db[collection].find({ selector: { more_barcodes: true } }).exec();
    for (const doc of many) {
      const data = doc.toJSON() as Record<string, unknown>;
      if (!(data.barcodes as string[]).includes(barcode)) continue;
      const result = await toItem(ctx, data, collection === 'variants');
      if (result) return result;
    }
  }
  return null;
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
  return docs.map((doc) => doc.toJSON() as unknown as PullDocument<'customers'>);
}
