-- Up Migration
-- Digital receipts (docs/RETAIL.md, "Digital receipts").
--
-- A till makes a random token for each sale's receipt page (`/receipt/{token}`) and sends it with
-- `order.create`. Only its SHA-256 is kept: a read of this table (a backup, a replica, a support
-- query) reveals no link that opens a receipt. The token is 128 random bits, so an unsalted hash is
-- as good as the token against guessing, and it lets the page find the row by an index.
CREATE TABLE retail_receipt_links (
  token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  order_id text NOT NULL UNIQUE REFERENCES retail_orders(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
