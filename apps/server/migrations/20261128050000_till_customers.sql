-- Up Migration
-- Customers made at a till (docs/SYNC.md, "Customers made at the till").
--
-- A till makes a customer's id itself, so it can attach the customer to a sale offline. When the
-- phone already belongs to one of the merchant's customers, the server makes no second customer:
-- it records the till's id here as another name for the one it found, and a sale naming the
-- till's id is recorded against that customer.
CREATE TABLE customer_aliases (
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  alias text NOT NULL CHECK (alias LIKE 'cus\_%'),
  customer_id text NOT NULL REFERENCES customers(id),
  till_id text NOT NULL REFERENCES tills(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, livemode, alias)
);

-- The till's duplicate check, and `GET /v1/customers?phone=`.
CREATE INDEX customers_phone ON customers (merchant_id, livemode, phone, seq) WHERE phone IS NOT NULL;
