-- GET /v1/retail reads its days of sales per quarter hour and its best sellers per day, not the
-- orders and lines themselves: totals the database keeps in the same transaction as the order,
-- line, refund or void that changes them, split over eight slots as the overview's are
-- (20261202100000_overview_totals.sql). An order counts from when it was paid; a voided order's
-- sales and lines count for nothing, and it is counted as voided.

CREATE TABLE retail_quarter_sales (
  merchant_id text NOT NULL,
  livemode boolean NOT NULL,
  store_id text NOT NULL,
  quarter timestamptz NOT NULL,
  slot smallint NOT NULL,
  orders integer NOT NULL,
  voided integer NOT NULL,
  total bigint NOT NULL,
  refunded bigint NOT NULL,
  PRIMARY KEY (merchant_id, livemode, store_id, quarter, slot)
);

-- A day in East Africa Time (UTC+03:00 all year), as the retail overview's days are.
CREATE TABLE retail_product_days (
  merchant_id text NOT NULL,
  livemode boolean NOT NULL,
  store_id text NOT NULL,
  day date NOT NULL,
  product_id text NOT NULL,
  -- '' for a product sold without a variant (a key cannot hold NULL).
  variant_id text NOT NULL,
  slot smallint NOT NULL,
  description text NOT NULL,
  quantity_milli bigint NOT NULL,
  sales bigint NOT NULL,
  PRIMARY KEY (merchant_id, livemode, store_id, day, product_id, variant_id, slot)
);

CREATE FUNCTION retail_day_of(at timestamptz) RETURNS date
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ((at AT TIME ZONE 'UTC') + interval '3 hours')::date $$;

-- Orders moved by a statement: each old version taken away, each new one added.
CREATE FUNCTION retail_quarter_sales_move(sign int, moved retail_orders[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO retail_quarter_sales AS s (merchant_id, livemode, store_id, quarter, slot, orders, voided, total, refunded)
  SELECT o.merchant_id, o.livemode, o.store_id, quarter_of(o.paid_at), (pg_backend_pid() % 8)::smallint,
    sign * count(*) FILTER (WHERE o.status <> 'voided'),
    sign * count(*) FILTER (WHERE o.status = 'voided'),
    sign * coalesce(sum(o.total) FILTER (WHERE o.status <> 'voided'), 0),
    sign * coalesce(sum(o.refunded_amount) FILTER (WHERE o.status <> 'voided'), 0)
  FROM unnest(moved) AS o WHERE o.paid_at IS NOT NULL
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, livemode, store_id, quarter, slot) DO UPDATE SET
    orders = s.orders + excluded.orders, voided = s.voided + excluded.voided,
    total = s.total + excluded.total, refunded = s.refunded + excluded.refunded
$$;

-- Lines moved, with the order each belongs to as it counts (its store, when it was paid, voided or not).
CREATE FUNCTION retail_product_days_move(sign int, moved_lines retail_order_lines[], orders retail_orders[])
  RETURNS void LANGUAGE sql AS $$
  INSERT INTO retail_product_days AS d
    (merchant_id, livemode, store_id, day, product_id, variant_id, slot, description, quantity_milli, sales)
  SELECT o.merchant_id, o.livemode, o.store_id, retail_day_of(o.paid_at), l.product_id, coalesce(l.variant_id, ''),
    (pg_backend_pid() % 8)::smallint, max(l.description),
    sign * sum(l.quantity_milli - l.refunded_quantity_milli), sign * sum(l.total - l.refunded_amount)
  FROM unnest(moved_lines) AS l JOIN unnest(orders) AS o ON o.id = l.order_id
  WHERE o.paid_at IS NOT NULL AND o.status <> 'voided'
  GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (merchant_id, livemode, store_id, day, product_id, variant_id, slot) DO UPDATE SET
    description = excluded.description,
    quantity_milli = d.quantity_milli + excluded.quantity_milli, sales = d.sales + excluded.sales
$$;

CREATE FUNCTION retail_orders_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM retail_quarter_sales_move(1, (SELECT array_agg(a::retail_orders) FROM added a));
  RETURN NULL;
END $$;

-- An order paid, refunded or voided: its sales move, and so do its lines' (they count by their order).
CREATE FUNCTION retail_orders_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before_orders retail_orders[];
  after_orders retail_orders[];
  their_lines retail_order_lines[];
BEGIN
  SELECT array_agg(o::retail_orders), array_agg(n::retail_orders) INTO before_orders, after_orders
  FROM before_change o JOIN after_change n ON n.id = o.id
  WHERE (o.status, o.paid_at, o.total, o.refunded_amount, o.store_id)
    IS DISTINCT FROM (n.status, n.paid_at, n.total, n.refunded_amount, n.store_id);
  IF before_orders IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM retail_quarter_sales_move(-1, before_orders);
  PERFORM retail_quarter_sales_move(1, after_orders);
  -- Lines count by their order's day, store and voidedness: when those change, the lines move.
  SELECT array_agg(l) INTO their_lines FROM retail_order_lines l
  WHERE l.order_id IN (
    SELECT o.id FROM unnest(before_orders) o JOIN unnest(after_orders) n ON n.id = o.id
    WHERE (o.status = 'voided', o.paid_at, o.store_id) IS DISTINCT FROM (n.status = 'voided', n.paid_at, n.store_id));
  IF their_lines IS NOT NULL THEN
    PERFORM retail_product_days_move(-1, their_lines, before_orders);
    PERFORM retail_product_days_move(1, their_lines, after_orders);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION retail_order_lines_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM retail_product_days_move(1, (SELECT array_agg(a::retail_order_lines) FROM added a),
    (SELECT array_agg(o) FROM retail_orders o WHERE o.id IN (SELECT order_id FROM added)));
  RETURN NULL;
END $$;

CREATE FUNCTION retail_order_lines_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  their_orders retail_orders[];
BEGIN
  SELECT array_agg(o) INTO their_orders FROM retail_orders o WHERE o.id IN (SELECT order_id FROM after_change);
  PERFORM retail_product_days_move(-1, (SELECT array_agg(b::retail_order_lines) FROM before_change b), their_orders);
  PERFORM retail_product_days_move(1, (SELECT array_agg(a::retail_order_lines) FROM after_change a), their_orders);
  RETURN NULL;
END $$;

CREATE TRIGGER retail_orders_added AFTER INSERT ON retail_orders
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION retail_orders_added();
CREATE TRIGGER retail_orders_changed AFTER UPDATE ON retail_orders
  REFERENCING OLD TABLE AS before_change NEW TABLE AS after_change
  FOR EACH STATEMENT EXECUTE FUNCTION retail_orders_changed();
CREATE TRIGGER retail_order_lines_added AFTER INSERT ON retail_order_lines
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION retail_order_lines_added();
CREATE TRIGGER retail_order_lines_changed AFTER UPDATE ON retail_order_lines
  REFERENCING OLD TABLE AS before_change NEW TABLE AS after_change
  FOR EACH STATEMENT EXECUTE FUNCTION retail_order_lines_changed();

-- The totals of the orders already written.
CREATE FUNCTION retail_totals_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM retail_quarter_sales;
  DELETE FROM retail_product_days;
  PERFORM retail_quarter_sales_move(1, (SELECT array_agg(o) FROM retail_orders o));
  PERFORM retail_product_days_move(1, (SELECT array_agg(l) FROM retail_order_lines l),
    (SELECT array_agg(o) FROM retail_orders o));
END $$;

SELECT retail_totals_rebuild();
