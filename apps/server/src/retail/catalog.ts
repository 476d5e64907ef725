/** The catalogue's writes and reads: categories, products and their variants, each write with its event. */
import { AppError, newId } from '@tz/core';
import { findOwned } from '../infra/owned.ts';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { listPage, type ListQuery } from '../db/list-page.ts';
import { recordEvent } from '../infra/events.ts';
import { invalid } from './shared.ts';
import { claimCodes, codeClaims } from './catalog-codes.ts';
import {
  categoryObject,
  productObject,
  prefixQuery,
  variantObject,
  type CategoryInput,
  type CategoryRow,
  type ProductFilters,
  type ProductInput,
  type ProductObject,
  type ProductPatch,
  type ProductRow,
  type VariantInput,
  type VariantPatch,
  type VariantRow,
} from './catalog-objects.ts';

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
         tax_rate, category_id, unit, track_stock, active, metadata, plu, favourite_position, cost)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING *`,
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
        input.cost ?? null,
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
      cost: patch.cost === undefined ? row.cost : patch.cost,
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
         favourite_position = $15, cost = $16, updated_at = now()
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
        next.cost,
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
