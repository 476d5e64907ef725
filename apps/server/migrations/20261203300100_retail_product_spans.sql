-- GET /v1/retail's best sellers over up to 31 days read a few blocks of days, not a row per product
-- per day: each line's sales are kept per day and per block of 2, 4, 8 and 16 days (a block of n
-- days starts on a day whose number since 1970-01-01 is a multiple of n), so any run of days is a
-- few blocks (30 days: 5 on average, 8 at most) and a busy month of a large shop a few thousand
-- rows, not tens of thousands. `span` is the block's length in days; `day` its first day.

ALTER TABLE retail_product_days ADD COLUMN span smallint NOT NULL DEFAULT 1 CHECK (span IN (1, 2, 4, 8, 16));
ALTER TABLE retail_product_days ALTER COLUMN span DROP DEFAULT;
-- Blocks are read by their span and first day across the merchant's stores.
ALTER TABLE retail_product_days DROP CONSTRAINT retail_product_days_pkey;
ALTER TABLE retail_product_days
  ADD PRIMARY KEY (merchant_id, livemode, span, day, store_id, product_id, variant_id, slot);

CREATE FUNCTION retail_block_of(day date, span int) RETURNS date
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT day - ((((day - date '1970-01-01') % span) + span) % span) $$;

-- The days [first, stop) as the fewest blocks: from each day on, the longest block that starts
-- there and fits. A function (not a list the server sends) so that the overview's statement is
-- planned once, whatever its days.
CREATE FUNCTION retail_blocks(first date, stop date) RETURNS TABLE (span smallint, day date)
  LANGUAGE plpgsql IMMUTABLE ROWS 5 AS $$
DECLARE
  n int;
BEGIN
  day := first;
  WHILE day < stop LOOP
    n := 16;
    WHILE n > 1 AND (retail_block_of(day, n) <> day OR day + n > stop) LOOP
      n := n / 2;
    END LOOP;
    span := n;
    RETURN NEXT;
    day := day + n;
  END LOOP;
END $$;

-- As before (20261202100100_retail_totals.sql), each line now counted in its day and in each block
-- holding that day. A product's description is the greatest it was sold under, in every block
-- alike, so a run of days reads the same whichever blocks make it up.
CREATE OR REPLACE FUNCTION retail_product_days_move(sign int, moved_lines retail_order_lines[], orders retail_orders[])
  RETURNS void LANGUAGE sql AS $$
  INSERT INTO retail_product_days AS d
    (merchant_id, livemode, store_id, span, day, product_id, variant_id, slot, description, quantity_milli, sales)
  SELECT o.merchant_id, o.livemode, o.store_id, b.span, retail_block_of(retail_day_of(o.paid_at), b.span),
    l.product_id, coalesce(l.variant_id, ''), (pg_backend_pid() % 8)::smallint, max(l.description),
    sign * sum(l.quantity_milli - l.refunded_quantity_milli), sign * sum(l.total - l.refunded_amount)
  FROM unnest(moved_lines) AS l JOIN unnest(orders) AS o ON o.id = l.order_id
    CROSS JOIN (VALUES (1), (2), (4), (8), (16)) AS b(span)
  WHERE o.paid_at IS NOT NULL AND o.status <> 'voided'
  GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (merchant_id, livemode, span, day, store_id, product_id, variant_id, slot) DO UPDATE SET
    description = greatest(d.description, excluded.description),
    quantity_milli = d.quantity_milli + excluded.quantity_milli, sales = d.sales + excluded.sales
$$;

SELECT retail_totals_rebuild();
