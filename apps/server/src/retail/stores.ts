import {
  AppError,
  bareStore,
  DEFAULT_ACCOUNT_LANGUAGE,
  newId,
  notFound,
  storePrefixFor,
  type Currency,
  type ReceiptLanguage,
  type ScaleBarcodeFormat,
  type StoreSettings,
  type VatRegion,
} from '@tz/core';
import type { Tenant } from '../actor.ts';
import type { Queryable } from '../db/database.ts';
import { recordEvent } from '../infra/events.ts';
import { findOwned } from '../infra/owned.ts';
import { unixSeconds } from '../infra/time.ts';
import { invalid } from './shared.ts';

export interface StoreRow extends StoreSettings {
  id: string;
  merchant_id: string;
  livemode: boolean;
  currency: Currency;
  is_default: boolean;
  receipt_prefix: string;
  scale_barcodes: ScaleBarcodeFormat;
  created_at: Date;
  updated_at: Date;
}

export const storeObject = (row: StoreRow) => ({
  id: row.id,
  object: 'store' as const,
  name: row.name,
  address_lines: row.address_lines,
  phone: row.phone,
  tin: row.tin,
  vrn: row.vrn,
  vat_region: row.vat_region,
  currency: row.currency,
  receipt_header: row.receipt_header,
  receipt_footer: row.receipt_footer,
  receipt_language: row.receipt_language,
  default: row.is_default,
  receipt_prefix: row.receipt_prefix,
  scale_barcodes: row.scale_barcodes,
  livemode: row.livemode,
  created: unixSeconds(row.created_at),
  updated: unixSeconds(row.updated_at),
});
export type StoreObject = ReturnType<typeof storeObject>;

export interface StoreInput {
  name?: string | undefined;
  address_lines?: string[] | undefined;
  phone?: string | null | undefined;
  tin?: string | null | undefined;
  vrn?: string | null | undefined;
  vat_region?: VatRegion | undefined;
  currency?: Currency | undefined;
  receipt_header?: string[] | undefined;
  receipt_footer?: string[] | undefined;
  receipt_language?: ReceiptLanguage | undefined;
  default?: boolean | undefined;
  scale_barcodes?: ScaleBarcodeFormat | undefined;
}

/** The sequence numbering the store's server-given receipts; the name comes from a generated id, never from input. */
export function receiptSequenceName(storeId: string): string {
  if (!/^store_[0-9a-z]+$/.test(storeId))
    throw new AppError('internal_error', `unexpected store id ${storeId}`);
  return `retail_receipts_${storeId}`;
}

/**
 * Store creation is rare: one lock per merchant keeps prefixes and the default store unique without retries.
 * The business's name and language, which a new store starts from.
 */
export async function lockMerchant(
  db: Queryable,
  tenant: Tenant,
): Promise<{ business_name: string; default_language: ReceiptLanguage }> {
  const found = await db.query<{ business_name: string; default_language: ReceiptLanguage }>(
    `SELECT business_name, default_language FROM merchants WHERE id = $1 FOR NO KEY UPDATE`,
    [tenant.merchantId],
  );
  return found.rows[0] ?? { business_name: 'Store', default_language: DEFAULT_ACCOUNT_LANGUAGE };
}

/** A new store, its receipts in `language` (the business's) unless the input names one. */
async function insertStore(
  db: Queryable,
  tenant: Tenant,
  input: StoreInput & { name: string },
  language: ReceiptLanguage,
): Promise<StoreRow> {
  const counts = await db.query<{ next: number; defaults: number }>(
    `SELECT coalesce(max(substring(receipt_prefix from 2)::int), 0) + 1 AS next, count(*) FILTER (WHERE is_default) AS defaults
     FROM retail_stores WHERE merchant_id = $1 AND livemode = $2`,
    [tenant.merchantId, tenant.livemode],
  );
  const { next, defaults } = counts.rows[0]!;
  const makeDefault = input.default === true || Number(defaults) === 0;
  const bare = bareStore(input.name);
  if (makeDefault) await clearDefault(db, tenant);
  const inserted = await db.query<StoreRow>(
    `INSERT INTO retail_stores (id, merchant_id, livemode, name, address_lines, phone, tin, vrn, vat_region, currency,
       receipt_header, receipt_footer, receipt_language, is_default, receipt_prefix)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING *`,
    [
      newId('store'),
      tenant.merchantId,
      tenant.livemode,
      input.name,
      JSON.stringify(input.address_lines ?? bare.address_lines),
      input.phone ?? bare.phone,
      input.tin ?? bare.tin,
      input.vrn ?? bare.vrn,
      input.vat_region ?? bare.vat_region,
      input.currency ?? bare.currency,
      JSON.stringify(input.receipt_header ?? bare.receipt_header),
      JSON.stringify(input.receipt_footer ?? bare.receipt_footer),
      input.receipt_language ?? language,
      makeDefault,
      storePrefixFor(Number(next)),
    ],
  );
  const row = await setScaleBarcodes(db, inserted.rows[0]!, input.scale_barcodes);
  await db.query(`CREATE SEQUENCE ${receiptSequenceName(row.id)} AS bigint MINVALUE 1`);
  await recordEvent(db, { ...tenant, type: 'store.created', object: storeObject(row) });
  return row;
}

/** How the store's scale labels read (docs/RETAIL.md, "Scale labels"); left out, it stays as it is. */
async function setScaleBarcodes(
  db: Queryable,
  row: StoreRow,
  format: ScaleBarcodeFormat | undefined,
): Promise<StoreRow> {
  if (format === undefined) return row;
  const updated = await db.query<StoreRow>(
    `UPDATE retail_stores SET scale_barcodes = $2 WHERE id = $1 RETURNING *`,
    [row.id, JSON.stringify(format)],
  );
  return updated.rows[0]!;
}

