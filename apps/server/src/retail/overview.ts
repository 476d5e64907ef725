import {
  AppError,
  EAST_AFRICA_TIME_ZONE,
  eastAfricaDate,
  eastAfricaDay,
  type Currency,
  type QuantityUnit,
} from '@tz/core';
import { exactInteger, type Queryable } from '../db/database.ts';
import type { Tenant } from '../actor.ts';
import { seriesOf } from '../overview/series.ts';

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

/**
 * Everything the retail overview reads, in one statement (one round trip, one plan), each part as
 * JSON with its sums as text, read exactly (`exactInteger`) or not at all: the stores; their
 * sales, by day and by East Africa Time hour of the day, from the quarter-hour totals; their best sellers, from
 * the blocks of days that make up the window (`retail_blocks`); their most urgent stock.
 */
const RETAIL_OVERVIEW_SQL = `SELECT
  (SELECT coalesce(json_agg(x ORDER BY x.seq), '[]') FROM (
     SELECT seq, id, name, currency, is_default FROM retail_stores WHERE merchant_id = $1 AND livemode = $2) x) AS stores,
  -- Each store's sales over the window, and by day and by hour of the day, from one scan of its
  -- quarters. East Africa Time is UTC+03:00 all year: its day and hour are the UTC ones three on.
  (SELECT coalesce(json_agg(x), '[]') FROM (
     SELECT store_id, to_char(day, 'YYYY-MM-DD') AS day, hour, sum(orders)::text AS orders,
       sum(total)::text AS gross, sum(refunded)::text AS refunded, sum(voided)::text AS voided
     FROM (
       SELECT store_id, (quarter AT TIME ZONE 'UTC' + interval '3 hours')::date AS day,
         date_part('hour', quarter AT TIME ZONE 'UTC' + interval '3 hours')::int AS hour, orders, total, refunded, voided
       FROM retail_quarter_sales WHERE merchant_id = $1 AND livemode = $2 AND quarter >= $3 AND quarter < $4) q
     GROUP BY GROUPING SETS ((store_id), (store_id, day), (store_id, hour))) x) AS sales,
  -- Each store's best sellers, ranked in the database (a busy month sells thousands of products; ties
  -- go by product), from the blocks of days that make up the window; the description of those only.
  (SELECT coalesce(json_agg(json_build_object('store_id', st.id, 'product_id', t.product_id,
       'variant_id', nullif(t.variant_id, ''), 'quantity_milli', t.quantity_milli::text, 'sales', t.sales::text,
       'description', (SELECT max(d.description) FROM retail_blocks(retail_day_of($3), retail_day_of($4)) AS b
          JOIN retail_product_days d ON d.merchant_id = $1 AND d.livemode = $2 AND d.span = b.span AND d.day = b.day
            AND d.store_id = st.id AND d.product_id = t.product_id AND d.variant_id = t.variant_id))
       ORDER BY st.seq, t.sales DESC, t.quantity_milli DESC, t.product_id, t.variant_id), '[]')
   FROM retail_stores st CROSS JOIN LATERAL (
     SELECT p.product_id, p.variant_id, sum(p.quantity_milli) AS quantity_milli, sum(p.sales) AS sales
     FROM retail_blocks(retail_day_of($3), retail_day_of($4)) AS b
       JOIN retail_product_days p ON p.merchant_id = $1 AND p.livemode = $2 AND p.span = b.span AND p.day = b.day
         AND p.store_id = st.id
     GROUP BY 1, 2 HAVING sum(p.quantity_milli) <> 0 OR sum(p.sales) <> 0
     ORDER BY sum(p.sales) DESC, sum(p.quantity_milli) DESC, p.product_id, p.variant_id LIMIT $5) t
   WHERE st.merchant_id = $1 AND st.livemode = $2) AS top,
  -- Each store's own most urgent items: one store's long list does not crowd out another's.
  (SELECT coalesce(json_agg(x ORDER BY x.rank), '[]') FROM (
     SELECT s.store_id, s.product_id, s.variant_id, p.name || coalesce(' ' || v.name, '') AS description, p.unit,
       s.on_hand_milli::text AS on_hand_milli, s.reorder_level_milli::text AS reorder_level_milli,
       row_number() OVER (PARTITION BY s.store_id
         ORDER BY s.on_hand_milli - coalesce(s.reorder_level_milli, 0), s.seq) AS rank
     FROM retail_stores st
     JOIN retail_stock_levels s ON s.store_id = st.id
     JOIN retail_products p ON p.id = s.product_id
     LEFT JOIN retail_variants v ON v.id = s.variant_id
     WHERE st.merchant_id = $1 AND st.livemode = $2
       AND ((s.reorder_level_milli IS NOT NULL AND s.on_hand_milli <= s.reorder_level_milli) OR s.on_hand_milli < 0)
       AND p.deleted_at IS NULL AND p.track_stock AND v.deleted_at IS NULL
   ) x WHERE x.rank <= $6) AS low`;

