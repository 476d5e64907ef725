-- Product tiles at the till (docs/RETAIL.md, "Tiles at the till"): a product's place on the
-- Favourites tiles, 1 first; NULL keeps it off them (it still shows under its category).
ALTER TABLE retail_products ADD COLUMN favourite_position integer CHECK (favourite_position BETWEEN 1 AND 999);
