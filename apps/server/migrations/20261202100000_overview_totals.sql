-- GET /v1/overview reads a month of money per quarter hour, not a month of rows: totals kept by
-- the database in the same transaction as the ledger transaction or payment that changes them.
-- A quarter hour, because every time zone's midnight falls on one, so any window of local days is
-- a run of whole quarters. Each total is split over eight slots, by the database connection that
-- writes, so that a busy merchant's concurrent writes (each on its own pooled connection) seldom
-- wait on one row; a read sums the slots.

CREATE FUNCTION quarter_of(at timestamptz) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT to_timestamp(floor(extract(epoch FROM at) / 900) * 900) $$;

CREATE TABLE ledger_quarter_totals (
  merchant_id text NOT NULL,
  livemode boolean NOT NULL,
  quarter timestamptz NOT NULL,
  currency text NOT NULL,
  type text NOT NULL,
  slot smallint NOT NULL,
  count integer NOT NULL,
  amount bigint NOT NULL,
  fee bigint NOT NULL,
  net bigint NOT NULL,
  PRIMARY KEY (merchant_id, livemode, quarter, currency, type, slot)
);

CREATE TABLE payment_quarter_counts (
  merchant_id text NOT NULL,
  livemode boolean NOT NULL,
  quarter timestamptz NOT NULL,
  currency text NOT NULL,
  status text NOT NULL,
  slot smallint NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (merchant_id, livemode, quarter, currency, status, slot)
);

-- Ledger transactions are written once; a change of one (a correction by hand) moves its totals too.
CREATE FUNCTION ledger_quarter_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_quarter_totals AS t (merchant_id, livemode, quarter, currency, type, slot, count, amount, fee, net)
  SELECT merchant_id, livemode, quarter_of(created_at), currency, type, (pg_backend_pid() % 8)::smallint,
    count(*), sum(amount), sum(fee), sum(net)
  FROM added GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (merchant_id, livemode, quarter, currency, type, slot) DO UPDATE SET
    count = t.count + excluded.count, amount = t.amount + excluded.amount,
    fee = t.fee + excluded.fee, net = t.net + excluded.net;
  RETURN NULL;
END $$;

CREATE FUNCTION ledger_quarter_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_quarter_totals AS t (merchant_id, livemode, quarter, currency, type, slot, count, amount, fee, net)
  SELECT merchant_id, livemode, quarter_of(created_at), currency, type, (pg_backend_pid() % 8)::smallint,
    sum(sign), sum(sign * amount), sum(sign * fee), sum(sign * net)
  FROM (
    SELECT merchant_id, livemode, created_at, currency, type, amount, fee, net, -1 AS sign FROM before_change
    UNION ALL
    SELECT merchant_id, livemode, created_at, currency, type, amount, fee, net, 1 FROM after_change
  ) moved
  GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (merchant_id, livemode, quarter, currency, type, slot) DO UPDATE SET
    count = t.count + excluded.count, amount = t.amount + excluded.amount,
    fee = t.fee + excluded.fee, net = t.net + excluded.net;
  RETURN NULL;
END $$;

CREATE TRIGGER ledger_quarter_totals_added AFTER INSERT ON ledger_transactions
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ledger_quarter_totals_added();
CREATE TRIGGER ledger_quarter_totals_changed AFTER UPDATE ON ledger_transactions
  REFERENCING OLD TABLE AS before_change NEW TABLE AS after_change
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_quarter_totals_changed();

-- A payment is counted in the quarter it was made, under its status now: a new payment adds one,
-- a change of status moves one from the old status to the new.
CREATE FUNCTION payment_quarter_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payment_quarter_counts AS c (merchant_id, livemode, quarter, currency, status, slot, count)
  SELECT merchant_id, livemode, quarter_of(created_at), currency, status, (pg_backend_pid() % 8)::smallint, count(*)
  FROM added GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (merchant_id, livemode, quarter, currency, status, slot) DO UPDATE SET count = c.count + excluded.count;
  RETURN NULL;
END $$;

CREATE FUNCTION payment_quarter_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payment_quarter_counts AS c (merchant_id, livemode, quarter, currency, status, slot, count)
  SELECT merchant_id, livemode, quarter_of(created_at), currency, status, (pg_backend_pid() % 8)::smallint, sum(delta)
  FROM (
    SELECT o.merchant_id, o.livemode, o.created_at, o.currency, o.status, -1 AS delta
    FROM before_change o JOIN after_change n ON n.id = o.id
    WHERE o.status IS DISTINCT FROM n.status OR o.created_at IS DISTINCT FROM n.created_at
    UNION ALL
    SELECT n.merchant_id, n.livemode, n.created_at, n.currency, n.status, 1
    FROM before_change o JOIN after_change n ON n.id = o.id
    WHERE o.status IS DISTINCT FROM n.status OR o.created_at IS DISTINCT FROM n.created_at
  ) moved
  GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (merchant_id, livemode, quarter, currency, status, slot) DO UPDATE SET count = c.count + excluded.count;
  RETURN NULL;
END $$;

CREATE TRIGGER payment_quarter_counts_added AFTER INSERT ON payments
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION payment_quarter_counts_added();
CREATE TRIGGER payment_quarter_counts_changed AFTER UPDATE ON payments
  REFERENCING OLD TABLE AS before_change NEW TABLE AS after_change
  FOR EACH STATEMENT EXECUTE FUNCTION payment_quarter_counts_changed();

-- The totals from the rows themselves: what the triggers keep, made afresh (here for the rows
-- already written; a check or a repair can call it again).
CREATE FUNCTION overview_totals_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM ledger_quarter_totals;
  DELETE FROM payment_quarter_counts;
  INSERT INTO ledger_quarter_totals (merchant_id, livemode, quarter, currency, type, slot, count, amount, fee, net)
  SELECT merchant_id, livemode, quarter_of(created_at), currency, type, 0, count(*), sum(amount), sum(fee), sum(net)
  FROM ledger_transactions GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO payment_quarter_counts (merchant_id, livemode, quarter, currency, status, slot, count)
  SELECT merchant_id, livemode, quarter_of(created_at), currency, status, 0, count(*)
  FROM payments GROUP BY 1, 2, 3, 4, 5;
$$;

SELECT overview_totals_rebuild();

-- The balance stays a sum of postings (never a stored total): summed from an index alone, without
-- reading the table's rows.
CREATE INDEX ledger_postings_balance_sums ON ledger_postings (merchant_id, livemode, account, currency) INCLUDE (amount);
DROP INDEX ledger_postings_balance;
