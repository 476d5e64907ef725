/** What a sale reads before it writes. */
import type { CreateOrderCommand, Currency, QuantityUnit, TaxClass } from '@tz/core';
import type { Tenant } from '../../actor.ts';
import type { Queryable } from '../../db/database.ts';
import type { LockedLevel } from '../stock.ts';
import type { StoreRow } from '../stores.ts';

export interface CatalogItem {
  id: string;
  name: string;
  sku: string | null;
  price: number;
  currency: Currency;
  tax_rate: TaxClass;
  unit: QuantityUnit;
  track_stock: boolean;
  /** Deleted or made inactive: an API key may not sell it; a till's sale of it stands, flagged. */
  unavailable: boolean;
  deleted: boolean;
  variants: Array<{
    id: string;
    name: string;
    sku: string | null;
    price: number;
    deleted: boolean;
    unavailable: boolean;
  }>;
}

export type SaleStore = Omit<StoreRow, 'created_at' | 'updated_at'>;

export interface SaleContext {
  /** The order already recorded under this client order id. */
  existing: string | null;
  store: SaleStore | null;
  /** The store's stock levels of the products sold, locked in one order so concurrent sales never deadlock. */
  levels: LockedLevel[];
  customer: { id: string; name: string | null } | null;
  catalog: Map<string, CatalogItem>;
  /** The next number of the store's server-given receipts, when the sale brings none of its own. */
  receiptSequence: number | null;
}

/** Everything a sale reads before it writes, in one round trip: a till waits on every one. */
export async function loadSaleContext(
  db: Queryable,
  tenant: Tenant,
  input: CreateOrderCommand,
  storeId: string | undefined,
): Promise<SaleContext> {
  const found = await db.query<{
    existing: string | null;
    store: SaleStore | null;
    customer: { id: string; name: string | null } | null;
    products: CatalogItem[];
    levels: LockedLevel[];
    receipt_sequence: number | null;
  }>({
    // Prepared once per connection: the sale's two big statements are planned once, not per sale.
    name: `retail_sale_context_${storeId === undefined ? 'default' : 'store'}`,
    text: `WITH store AS (
       SELECT * FROM retail_stores s WHERE s.merchant_id = $1 AND s.livemode = $2
         AND ${storeId === undefined ? 's.is_default AND $4::text IS NULL' : 's.id = $4'}
     ), existing AS (
       SELECT id FROM retail_orders WHERE merchant_id = $1 AND livemode = $2 AND client_order_id = $3
     )
     SELECT
       (SELECT id FROM existing) AS existing,
       (SELECT nextval(('retail_receipts_' || s.id)::regclass) FROM store s
          WHERE $7::boolean AND NOT EXISTS (SELECT 1 FROM existing)) AS receipt_sequence,
       (SELECT row_to_json(s) FROM store s) AS store,
       (SELECT coalesce(json_agg(l), '[]') FROM (
          SELECT l.id, l.livemode, l.store_id, l.product_id, l.variant_id, l.on_hand_milli, l.reorder_level_milli
          FROM store s JOIN retail_stock_levels l ON l.store_id = s.id AND l.product_id = ANY($6::text[])
          ORDER BY l.product_id, l.variant_id NULLS FIRST FOR UPDATE OF l) l) AS levels,
       (SELECT json_build_object('id', c.id, 'name', c.name) FROM customers c
          WHERE c.merchant_id = $1 AND c.livemode = $2 AND c.id = coalesce((SELECT a.customer_id
            FROM customer_aliases a WHERE a.merchant_id = $1 AND a.livemode = $2 AND a.alias = $5), $5)) AS customer,
       (SELECT coalesce(json_agg(json_build_object('id', p.id, 'name', p.name, 'sku', p.sku, 'price', p.price,
          'currency', p.currency, 'tax_rate', p.tax_rate, 'unit', p.unit, 'track_stock', p.track_stock,
          'deleted', p.deleted_at IS NOT NULL, 'unavailable', p.deleted_at IS NOT NULL OR NOT p.active,
          'variants', (SELECT coalesce(json_agg(json_build_object('id', v.id, 'name', v.name, 'sku', v.sku,
             'price', v.price, 'deleted', v.deleted_at IS NOT NULL,
             'unavailable', v.deleted_at IS NOT NULL OR NOT v.active)), '[]') FROM retail_variants v WHERE v.product_id = p.id))),
          '[]')
        FROM retail_products p WHERE p.merchant_id = $1 AND p.livemode = $2 AND p.id = ANY($6::text[])) AS products`,
    values: [
      tenant.merchantId,
      tenant.livemode,
      input.client_order_id ?? null,
      storeId ?? null,
      input.customer ?? null,
      [...new Set(input.lines.map((line) => line.product))],
      input.receipt_number === undefined,
    ],
  });
  const row = found.rows[0]!;
  return {
    existing: row.existing,
    store: row.store,
    levels: row.levels,
    customer: row.customer,
    receiptSequence: row.receipt_sequence,
    catalog: new Map(row.products.map((product) => [product.id, product])),
  };
}
