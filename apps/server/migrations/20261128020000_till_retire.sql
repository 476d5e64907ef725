-- Up Migration
-- A till ends by retirement (it pushes its backlog, then stops) or revocation (at once).
-- retired_at: the merchant retired it; finished_at: it then reported an empty backlog, and its
-- credential stopped. export_key: HMAC key derived from the credential (never the credential),
-- kept so a revoked till's signed export of its unsynced sales can be verified.
ALTER TABLE tills ADD COLUMN retired_at timestamptz;
ALTER TABLE tills ADD COLUMN finished_at timestamptz CHECK (finished_at IS NULL OR retired_at IS NOT NULL);
ALTER TABLE tills ADD COLUMN export_key text;
