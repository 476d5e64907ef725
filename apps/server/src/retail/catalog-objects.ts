/** The catalogue's rows and the API objects made of them, with the inputs the service takes. */
import type { Currency, QuantityUnit, TaxClass } from '@tz/core';
import { unixSeconds } from '../infra/time.ts';

// ---------------------------------------------------------------- categories

export interface CategoryRow {
  id: string;
  livemode: boolean;
  name: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export const categoryObject = (row: CategoryRow) => ({
  id: row.id,
  object: 'category' as const,
  name: row.name,
  description: row.description,
  deleted: row.deleted_at !== null,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  updated: unixSeconds(row.updated_at),
});
export type CategoryObject = ReturnType<typeof categoryObject>;

export interface CategoryInput {
  name?: string | undefined;
  description?: string | null | undefined;
}

// ------------------------------------------------------------------ products

export interface VariantRow {
  id: string;
  product_id: string;
  livemode: boolean;
  name: string;
  sku: string | null;
  barcodes: string[];
  price: number;
  active: boolean;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface ProductRow {
  id: string;
  livemode: boolean;
  name: string;
  description: string | null;
  sku: string | null;
  barcodes: string[];
  price: number;
  /** What the shop pays for it; null when not known. */
  cost: number | null;
  currency: Currency;
  tax_rate: TaxClass;
  category_id: string | null;
  unit: QuantityUnit;
  track_stock: boolean;
  active: boolean;
  metadata: Record<string, string>;
  /** The item code the store's scale prints on its labels (`PLU_PATTERN`). */
  plu: string | null;
  /** Its place on the till's Favourites tiles, 1 first; null keeps it off them. */
  favourite_position: number | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export const variantObject = (row: VariantRow) => ({
  id: row.id,
  object: 'variant' as const,
  product: row.product_id,
  name: row.name,
  sku: row.sku,
  barcodes: row.barcodes,
  price: row.price,
  active: row.active,
  deleted: row.deleted_at !== null,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  updated: unixSeconds(row.updated_at),
});
export type VariantObject = ReturnType<typeof variantObject>;

/** The product with its live variants. */
export const productObject = (row: ProductRow, variants: readonly VariantRow[]) => ({
  id: row.id,
  object: 'product' as const,
  name: row.name,
  description: row.description,
  sku: row.sku,
  barcodes: row.barcodes,
  price: row.price,
  cost: row.cost,
  currency: row.currency,
  tax_rate: row.tax_rate,
  category: row.category_id,
  unit: row.unit,
  track_stock: row.track_stock,
  active: row.active,
  plu: row.plu,
  favourite_position: row.favourite_position,
  deleted: row.deleted_at !== null,
  variants: variants.filter((variant) => variant.deleted_at === null).map(variantObject),
  metadata: row.metadata,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  updated: unixSeconds(row.updated_at),
});
export type ProductObject = ReturnType<typeof productObject>;

export interface VariantInput {
  name: string;
  sku?: string | undefined;
  barcodes?: string[] | undefined;
  price?: number | undefined;
  active?: boolean | undefined;
}

export interface ProductInput {
  name: string;
  description?: string | undefined;
  sku?: string | undefined;
  barcodes?: string[] | undefined;
  price: number;
  cost?: number | undefined;
  currency: Currency;
  tax_rate: TaxClass;
  category?: string | undefined;
  unit: QuantityUnit;
  track_stock: boolean;
  active: boolean;
  variants?: VariantInput[] | undefined;
  metadata?: Record<string, string> | undefined;
  plu?: string | undefined;
  favourite_position?: number | undefined;
}

/** Every field optional; `undefined` keeps the current value. */
type Patch<T> = { [K in keyof T]?: T[K] | undefined };

export type ProductPatch = Patch<
  Omit<
    ProductInput,
    'variants' | 'sku' | 'description' | 'category' | 'plu' | 'favourite_position' | 'cost'
  > & {
    sku: string | null;
    cost: number | null;
    plu: string | null;
    favourite_position: number | null;
    description: string | null;
    category: string | null;
  }
>;

export type VariantPatch = Patch<Omit<VariantInput, 'sku'> & { sku: string | null }>;
export interface ProductFilters {
  q?: string | undefined;
  category?: string | undefined;
  store?: string | undefined;
  active?: boolean | undefined;
  include_deleted?: boolean | undefined;
}

/** `coca-cola 50` -> `coca:* & cola:* & 50:*`: every word, as a prefix. */
export function prefixQuery(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length === 0
    ? null
    : words
        .slice(0, 8)
        .map((word) => `${word}:*`)
        .join(' & ');
}
