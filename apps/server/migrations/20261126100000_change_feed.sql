-- Up Migration
-- The change feed tills pull reference data through (docs/SYNC.md, "Change feed").
--
-- A table joins the feed with `SELECT enable_change_feed('table', ARRAY[scope columns])`:
-- it gains `change_seq`, stamped by a trigger on every INSERT and UPDATE, and `deleted_at`
-- (deletes are soft, so a deletion is a change like any other), and an index that serves
-- "this scope's changes after (change_seq, id)" when scope columns are given.
--
-- `change_seq` is the 64-bit id of the transaction that last wrote the row
-- (`pg_current_xact_id()`), not a value from a sequence. Both increase as transactions
-- start writing, and both can commit out of order; what transaction ids add is that
-- PostgreSQL says which of them may still commit: none below the snapshot's xmin.
-- A reader that takes only rows with change_seq below its snapshot's xmin, in
-- (change_seq, id) order, therefore reads a prefix that never grows behind its
-- checkpoint. With a sequence, a transaction could hold a low value while others
-- commit higher ones, and nothing tells the reader which low values are still held.

CREATE FUNCTION change_feed_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_seq := pg_current_xact_id()::text::bigint;
  RETURN NEW;
END $$;

CREATE FUNCTION enable_change_feed(target regclass, index_scope text[] DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  -- Rows that exist already read as changed at 0, before any transaction: the feed's first
  -- rows. The default is only for them (a fast default: no rewrite); new rows get the trigger's.
  EXECUTE format(
    'ALTER TABLE %s ADD COLUMN change_seq bigint NOT NULL DEFAULT 0, ADD COLUMN IF NOT EXISTS deleted_at timestamptz',
    target);
  EXECUTE format('ALTER TABLE %s ALTER COLUMN change_seq DROP DEFAULT', target);
  EXECUTE format(
    'CREATE TRIGGER change_feed BEFORE INSERT OR UPDATE ON %s FOR EACH ROW EXECUTE FUNCTION change_feed_stamp()',
    target);
  IF index_scope IS NOT NULL THEN
    EXECUTE format('CREATE INDEX %I ON %s (%s, change_seq, id)',
      (SELECT relname FROM pg_class WHERE oid = target) || '_changes', target,
      (SELECT string_agg(quote_ident(c), ', ') FROM unnest(index_scope) AS c));
  END IF;
END $$;

SELECT enable_change_feed('retail_categories', ARRAY['merchant_id', 'livemode']);
-- Barcodes and SKUs travel on their product and variant rows (`sku`, `barcodes`):
-- retail_codes is the server's uniqueness index over those, derived, and not replicated.
SELECT enable_change_feed('retail_products', ARRAY['merchant_id', 'livemode']);
SELECT enable_change_feed('retail_variants', ARRAY['merchant_id', 'livemode']);
SELECT enable_change_feed('customers', ARRAY['merchant_id', 'livemode']);
-- A till reads its own store's row: the primary key finds it.
SELECT enable_change_feed('retail_stores');
SELECT enable_change_feed('retail_orders', ARRAY['store_id']);
-- Indexed like the others, stock updates are no longer HOT (docs/SYNC.md weighs it):
-- without the index, every till's pull would scan its store's whole stock.
SELECT enable_change_feed('retail_stock_levels', ARRAY['store_id']);
