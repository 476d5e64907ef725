/**
 * The catalogue as a CSV file (docs/RETAIL.md, "Catalogue CSV"): import and
 * export. Core reads and checks the file (`readCatalogueCsv`); here each row is
 * matched with the catalogue (by SKU, then barcode, then name when the row has
 * no code), checked against codes other products hold, and applied through the
 * catalogue's own writes, each with its event, in the request's one
 * transaction: every row or none. A row that changes nothing writes nothing,
 * so the same file twice changes nothing the second time.
 */
import {
  AppError,
  csvErrorDetails,
  readCatalogueCsv,
  writeCatalogueCsv,
  type CatalogueProductRow,
  type CatalogueVariantRow,
  type CsvRowError,
} from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import type { CatalogService } from './catalog.ts';
import type { ProductPatch, ProductRow, VariantPatch, VariantRow } from './catalog-objects.ts';

export interface CatalogueImport {
  object: 'product_import';
  /** Products and variants read from the file. */
  rows: number;
  created: number;
  updated: number;
  archived: number;
  unchanged: number;
  categories_created: number;
}

/** What the catalogue holds of the file's codes and names. */
interface Known {
  /** lower(code) -> its holder. */
  codes: Map<string, { kind: string; product: string; variant: string | null }>;
  products: Map<string, ProductRow>;
  variants: Map<string, VariantRow[]>;
  /** lower(name) -> ids of live products of that name. */
  names: Map<string, string[]>;
  /** lower(name) -> id of a live category. */
  categories: Map<string, string>;
}

type Plan =
  | { kind: 'create'; row: CatalogueProductRow }
  | { kind: 'archive'; row: CatalogueProductRow; product: ProductRow }
  | { kind: 'update'; row: CatalogueProductRow; product: ProductRow }
  | { kind: 'skip' };

const lower = (value: string) => value.toLowerCase();

