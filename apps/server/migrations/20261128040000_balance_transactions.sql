-- The merchant's transaction list (GET /v1/transactions): one line per balance a ledger
-- transaction moves, on the merchant whose balance it is (docs/LEDGER.md, "Rebuilding the
-- balance"). Per merchant, mode, balance and currency the lines' `net` sum to that balance:
-- a hold is two lines (available out, escrow in), a release to a merchant is a line on the
-- holder's escrow and one on the recipient's available.
CREATE TABLE balance_transactions (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'txn\_%'),
  transaction_id text NOT NULL REFERENCES ledger_transactions(id),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  balance text NOT NULL CHECK (balance IN ('available', 'pending', 'escrow', 'referral')),
  currency text NOT NULL,
  amount bigint NOT NULL,
  fee bigint NOT NULL,
  net bigint NOT NULL,
  CHECK (net = amount - fee),
  UNIQUE (transaction_id, merchant_id, balance)
);
CREATE INDEX balance_transactions_list ON balance_transactions (merchant_id, livemode, seq DESC);

-- What the list reads: each line with what its transaction says of itself.
CREATE VIEW balance_transaction_lines AS
SELECT b.seq, b.id, b.merchant_id, b.livemode, b.balance, t.type, t.source_id, b.currency,
  b.amount, b.fee, b.net, t.description, t.created_at
FROM balance_transactions b JOIN ledger_transactions t ON t.id = b.transaction_id;

-- The lines of the transactions posted before this migration, in their order, by the rule
-- `balanceMovements` (packages/core/src/ledger.ts) applies to each new one: the transaction's
-- merchant's first line carries the transaction's id and fee, any other line the id
-- `<transaction id>_<balance>`; a transaction that moves none of its merchant's balances
-- (a paid payout) is one line at 0 on available.
INSERT INTO balance_transactions (id, transaction_id, merchant_id, livemode, balance, currency, amount, fee, net)
SELECT CASE WHEN l.main THEN l.transaction_id ELSE l.transaction_id || '_' || l.balance END,
  l.transaction_id, l.merchant_id, l.livemode, l.balance, l.currency,
  l.net + CASE WHEN l.main THEN l.fee ELSE 0 END, CASE WHEN l.main THEN l.fee ELSE 0 END, l.net
FROM (
  SELECT t.seq AS transaction_seq, p.id AS posting_id, t.id AS transaction_id, p.merchant_id, t.livemode,
    CASE p.account
      WHEN 'merchant_available' THEN 'available'
      WHEN 'merchant_pending' THEN 'pending'
      WHEN 'merchant_escrow' THEN 'escrow'
      ELSE 'referral'
    END AS balance,
    p.currency, p.amount AS net, t.fee,
    p.id = min(p.id) FILTER (WHERE p.merchant_id = t.merchant_id) OVER (PARTITION BY t.id) AS main
  FROM ledger_transactions t JOIN ledger_postings p ON p.transaction_id = t.id
  WHERE p.account IN ('merchant_available', 'merchant_pending', 'merchant_escrow', 'merchant_referral')
  UNION ALL
  SELECT t.seq, 0, t.id, t.merchant_id, t.livemode, 'available', t.currency, 0, t.fee, true
  FROM ledger_transactions t
  WHERE NOT EXISTS (
    SELECT 1 FROM ledger_postings p
    WHERE p.transaction_id = t.id AND p.merchant_id = t.merchant_id
      AND p.account IN ('merchant_available', 'merchant_pending', 'merchant_escrow', 'merchant_referral')
  )
) l
ORDER BY l.transaction_seq, l.posting_id;
