-- Up Migration
-- The back office's browser sessions (docs/OFFICE.md): a login held in an HttpOnly cookie rather than
-- handed to an API client. "Sign out everywhere" ends a merchant's browser sessions and a password
-- change ends all its sessions but the caller's, each one statement by merchant.
ALTER TABLE sessions ADD COLUMN browser boolean NOT NULL DEFAULT false;
CREATE INDEX sessions_merchant ON sessions (merchant_id);
