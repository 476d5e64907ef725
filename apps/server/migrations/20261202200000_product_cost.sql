-- What the shop pays for a product (docs/RETAIL.md, "Catalogue CSV"), in the currency's smallest
-- unit; NULL when not known. The office and the catalogue file carry it; the till does not need it.
ALTER TABLE retail_products ADD COLUMN cost bigint CHECK (cost >= 0 AND cost <= 999999999999);
