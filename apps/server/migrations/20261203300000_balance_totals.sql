-- The balance (GET /v1/balance, the overview's, the one a payout or refund checks under its lock)
-- reads per-account totals of the merchant's postings, not every posting it ever had: totals the
-- database keeps in the same transaction as the postings, as the reports' are
-- (20261202100000_overview_totals.sql). The postings stay the ledger; a total is their sum, split
-- over eight slots by the writing connection so concurrent writers seldom wait on one row, and
-- `postings` counts them so an account appears exactly when it has postings. Only the accounts a
-- merchant's balances are (packages/core BALANCE_ACCOUNTS) are kept.

CREATE TABLE ledger_balance_totals (
  merchant_id text NOT NULL,
  livemode boolean NOT NULL,
  account text NOT NULL,
  currency text NOT NULL,
  slot smallint NOT NULL,
  postings integer NOT NULL,
  amount bigint NOT NULL,
  PRIMARY KEY (merchant_id, livemode, account, currency, slot)
);

CREATE FUNCTION ledger_balance_account(account text) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT account IN ('merchant_available', 'merchant_pending', 'merchant_escrow', 'merchant_referral') $$;

CREATE FUNCTION ledger_balance_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_balance_totals AS t (merchant_id, livemode, account, currency, slot, postings, amount)
  SELECT merchant_id, livemode, account, currency, (pg_backend_pid() % 8)::smallint, count(*), sum(amount)
  FROM added WHERE ledger_balance_account(account)
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, livemode, account, currency, slot) DO UPDATE SET
    postings = t.postings + excluded.postings, amount = t.amount + excluded.amount;
  RETURN NULL;
END $$;

-- Postings are written once; a correction by hand (an UPDATE or DELETE) moves its totals too.
CREATE FUNCTION ledger_balance_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_balance_totals AS t (merchant_id, livemode, account, currency, slot, postings, amount)
  SELECT merchant_id, livemode, account, currency, (pg_backend_pid() % 8)::smallint, sum(sign), sum(sign * amount)
  FROM (
    SELECT merchant_id, livemode, account, currency, amount, -1 AS sign FROM before_change
    UNION ALL
    SELECT merchant_id, livemode, account, currency, amount, 1 FROM after_change
  ) moved
  WHERE ledger_balance_account(account)
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, livemode, account, currency, slot) DO UPDATE SET
    postings = t.postings + excluded.postings, amount = t.amount + excluded.amount;
  RETURN NULL;
END $$;

CREATE FUNCTION ledger_balance_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_balance_totals AS t (merchant_id, livemode, account, currency, slot, postings, amount)
  SELECT merchant_id, livemode, account, currency, (pg_backend_pid() % 8)::smallint, -count(*), -sum(amount)
  FROM removed WHERE ledger_balance_account(account)
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (merchant_id, livemode, account, currency, slot) DO UPDATE SET
    postings = t.postings + excluded.postings, amount = t.amount + excluded.amount;
  RETURN NULL;
END $$;

CREATE TRIGGER ledger_balance_totals_added AFTER INSERT ON ledger_postings
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ledger_balance_totals_added();
CREATE TRIGGER ledger_balance_totals_changed AFTER UPDATE ON ledger_postings
  REFERENCING OLD TABLE AS before_change NEW TABLE AS after_change
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_balance_totals_changed();
CREATE TRIGGER ledger_balance_totals_removed AFTER DELETE ON ledger_postings
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ledger_balance_totals_removed();

-- The totals from the postings themselves: what the triggers keep, made afresh (here for the
-- postings already written; a check or a repair can call it again).
CREATE FUNCTION ledger_balance_totals_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM ledger_balance_totals;
  INSERT INTO ledger_balance_totals (merchant_id, livemode, account, currency, slot, postings, amount)
  SELECT merchant_id, livemode, account, currency, 0, count(*), sum(amount)
  FROM ledger_postings WHERE ledger_balance_account(account) GROUP BY 1, 2, 3, 4;
$$;

SELECT ledger_balance_totals_rebuild();
