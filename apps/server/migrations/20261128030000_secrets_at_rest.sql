-- Webhook signing secrets are stored sealed (AES-256-GCM, `enc:v1:...`) under a
-- key kept outside the database (services/secrets-at-rest.ts). Secrets stored in
-- clear before this are sealed by the server at its next start, which holds the key.
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_secret_check;
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_previous_secret_check;
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_secret_check
  CHECK (secret LIKE 'enc:v1:%' OR secret LIKE 'whsec\_%');
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_previous_secret_check
  CHECK (previous_secret LIKE 'enc:v1:%' OR previous_secret LIKE 'whsec\_%');

-- Names the key the secrets are sealed with (an HMAC of a constant under it), so
-- a server started with another key refuses to start instead of failing each delivery.
CREATE TABLE secrets_key (
  only_one boolean PRIMARY KEY DEFAULT true CHECK (only_one),
  fingerprint text NOT NULL
);