async function clearDefault(db: Queryable, tenant: Tenant): Promise<void> {
  await db.query(
    `UPDATE retail_stores SET is_default = false, updated_at = now() WHERE merchant_id = $1 AND livemode = $2 AND is_default`,
    [tenant.merchantId, tenant.livemode],
  );
}

export class StoreService {
  /** A new store; the merchant's first store becomes the default one. */
  async create(db: Queryable, tenant: Tenant, input: StoreInput & { name: string }) {
    const merchant = await lockMerchant(db, tenant);
    return storeObject(await insertStore(db, tenant, input, merchant.default_language));
  }

  /** The default store, without creating one. */
  async existingDefault(db: Queryable, tenant: Tenant): Promise<StoreRow> {
    const found = await db.query<StoreRow>(
      `SELECT * FROM retail_stores WHERE merchant_id = $1 AND livemode = $2 AND is_default`,
      [tenant.merchantId, tenant.livemode],
    );
    if (!found.rows[0]) throw notFound('store', 'default');
    return found.rows[0];
  }

  async retrieve(db: Queryable, tenant: Tenant, id: string) {
    return storeObject(await findOwned<StoreRow>(db, 'retail_stores', 'store', tenant, id));
  }

  async update(db: Queryable, tenant: Tenant, id: string, input: StoreInput) {
    const row = await findOwned<StoreRow>(db, 'retail_stores', 'store', tenant, id, { lock: true });
    return applyUpdate(db, tenant, row, input);
  }

  async updateDefault(db: Queryable, tenant: Tenant, input: StoreInput) {
    const store = await defaultStore(db, tenant);
    const row = await findOwned<StoreRow>(db, 'retail_stores', 'store', tenant, store.id, { lock: true });
    return applyUpdate(db, tenant, row, input);
  }

  listSource(tenant: Tenant) {
    return {
      table: 'retail_stores',
      where: 'merchant_id = $1 AND livemode = $2',
      params: [tenant.merchantId, tenant.livemode],
    };
  }
}

/** The merchant's default store, created (named after the business) on first use. */
export async function defaultStore(db: Queryable, tenant: Tenant): Promise<StoreRow> {
  const found = await db.query<StoreRow>(
    `SELECT * FROM retail_stores WHERE merchant_id = $1 AND livemode = $2 AND is_default`,
    [tenant.merchantId, tenant.livemode],
  );
  if (found.rows[0]) return found.rows[0];
  const merchant = await lockMerchant(db, tenant);
  const again = await db.query<StoreRow>(
    `SELECT * FROM retail_stores WHERE merchant_id = $1 AND livemode = $2 AND is_default`,
    [tenant.merchantId, tenant.livemode],
  );
  return (
    again.rows[0] ??
    insertStore(db, tenant, { name: merchant.business_name.slice(0, 200) }, merchant.default_language)
  );
}

async function findStore(
  db: Queryable,
  tenant: Tenant,
  id: string,
  lock = false,
): Promise<StoreRow | undefined> {
  const found = await db.query<StoreRow>(
    `SELECT * FROM retail_stores WHERE id = $1 AND merchant_id = $2 AND livemode = $3${lock ? ' FOR UPDATE' : ''}`,
    [id, tenant.merchantId, tenant.livemode],
  );
  return found.rows[0];
}

/** The store a request names in its body (400 when unknown), or the default store. */
export async function storeForRequest(
  db: Queryable,
  tenant: Tenant,
  id: string | undefined,
  field = 'store',
) {
  if (id === undefined) return defaultStore(db, tenant);
  const store = await findStore(db, tenant, id);
  if (!store) throw invalid('parameter_invalid', field, 'is not a store of this account');
  return store;
}

async function applyUpdate(
  db: Queryable,
  tenant: Tenant,
  row: StoreRow,
  input: StoreInput,
): Promise<StoreObject> {
  if (input.default === false && row.is_default) {
    throw new AppError('parameter_invalid', 'Make another store the default instead', {
      details: { default: 'the default store stays default until another store is made default' },
    });
  }
  if (input.default === true && !row.is_default) await clearDefault(db, tenant);
  await setScaleBarcodes(db, row, input.scale_barcodes);
  const keep = <T>(value: T | undefined, current: T): T => (value === undefined ? current : value);
  const updated = await db.query<StoreRow>(
    `UPDATE retail_stores SET name = $2, address_lines = $3, phone = $4, tin = $5, vrn = $6, vat_region = $7,
       currency = $8, receipt_header = $9, receipt_footer = $10, receipt_language = $11, is_default = $12,
       updated_at = now()
     WHERE id = $1 RETURNING *`,
    [
      row.id,
      keep(input.name, row.name),
      JSON.stringify(keep(input.address_lines, row.address_lines)),
      keep(input.phone, row.phone),
      keep(input.tin, row.tin),
      keep(input.vrn, row.vrn),
      keep(input.vat_region, row.vat_region),
      keep(input.currency, row.currency),
      JSON.stringify(keep(input.receipt_header, row.receipt_header)),
      JSON.stringify(keep(input.receipt_footer, row.receipt_footer)),
      keep(input.receipt_language, row.receipt_language),
      input.default === true || row.is_default,
    ],
  );
  const object = storeObject(updated.rows[0]!);
  await recordEvent(db, { ...tenant, type: 'store.updated', object });
  return object;
}
