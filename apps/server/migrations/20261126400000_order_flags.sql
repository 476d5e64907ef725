-- Up Migration
-- A till's sale is a fact: the server records it even when the catalogue moved on
-- meanwhile, and notes what differed (price_changed, product_unavailable,
-- stock_short, customer_unknown). till_id is the paired till that sold it, when one did.
ALTER TABLE retail_orders ADD COLUMN flags text[] NOT NULL DEFAULT '{}';
ALTER TABLE retail_orders ADD COLUMN till_id text REFERENCES tills(id);
CREATE INDEX retail_orders_till ON retail_orders (till_id);
