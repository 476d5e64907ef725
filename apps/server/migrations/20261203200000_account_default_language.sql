-- The business's own language (docs/OFFICE.md, Settings): the back office opens in it for a browser
-- that has not chosen one, and a new store's receipts start in it. Stores keep their own.
ALTER TABLE merchants ADD COLUMN default_language text NOT NULL DEFAULT 'sw'
  CHECK (default_language IN ('sw', 'en'));