interface RetailOverviewRow {
  stores: Array<{ id: string; name: string; currency: Currency; is_default: boolean }>;
  /** A store's sums over the window (`day` and `hour` null), over a day (`hour` null) or an hour of the day (`day` null). */
  sales: Array<{
    store_id: string;
    day: string | null;
    hour: number | null;
    orders: string;
    gross: string;
    refunded: string;
    voided: string;
  }>;
  top: Array<{
    store_id: string;
    product_id: string;
    variant_id: string | null;
    description: string;
    quantity_milli: string;
    sales: string;
  }>;
  low: Array<{
    store_id: string;
    product_id: string;
    variant_id: string | null;
    description: string;
    unit: QuantityUnit;
    on_hand_milli: string;
    reorder_level_milli: string | null;
  }>;
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
    const found = await db.query<RetailOverviewRow>({
      name: 'retail_overview_read',
      text: RETAIL_OVERVIEW_SQL,
      values: [tenant.merchantId, tenant.livemode, start, end, TOP_PRODUCTS, LOW_STOCK_ITEMS],
    });
    const { stores, sales, top, low } = found.rows[0]!;
    return {
      object: 'retail_overview' as const,
      date,
      days,
      time_zone: EAST_AFRICA_TIME_ZONE,
      livemode: tenant.livemode,
      stores: stores.map((store) => {
        const own = sales.filter((row) => row.store_id === store.id);
        const whole = own.find((row) => row.day === null && row.hour === null);
        const gross = whole ? exactInteger(whole.gross) : 0;
        const refunded = whole ? exactInteger(whole.refunded) : 0;
        const amount = (row: (typeof own)[number]) => exactInteger(row.gross) - exactInteger(row.refunded);
        const series = seriesOf(
          own.flatMap((row) => (row.day === null ? [] : [{ day: row.day, amount: amount(row) }])),
          own.flatMap((row) => (row.hour === null ? [] : [{ hour: row.hour, amount: amount(row) }])),
          date,
          days,
        );
        return {
          store: store.id,
          name: store.name,
          default: store.is_default,
          currency: store.currency,
          sales: gross - refunded,
          refunds: refunded,
          order_count: whole ? exactInteger(whole.orders) : 0,
          voided_count: whole ? exactInteger(whole.voided) : 0,
          sales_by_hour: series.by_hour,
          sales_by_day: series.by_day.map((entry) => ({ date: entry.date, sales: entry.amount })),
          top_products: top
            .filter((row) => row.store_id === store.id)
            .map((row) => ({
              product: row.product_id,
              variant: row.variant_id,
              description: row.description,
              quantity_milli: exactInteger(row.quantity_milli),
              sales: exactInteger(row.sales),
            })),
          low_stock: low
            .filter((row) => row.store_id === store.id)
            .map((row) => {
              const onHand = exactInteger(row.on_hand_milli);
              return {
                product: row.product_id,
                variant: row.variant_id,
                description: row.description,
                unit: row.unit,
                on_hand_milli: onHand,
                reorder_level_milli:
                  row.reorder_level_milli === null ? null : exactInteger(row.reorder_level_milli),
                negative: onHand < 0,
              };
            }),
        };
      }),
    };
  }
}