export function importFailure(errors: readonly CsvRowError[]): AppError {
  const rows = new Set(errors.map((error) => error.row)).size;
  return new AppError(
    'parameter_invalid',
    `The file has ${errors.length} problem(s) in ${rows} row(s); nothing was imported`,
    { details: csvErrorDetails(errors) },
  );
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

export class CatalogueFile {
  constructor(private readonly catalog: CatalogService) {}

  async importCsv(db: Queryable, tenant: Tenant, text: string): Promise<CatalogueImport> {
    const file = readCatalogueCsv(text);
    if (file.errors.length > 0) throw importFailure(file.errors);
    const known = await this.known(db, tenant, file.products);
    const errors: CsvRowError[] = [];
    const plans = this.plan(file.products, known, errors);
    if (errors.length > 0) throw importFailure(errors);
    const result: CatalogueImport = {
      object: 'product_import',
      rows: file.products.reduce((sum, product) => sum + 1 + product.variants.length, 0),
      created: 0,
      updated: 0,
      archived: 0,
      unchanged: 0,
      categories_created: 0,
    };
    for (const plan of plans) {
      if (plan.kind === 'skip') {
        result.unchanged += 1;
        continue;
      }
      try {
        const outcome = await this.apply(db, tenant, plan, known, result);
        result[outcome] += 1;
      } catch (error) {
        throw rowFailure(error, plan.row);
      }
    }
    return result;
  }

  /** Every live product and variant, in the order they were made, with their category's name. */
  async exportCsv(db: Queryable, tenant: Tenant): Promise<string> {
    const products = await db.query<ProductRow & { category_name: string | null }>(
      `SELECT p.*, c.name AS category_name FROM retail_products p
         LEFT JOIN retail_categories c ON c.id = p.category_id
        WHERE p.merchant_id = $1 AND p.livemode = $2 AND p.deleted_at IS NULL ORDER BY p.seq`,
      [tenant.merchantId, tenant.livemode],
    );
    const variants = await db.query<VariantRow>(
      `SELECT * FROM retail_variants WHERE merchant_id = $1 AND livemode = $2 AND deleted_at IS NULL ORDER BY seq`,
      [tenant.merchantId, tenant.livemode],
    );
    const byProduct = groupVariants(variants.rows);
    return writeCatalogueCsv(
      products.rows.map((row) => ({
        ...row,
        category: row.category_name,
        variants: byProduct.get(row.id) ?? [],
      })),
    );
  }

  private async known(db: Queryable, tenant: Tenant, rows: readonly CatalogueProductRow[]): Promise<Known> {
    const wanted = new Set<string>();
    for (const item of rows.flatMap((row) => [row, ...row.variants])) {
      if (item.sku) wanted.add(lower(item.sku));
      for (const code of item.barcodes ?? []) wanted.add(lower(code));
    }
    for (const row of rows) if (row.plu) wanted.add(row.plu);
    const tenancy = [tenant.merchantId, tenant.livemode];
    const codes = await db.query<{
      kind: string;
      code: string;
      product_id: string;
      variant_id: string | null;
    }>(
      `SELECT kind, lower(code) AS code, product_id, variant_id FROM retail_codes
        WHERE merchant_id = $1 AND livemode = $2 AND lower(code) = ANY($3::text[])`,
      [...tenancy, [...wanted]],
    );
    const named = await db.query<{ id: string; name: string }>(
      `SELECT id, lower(name) AS name FROM retail_products
        WHERE merchant_id = $1 AND livemode = $2 AND deleted_at IS NULL AND lower(name) = ANY($3::text[])`,
      [...tenancy, rows.map((row) => lower(row.name))],
    );
    const ids = [
      ...new Set([...codes.rows.map((row) => row.product_id), ...named.rows.map((row) => row.id)]),
    ];
    const products = await db.query<ProductRow>(
      `SELECT * FROM retail_products WHERE id = ANY($1::text[]) AND deleted_at IS NULL`,
      [ids],
    );
    const variants = await db.query<VariantRow>(
      `SELECT * FROM retail_variants WHERE product_id = ANY($1::text[]) AND deleted_at IS NULL ORDER BY seq`,
      [ids],
    );
    const categories = await db.query<{ id: string; name: string }>(
      `SELECT id, lower(name) AS name FROM retail_categories
        WHERE merchant_id = $1 AND livemode = $2 AND deleted_at IS NULL ORDER BY seq DESC`,
      tenancy,
    );
    const names = new Map<string, string[]>();
    for (const row of named.rows) names.set(row.name, [...(names.get(row.name) ?? []), row.id]);
    return {
      codes: new Map(
        codes.rows.map((row) => [
          `${row.kind === 'plu' ? 'plu' : 'code'}:${row.code}`,
          { kind: row.kind, product: row.product_id, variant: row.variant_id },
        ]),
      ),
      products: new Map(products.rows.map((row) => [row.id, row])),
      variants: groupVariants(variants.rows),
      names,
      categories: new Map(categories.rows.map((row) => [row.name, row.id])),
    };
  }

  /** Matches each row with its product and names every code another product holds. */
  private plan(rows: readonly CatalogueProductRow[], known: Known, errors: CsvRowError[]): Plan[] {
    const taken = new Map<string, number>();
    return rows.map((row): Plan => {
      const holder = (code: string) => known.codes.get(`code:${lower(code)}`);
      const bySku = row.sku ? holder(row.sku) : undefined;
      const byBarcode = (row.barcodes ?? []).map(holder).find((found) => found && !found.variant);
      let productId = bySku && !bySku.variant ? bySku.product : byBarcode?.product;
      if (bySku && !bySku.variant && byBarcode && byBarcode.product !== bySku.product)
        errors.push({ row: row.row, column: 'barcodes', problem: 'codes_disagree' });
      if (!productId && !row.sku && (row.barcodes ?? []).length === 0) {
        const sameName = known.names.get(lower(row.name)) ?? [];
        if (sameName.length > 1) errors.push({ row: row.row, column: 'name', problem: 'name_ambiguous' });
        productId = sameName.length === 1 ? sameName[0] : undefined;
      }
      const product = productId ? known.products.get(productId) : undefined;
      if (product) {
        const earlier = taken.get(product.id);
        if (earlier !== undefined)
          errors.push({ row: row.row, column: 'name', problem: 'repeats', params: { row: earlier } });
        taken.set(product.id, row.row);
      }
      if (row.archived) return product ? { kind: 'archive', row, product } : { kind: 'skip' };
      const owned = (
        found: { product: string; variant: string | null } | undefined,
        variant: string | null,
      ) => !found || (found.product === product?.id && found.variant === variant);
      if (row.sku && !owned(holder(row.sku), null))
        errors.push({ row: row.row, column: 'sku', problem: 'code_taken' });
      if ((row.barcodes ?? []).some((code) => !owned(holder(code), null)))
        errors.push({ row: row.row, column: 'barcodes', problem: 'code_taken' });
      if (row.plu && !owned(known.codes.get(`plu:${row.plu}`), null))
        errors.push({ row: row.row, column: 'plu', problem: 'code_taken' });
      for (const variant of row.variants) {
        if (variant.archived) continue;
        const match = product
          ? matchVariant(variant, known.variants.get(product.id) ?? [], known)
          : undefined;
        const mine = match?.id ?? null;
        if (variant.sku && !owned(holder(variant.sku), mine))
          errors.push({ row: variant.row, column: 'sku', problem: 'code_taken' });
        if ((variant.barcodes ?? []).some((code) => !owned(holder(code), mine)))
          errors.push({ row: variant.row, column: 'barcodes', problem: 'code_taken' });
      }
      return product ? { kind: 'update', row, product } : { kind: 'create', row };
    });
  }

  private async apply(
    db: Queryable,
    tenant: Tenant,
    plan: Exclude<Plan, { kind: 'skip' }>,
    known: Known,
    result: CatalogueImport,
  ): Promise<'created' | 'updated' | 'archived' | 'unchanged'> {
    const { row } = plan;
    if (plan.kind === 'archive') {
      await this.catalog.deleteProduct(db, tenant, plan.product.id);
      return 'archived';
    }
    const category = await this.categoryId(db, tenant, row.category, known, result);
    if (plan.kind === 'create') {
      await this.catalog.createProduct(db, tenant, {
        name: row.name,
        description: row.description ?? undefined,
        sku: row.sku ?? undefined,
        barcodes: row.barcodes ?? [],
        price: row.price,
        cost: row.cost ?? undefined,
        currency: 'TZS',
        tax_rate: row.tax_rate ?? 'standard',
        category: category ?? undefined,
        unit: row.unit ?? 'piece',
        track_stock: row.track_stock ?? true,
        active: row.active ?? true,
        plu: row.plu ?? undefined,
        favourite_position: row.favourite_position ?? undefined,
        variants: row.variants
          .filter((variant) => !variant.archived)
          .map((variant) => ({
            name: variant.name,
            sku: variant.sku ?? undefined,
            barcodes: variant.barcodes ?? [],
            price: variant.price,
            active: variant.active,
          })),
      });
      return 'created';
    }
    const patch = productPatch(row, plan.product, category);
    let changed = Object.keys(patch).length > 0;
    if (changed) await this.catalog.updateProduct(db, tenant, plan.product.id, patch);
    for (const variant of row.variants) {
      const existing = known.variants.get(plan.product.id) ?? [];
      const match = matchVariant(variant, existing, known);
      if (variant.archived) {
        if (!match) continue;
        await this.catalog.deleteVariant(db, tenant, match.id);
      } else if (!match) {
        await this.catalog.addVariant(db, tenant, plan.product.id, {
          name: variant.name,
          sku: variant.sku ?? undefined,
          barcodes: variant.barcodes ?? [],
          price: variant.price ?? row.price,
          active: variant.active,
        });
      } else {
        const variantChanges = variantPatch(variant, match);
        if (Object.keys(variantChanges).length === 0) continue;
        await this.catalog.updateVariant(db, tenant, match.id, variantChanges);
      }
      changed = true;
    }
    return changed ? 'updated' : 'unchanged';
  }

  /** The category of that name, made when the catalogue has none yet. */
  private async categoryId(
    db: Queryable,
    tenant: Tenant,
    name: string | null | undefined,
    known: Known,
    result: CatalogueImport,
  ): Promise<string | null | undefined> {
    if (!name) return name;
    const found = known.categories.get(lower(name));
    if (found) return found;
    const made = await this.catalog.createCategory(db, tenant, { name });
    known.categories.set(lower(name), made.id);
    result.categories_created += 1;
    return made.id;
  }
}

function groupVariants(rows: readonly VariantRow[]): Map<string, VariantRow[]> {
  const byProduct = new Map<string, VariantRow[]>();
  for (const row of rows) byProduct.set(row.product_id, [...(byProduct.get(row.product_id) ?? []), row]);
  return byProduct;
}

/** A variant of the product by its SKU or barcode, else by its name. */
function matchVariant(row: CatalogueVariantRow, variants: readonly VariantRow[], known: Known) {
  const codes = [row.sku, ...(row.barcodes ?? [])].filter((code): code is string => !!code);
  for (const code of codes) {
    const holder = known.codes.get(`code:${lower(code)}`);
    const found = holder?.variant && variants.find((variant) => variant.id === holder.variant);
    if (found) return found;
  }
  return variants.find((variant) => lower(variant.name) === lower(row.name));
}

/** The fields the row changes: a column the file lacks, or a value already there, is left out. */
function productPatch(row: CatalogueProductRow, product: ProductRow, category: string | null | undefined) {
  const patch: ProductPatch = {};
  const set = <K extends keyof ProductPatch>(key: K, next: ProductPatch[K] | undefined, now: unknown) => {
    if (next !== undefined && next !== now) patch[key] = next;
  };
  set('name', row.name, product.name);
  set('sku', row.sku, product.sku);
  if (row.barcodes && !sameList(row.barcodes, product.barcodes)) patch.barcodes = row.barcodes;
  set('price', row.price, product.price);
  set('cost', row.cost, product.cost);
  set('category', category, product.category_id);
  set('unit', row.unit, product.unit);
  set('tax_rate', row.tax_rate, product.tax_rate);
  set('track_stock', row.track_stock, product.track_stock);
  set('active', row.active, product.active);
  set('favourite_position', row.favourite_position, product.favourite_position);
  set('plu', row.plu, product.plu);
  set('description', row.description, product.description);
  return patch;
}

function variantPatch(row: CatalogueVariantRow, variant: VariantRow) {
  const patch: VariantPatch = {};
  if (row.name !== variant.name) patch.name = row.name;
  if (row.sku !== undefined && row.sku !== variant.sku) patch.sku = row.sku;
  if (row.barcodes && !sameList(row.barcodes, variant.barcodes)) patch.barcodes = row.barcodes;
  if (row.price !== undefined && row.price !== variant.price) patch.price = row.price;
  if (row.active !== undefined && row.active !== variant.active) patch.active = row.active;
  return patch;
}

/** A write the catalogue refused, named by the row and column it came from (`variants.1.sku` is the second variant's row). */
function rowFailure(error: unknown, row: CatalogueProductRow): unknown {
  if (!(error instanceof AppError) || !['sku_taken', 'barcode_taken', 'plu_taken'].includes(error.code))
    return error;
  const field = Object.keys(error.details ?? {})[0] ?? '';
  const variant = /^variants\.(\d+)\.(\w+)/.exec(field);
  const at = variant ? row.variants.filter((v) => !v.archived)[Number(variant[1])] : undefined;
  const column = (variant ? variant[2] : field.split('.')[0]) ?? '';
  return importFailure([{ row: at?.row ?? row.row, column, problem: 'code_taken' }]);
}
