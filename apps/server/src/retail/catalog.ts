import { AppError, newId, type Currency, type QuantityUnit, type TaxClass } from '@tz/core';
import { findOwned } from '../infra/owned.ts';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { listPage, type ListQuery } from '../db/list-page.ts';
import { recordEvent } from '../infra/events.ts';
import { unixSeconds } from '../infra/time.ts';
import { invalid, isUniqueViolation } from './shared.ts';

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

export class CatalogService {
  async createCategory(db: Queryable, tenant: Tenant, input: CategoryInput & { name: string }) {
    const inserted = await db.query<CategoryRow>(
      `INSERT INTO retail_categories (id, merchant_id, livemode, name, description) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [newId('category'), tenant.merchantId, tenant.livemode, input.name, input.description ?? null],
    );
    const object = categoryObject(inserted.rows[0]!);
    await recordEvent(db, { ...tenant, type: 'category.created', object });
    return object;
  }

  async updateCategory(db: Queryable, tenant: Tenant, id: string, input: CategoryInput) {
    const row = await lockCategory(db, tenant, id);
    if (row.deleted_at)
      throw new AppError('parameter_invalid', 'A deleted category cannot be changed', {
        details: { id: 'is deleted' },
      });
    const updated = await db.query<CategoryRow>(
      `UPDATE retail_categories SET name = $2, description = $3, updated_at = now() WHERE id = $1 RETURNING *`,
      [id, input.name ?? row.name, input.description === undefined ? row.description : input.description],
    );
    const object = categoryObject(updated.rows[0]!);
    await recordEvent(db, { ...tenant, type: 'category.updated', object });
    return object;
  }

  /** Archives the category; its products keep pointing at it, so old reports still group by it. */
  async deleteCategory(db: Queryable, tenant: Tenant, id: string) {
    const row = await lockCategory(db, tenant, id);
    if (row.deleted_at) return categoryObject(row);
    const updated = await db.query<CategoryRow>(
      `UPDATE retail_categories SET deleted_at = now(), updated_at = now() WHERE id = $1 RETURNING *`,
      [id],
    );
    const object = categoryObject(updated.rows[0]!);
    await recordEvent(db, { ...tenant, type: 'category.deleted', object });
    return object;
  }

  async retrieveCategory(db: Queryable, tenant: Tenant, id: string) {
    return categoryObject(await findOwned<CategoryRow>(db, 'retail_categories', 'category', tenant, id));
  }

  categoriesSource(tenant: Tenant, filters: { include_deleted?: boolean | undefined }) {
    let where = 'merchant_id = $1 AND livemode = $2';
    if (!filters.include_deleted) where += ' AND deleted_at IS NULL';
    return { table: 'retail_categories', where, params: [tenant.merchantId, tenant.livemode] };
  }

  async createProduct(db: Queryable, tenant: Tenant, input: ProductInput): Promise<ProductObject> {
    if (input.category !== undefined) await requireCategory(db, tenant, input.category);
    const id = newId('product');
    const inserted = await db.query<ProductRow>(
      `INSERT INTO retail_products (id, merchant_id, livemode, name, description, sku, barcodes, price, currency,
         tax_rate, category_id, unit, track_stock, active, metadata, plu, favourite_position)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING *`,
      [
        id,
        tenant.merchantId,
        tenant.livemode,
        input.name,
        input.description ?? null,
        input.sku ?? null,
        input.barcodes ?? [],
        input.price,
        input.currency,
        input.tax_rate,
        input.category ?? null,
        input.unit,
        input.track_stock,
        input.active,
        JSON.stringify(input.metadata ?? {}),
        input.plu ?? null,
        input.favourite_position ?? null,
      ],
    );
    const product = inserted.rows[0]!;
    const variants: VariantRow[] = [];
    for (const variant of input.variants ?? []) {
      const row = await db.query<VariantRow>(
        `INSERT INTO retail_variants (id, merchant_id, livemode, product_id, name, sku, barcodes, price, active)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
        [
          newId('variant'),
          tenant.merchantId,
          tenant.livemode,
          id,
          variant.name,
          variant.sku ?? null,
          variant.barcodes ?? [],
          variant.price ?? input.price,
          variant.active ?? true,
        ],
      );
      variants.push(row.rows[0]!);
    }
    // Product and variant codes are checked together, so a variant repeating the product's barcode is named.
    await claimCodes(db, tenant, [
      ...codeClaims(input, id, null, ''),
      ...(input.variants ?? []).flatMap((variant, index) =>
        codeClaims(variant, id, variants[index]!.id, `variants.${index}.`),
      ),
    ]);
    const object = productObject(product, variants);
    await recordEvent(db, { ...tenant, type: 'product.created', object });
    return object;
  }

  async updateProduct(
    db: Queryable,
    tenant: Tenant,
    id: string,
    patch: ProductPatch,
  ): Promise<ProductObject> {
    const row = await lockProduct(db, tenant, id);
    refuseDeleted(row, 'product');
    if (patch.category) await requireCategory(db, tenant, patch.category);
    const next = {
      name: patch.name ?? row.name,
      description: patch.description === undefined ? row.description : patch.description,
      sku: patch.sku === undefined ? row.sku : patch.sku,
      barcodes: patch.barcodes ?? row.barcodes,
      price: patch.price ?? row.price,
      currency: patch.currency ?? row.currency,
      tax_rate: patch.tax_rate ?? row.tax_rate,
      category: patch.category === undefined ? row.category_id : patch.category,
      unit: patch.unit ?? row.unit,
      track_stock: patch.track_stock ?? row.track_stock,
      active: patch.active ?? row.active,
      metadata: patch.metadata ?? row.metadata,
      plu: patch.plu === undefined ? row.plu : patch.plu,
      favourite_position:
        patch.favourite_position === undefined ? row.favourite_position : patch.favourite_position,
    };
    if (patch.sku !== undefined || patch.barcodes !== undefined || patch.plu !== undefined) {
      await db.query(`DELETE FROM retail_codes WHERE product_id = $1 AND variant_id IS NULL`, [id]);
      await claimCodes(
        db,
        tenant,
        codeClaims({ sku: next.sku, barcodes: next.barcodes, plu: next.plu }, id, null, ''),
      );
    }
    const updated = await db.query<ProductRow>(
      `UPDATE retail_products SET name = $2, description = $3, sku = $4, barcodes = $5, price = $6, currency = $7,
         tax_rate = $8, category_id = $9, unit = $10, track_stock = $11, active = $12, metadata = $13, plu = $14,
         favourite_position = $15, updated_at = now()
       WHERE id = $1 RETURNING *`,
      [
        id,
        next.name,
        next.description,
        next.sku,
        next.barcodes,
        next.price,
        next.currency,
        next.tax_rate,
        next.category,
        next.unit,
        next.track_stock,
        next.active,
        JSON.stringify(next.metadata),
        next.plu,
        next.favourite_position,
      ],
    );
    const object = await productWithVariants(db, updated.rows[0]!);
    await recordEvent(db, { ...tenant, type: 'product.updated', object });
    return object;
  }

  /**
   * Archives the product: it leaves the catalogue and frees its SKU and
   * barcodes, but stays readable, so past orders keep their lines.
   */
  async deleteProduct(db: Queryable, tenant: Tenant, id: string): Promise<ProductObject> {
    const row = await lockProduct(db, tenant, id);
    if (row.deleted_at) return productWithVariants(db, row);
    await db.query(`DELETE FROM retail_codes WHERE product_id = $1`, [id]);
    const updated = await db.query<ProductRow>(
      `UPDATE retail_products SET deleted_at = now(), active = false, updated_at = now() WHERE id = $1 RETURNING *`,
      [id],
    );
    const object = await productWithVariants(db, updated.rows[0]!);
    await recordEvent(db, { ...tenant, type: 'product.deleted', object });
    return object;
  }

  async retrieveProduct(db: Queryable, tenant: Tenant, id: string): Promise<ProductObject> {
    return productWithVariants(db, await findOwned<ProductRow>(db, 'retail_products', 'product', tenant, id));
  }

  /**
   * Newest first. `q` matches an exact SKU or barcode (of the product or one of
   * its variants) through the codes index; failing that, words of the name and
   * SKU by prefix through the full-text index.
   */
  async listProducts(db: Queryable, tenant: Tenant, filters: ProductFilters, query: ListQuery) {
    const params: unknown[] = [tenant.merchantId, tenant.livemode];
    let where = 'merchant_id = $1 AND livemode = $2';
    if (!filters.include_deleted) where += ' AND deleted_at IS NULL';
    if (filters.active !== undefined) where += ` AND active = $${params.push(filters.active)}`;
    if (filters.category) where += ` AND category_id = $${params.push(filters.category)}`;
    if (filters.store) {
      where += ` AND EXISTS (SELECT 1 FROM retail_stock_levels s WHERE s.product_id = retail_products.id AND s.store_id = $${params.push(filters.store)})`;
    }
    const q = filters.q?.trim();
    if (q) {
      const exact = await db.query<{ product_id: string }>(
        `SELECT DISTINCT product_id FROM retail_codes WHERE merchant_id = $1 AND livemode = $2 AND lower(code) = lower($3)`,
        [tenant.merchantId, tenant.livemode, q],
      );
      // A scanned or typed code names its item: that item alone, by btree, with no word search.
      const words = exact.rows.length > 0 ? null : prefixQuery(q);
      where += words
        ? ` AND search @@ to_tsquery('simple', $${params.push(words)})`
        : ` AND id = ANY($${params.push(exact.rows.map((row) => row.product_id))}::text[])`;
    }
    const page = await listPage(
      db,
      { table: 'retail_products', where, params },
      query,
      (row: ProductRow) => row,
    );
    const variants = await variantsOf(
      db,
      page.data.map((row) => row.id),
    );
    return { ...page, data: page.data.map((row) => productObject(row, variants.get(row.id) ?? [])) };
  }

  // ------------------------------------------------------------------ variants

  async addVariant(db: Queryable, tenant: Tenant, productId: string, input: VariantInput) {
    const product = await lockProduct(db, tenant, productId);
    refuseDeleted(product, 'product');
    const row = await insertVariant(db, tenant, product, input, '');
    await recordEvent(db, {
      ...tenant,
      type: 'product.updated',
      object: await productWithVariants(db, product),
    });
    return variantObject(row);
  }

  async updateVariant(db: Queryable, tenant: Tenant, id: string, patch: VariantPatch) {
    const row = await lockVariant(db, tenant, id);
    refuseDeleted(row, 'variant');
    const next = {
      name: patch.name ?? row.name,
      sku: patch.sku === undefined ? row.sku : patch.sku,
      barcodes: patch.barcodes ?? row.barcodes,
      price: patch.price ?? row.price,
      active: patch.active ?? row.active,
    };
    if (patch.sku !== undefined || patch.barcodes !== undefined) {
      await db.query(`DELETE FROM retail_codes WHERE variant_id = $1`, [id]);
      await claimCodes(db, tenant, codeClaims(next, row.product_id, id, ''));
    }
    const updated = await db.query<VariantRow>(
      `UPDATE retail_variants SET name = $2, sku = $3, barcodes = $4, price = $5, active = $6, updated_at = now()
       WHERE id = $1 RETURNING *`,
      [id, next.name, next.sku, next.barcodes, next.price, next.active],
    );
    await productUpdatedForVariant(db, tenant, row.product_id);
    return variantObject(updated.rows[0]!);
  }

  async deleteVariant(db: Queryable, tenant: Tenant, id: string) {
    const row = await lockVariant(db, tenant, id);
    if (row.deleted_at) return variantObject(row);
    await db.query(`DELETE FROM retail_codes WHERE variant_id = $1`, [id]);
    const updated = await db.query<VariantRow>(
      `UPDATE retail_variants SET deleted_at = now(), active = false, updated_at = now() WHERE id = $1 RETURNING *`,
      [id],
    );
    await productUpdatedForVariant(db, tenant, row.product_id);
    return variantObject(updated.rows[0]!);
  }
}

