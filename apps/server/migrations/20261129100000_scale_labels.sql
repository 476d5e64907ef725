-- Scale labels (docs/RETAIL.md, "Scale labels"): each store says how its scale's EAN-13 labels read,
-- and a product may carry the item code (PLU) its scale knows it by, unique per account and mode
-- through retail_codes like SKUs and barcodes. The default format is core's DEFAULT_SCALE_BARCODE_FORMAT.
ALTER TABLE retail_stores
  ADD COLUMN scale_barcodes jsonb NOT NULL
  DEFAULT '{"weight_prefixes": ["20", "21"], "price_prefixes": ["22", "23"], "item_code_digits": 5, "price_check_digit": false, "match_by": "plu"}';

ALTER TABLE retail_products ADD COLUMN plu text CHECK (plu ~ '^[1-9][0-9]{0,5}$');

ALTER TABLE retail_codes DROP CONSTRAINT retail_codes_kind_check;
ALTER TABLE retail_codes ADD CONSTRAINT retail_codes_kind_check CHECK (kind IN ('sku', 'barcode', 'plu'));
