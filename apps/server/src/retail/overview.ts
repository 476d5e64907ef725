import {
  AppError,
  EAST_AFRICA_TIME_ZONE,
  eastAfricaDate,
  eastAfricaDay,
  type Currency,
  type QuantityUnit,
} from '@tz/core';
import type { Queryable } from '../db/database.ts';
import type { Tenant } from '../actor.ts';
import { seriesOf, type DayHourSum } from '../overview/series.ts';

const TOP_PRODUCTS = 5;
const LOW_STOCK_ITEMS = 20;

/** The bounds of an East Africa Time calendar day. */
function dayBounds(date: string): { start: Date; end: Date } {
  const day = eastAfricaDay(date);
  if (!day) {
    throw new AppError('parameter_invalid', 'date must be a calendar day, YYYY-MM-DD', {
      details: { date: 'is not a calendar day' },
    });
  }
  return day;
}

export class RetailOverview {
  /**
   * What a shop owner opens each morning, per store: the day's sales (or the
   * last `days` days' to `date`; net of refunds, voided sales left out), order
   * count, best sellers, sales by hour and by day, and the items that are low
   * or below zero.
   */
  async of(db: Queryable, tenant: Tenant, options: { date?: string | undefined; days?: number; now?: Date }) {
    const date = options.date ?? eastAfricaDate(options.now ?? new Date());
    const days = options.days ?? 1;
    const { end } = dayBounds(date);
    const start = new Date(end.getTime() - days * 86_400_000);
    const params = [tenant.merchantId, tenant.livemode, start, end];
    // Five independent reads, sent together.
    const [stores, sales, top, low, hourly] = await Promise.all([
      db.query<{ id: string; name: string; currency: Currency; is_default: boolean }>(
        `SELECT id, name, currency, is_default FROM retail_stores WHERE merchant_id = $1 AND livemode = $2 ORDER BY seq`,
        params.slice(0, 2),
      ),
      db.query<{ store_id: string; orders: number; gross: number; refunded: number; voided: number }>(
        `SELECT store_id, sum(orders)::int AS orders, sum(total)::bigint AS gross,
           sum(refunded)::bigint AS refunded, sum(voided)::int AS voided
         FROM retail_quarter_sales WHERE merchant_id = $1 AND livemode = $2 AND quarter >= $3 AND quarter < $4
         GROUP BY store_id`,
        params,
      ),
      db.query<{
        store_id: string;
        product_id: string;
        variant_id: string | null;
        description: string;
        quantity_milli: number;
        sales: number;
      }>(
        // The best sellers of each store, ranked in the database: a busy day sells thousands of products.
        `SELECT * FROM (
           SELECT store_id, product_id, nullif(variant_id, '') AS variant_id, max(description) AS description,
             sum(quantity_milli)::bigint AS quantity_milli, sum(sales)::bigint AS sales,
             row_number() OVER (PARTITION BY store_id ORDER BY sum(sales) DESC, sum(quantity_milli) DESC) AS rank
           FROM retail_product_days
           WHERE merchant_id = $1 AND livemode = $2 AND day >= retail_day_of($3) AND day < retail_day_of($4)
           GROUP BY store_id, product_id, variant_id
           HAVING sum(quantity_milli) <> 0 OR sum(sales) <> 0
         ) ranked WHERE rank <= $5 ORDER BY rank`,
        [...params, TOP_PRODUCTS],
      ),
      db.query<{
        store_id: string;
        product_id: string;
        variant_id: string | null;
        description: string;
        unit: QuantityUnit;
        on_hand_milli: number;
        reorder_level_milli: number | null;
      }>(
        // Each store's own most urgent items: one store's long list does not crowd out another's.
        `SELECT * FROM (
           SELECT s.store_id, s.product_id, s.variant_id, p.name || coalesce(' ' || v.name, '') AS description, p.unit,
             s.on_hand_milli, s.reorder_level_milli,
             row_number() OVER (PARTITION BY s.store_id
               ORDER BY s.on_hand_milli - coalesce(s.reorder_level_milli, 0), s.seq) AS rank
           FROM retail_stores st
           JOIN retail_stock_levels s ON s.store_id = st.id
           JOIN retail_products p ON p.id = s.product_id
           LEFT JOIN retail_variants v ON v.id = s.variant_id
           WHERE st.merchant_id = $1 AND st.livemode = $2
             AND ((s.reorder_level_milli IS NOT NULL AND s.on_hand_milli <= s.reorder_level_milli) OR s.on_hand_milli < 0)
             AND p.deleted_at IS NULL AND p.track_stock AND v.deleted_at IS NULL
         ) ranked WHERE rank <= $3 ORDER BY rank`,
        [tenant.merchantId, tenant.livemode, LOW_STOCK_ITEMS],
      ),
      db.query<DayHourSum & { store_id: string }>(
        // East Africa Time is UTC+03:00 all year: its day and hour are the UTC ones three hours on.
        // From the quarter-hour totals kept with each order (migration `retail_totals`), as are the sales and best sellers.
        `SELECT store_id, to_char(quarter AT TIME ZONE 'UTC' + interval '3 hours', 'YYYY-MM-DD') AS day,
           extract(hour FROM quarter AT TIME ZONE 'UTC' + interval '3 hours')::int AS hour,
           sum(total - refunded)::bigint AS amount
         FROM retail_quarter_sales WHERE merchant_id = $1 AND livemode = $2 AND quarter >= $3 AND quarter < $4
         GROUP BY 1, 2, 3`,
        params,
      ),
    ]);
    return {
      object: 'retail_overview' as const,
      date,
      days,
      time_zone: EAST_AFRICA_TIME_ZONE,
      livemode: tenant.livemode,
      stores: stores.rows.map((store) => {
        const day = sales.rows.find((row) => row.store_id === store.id);
        const series = seriesOf(
          hourly.rows.filter((row) => row.store_id === store.id),
          date,
          days,
        );
        return {
          store: store.id,
          name: store.name,
          default: store.is_default,
          currency: store.currency,
          sales: day ? day.gross - day.refunded : 0,
          refunds: day?.refunded ?? 0,
          order_count: day?.orders ?? 0,
          voided_count: day?.voided ?? 0,
          sales_by_hour: series.by_hour,
          sales_by_day: series.by_day.map((entry) => ({ date: entry.date, sales: entry.amount })),
          top_products: top.rows
            .filter((row) => row.store_id === store.id)
            .map((row) => ({
              product: row.product_id,
              variant: row.variant_id,
              description: row.description,
              quantity_milli: row.quantity_milli,
              sales: row.sales,
            })),
          low_stock: low.rows
            .filter((row) => row.store_id === store.id)
            .map((row) => ({
              product: row.product_id,
              variant: row.variant_id,
              description: row.description,
              unit: row.unit,
              on_hand_milli: row.on_hand_milli,
              reorder_level_milli: row.reorder_level_milli,
              negative: row.on_hand_milli < 0,
            })),
        };
      }),
    };
  }
}