function lockCategory(db: Queryable, tenant: Tenant, id: string): Promise<CategoryRow> {
  return findOwned<CategoryRow>(db, 'retail_categories', 'category', tenant, id, { lock: true });
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
  Omit<ProductInput, 'variants' | 'sku' | 'description' | 'category' | 'plu' | 'favourite_position'> & {
    sku: string | null;
    plu: string | null;
    favourite_position: number | null;
    description: string | null;
    category: string | null;
  }
>;

export type VariantPatch = Patch<Omit<VariantInput, 'sku'> & { sku: string | null }>;

/** A SKU or barcode to register for an item, with the request field it came from. */
interface CodeClaim {
  kind: 'sku' | 'barcode' | 'plu';
  code: string;
  field: string;
  productId: string;
  variantId: string | null;
}

const codeClaims = (
  item: { sku?: string | null | undefined; barcodes?: string[] | undefined; plu?: string | null | undefined },
  productId: string,
  variantId: string | null,
  at: string,
): CodeClaim[] => [
  ...(item.sku ? [{ kind: 'sku' as const, code: item.sku, field: `${at}sku`, productId, variantId }] : []),
  ...(item.plu ? [{ kind: 'plu' as const, code: item.plu, field: `${at}plu`, productId, variantId }] : []),
  ...(item.barcodes ?? []).map((code, index) => ({
    kind: 'barcode' as const,
    code,
    field: `${at}barcodes.${index}`,
    productId,
    variantId,
  })),
];

const TAKEN = { sku: 'sku_taken', barcode: 'barcode_taken', plu: 'plu_taken' } as const;

const takenError = (claim: CodeClaim, message: string) =>
  new AppError(TAKEN[claim.kind], `${claim.field}: ${message}`, {
    details: { [claim.field]: message },
  });

/**
 * Registers SKUs and barcodes. Each names one live item of the merchant and
 * mode: a clash is a 400 naming the field (the UNIQUE index decides races).
 */
async function claimCodes(db: Queryable, tenant: Tenant, claims: readonly CodeClaim[]): Promise<void> {
  if (claims.length === 0) return;
  const seen = new Map<string, CodeClaim>();
  for (const claim of claims) {
    const key = `${claim.kind}:${claim.code.toLowerCase()}`;
    const earlier = seen.get(key);
    if (earlier) throw takenError(claim, `repeats ${earlier.field}`);
    seen.set(key, claim);
  }
  const taken = await db.query<{ kind: string; code: string }>(
    `SELECT kind, lower(code) AS code FROM retail_codes WHERE merchant_id = $1 AND livemode = $2 AND lower(code) = ANY($3::text[])`,
    [tenant.merchantId, tenant.livemode, claims.map((claim) => claim.code.toLowerCase())],
  );
  for (const row of taken.rows) {
    const claim = seen.get(`${row.kind}:${row.code}`);
    if (claim) throw takenError(claim, `is already used by another product or variant`);
  }
  try {
    await db.query(
      `INSERT INTO retail_codes (merchant_id, livemode, kind, code, product_id, variant_id)
       SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[])`,
      [
        tenant.merchantId,
        tenant.livemode,
        claims.map((claim) => claim.kind),
        claims.map((claim) => claim.code),
        claims.map((claim) => claim.productId),
        claims.map((claim) => claim.variantId),
      ],
    );
  } catch (error) {
    if (!isUniqueViolation(error, 'retail_codes_unique')) throw error;
    const kind = (['barcode', 'plu'] as const).find((k) => error.detail?.includes(`, ${k},`)) ?? 'sku';
    const claim = claims.find((c) => c.kind === kind) ?? claims[0]!;
    throw takenError(claim, 'is already used by another product or variant');
  }
}

async function requireCategory(db: Queryable, tenant: Tenant, id: string): Promise<void> {
  const found = await db.query(
    `SELECT 1 FROM retail_categories WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND deleted_at IS NULL`,
    [id, tenant.merchantId, tenant.livemode],
  );
  if (!found.rowCount) throw invalid('parameter_invalid', 'category', 'is not a category of this account');
}

async function variantsOf(db: Queryable, productIds: readonly string[]): Promise<Map<string, VariantRow[]>> {
  const byProduct = new Map<string, VariantRow[]>();
  if (productIds.length === 0) return byProduct;
  const found = await db.query<VariantRow>(
    `SELECT * FROM retail_variants WHERE product_id = ANY($1::text[]) AND deleted_at IS NULL ORDER BY seq`,
    [productIds],
  );
  for (const row of found.rows) {
    const list = byProduct.get(row.product_id) ?? [];
    list.push(row);
    byProduct.set(row.product_id, list);
  }
  return byProduct;
}

async function productWithVariants(db: Queryable, row: ProductRow): Promise<ProductObject> {
  return productObject(row, (await variantsOf(db, [row.id])).get(row.id) ?? []);
}

async function insertVariant(
  db: Queryable,
  tenant: Tenant,
  product: ProductRow,
  input: VariantInput,
  at: string,
) {
  const id = newId('variant');
  const inserted = await db.query<VariantRow>(
    `INSERT INTO retail_variants (id, merchant_id, livemode, product_id, name, sku, barcodes, price, active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
    [
      id,
      tenant.merchantId,
      tenant.livemode,
      product.id,
      input.name,
      input.sku ?? null,
      input.barcodes ?? [],
      input.price ?? product.price,
      input.active ?? true,
    ],
  );
  await claimCodes(db, tenant, codeClaims(input, product.id, id, at));
  return inserted.rows[0]!;
}

function lockProduct(db: Queryable, tenant: Tenant, id: string): Promise<ProductRow> {
  return findOwned<ProductRow>(db, 'retail_products', 'product', tenant, id, { lock: true });
}

const refuseDeleted = (row: { deleted_at: Date | null }, what: string) => {
  if (row.deleted_at) {
    throw new AppError('parameter_invalid', `A deleted ${what} cannot be changed`, {
      details: { id: 'is deleted' },
    });
  }
};

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

function lockVariant(db: Queryable, tenant: Tenant, id: string): Promise<VariantRow> {
  return findOwned<VariantRow>(db, 'retail_variants', 'variant', tenant, id, { lock: true });
}

async function productUpdatedForVariant(db: Queryable, tenant: Tenant, productId: string) {
  const product = await db.query<ProductRow>(`SELECT * FROM retail_products WHERE id = $1`, [productId]);
  await recordEvent(db, {
    ...tenant,
    type: 'product.updated',
    object: await productWithVariants(db, product.rows[0]!),
  });
}
