-- Up Migration
-- Webhook endpoints belong to one merchant and one mode. The secret is kept in
-- clear because every attempt is signed with it; after a rotation the previous
-- secret keeps signing (beside the new one) until previous_secret_expires_at.
-- Deleted endpoints are kept (deleted_at) so the delivery log can still name them.
CREATE TABLE webhook_endpoints (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'we\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
  description text,
  events text[] NOT NULL CHECK (cardinality(events) >= 1),
  status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  disabled_reason text CHECK (disabled_reason IN ('manual', 'consecutive_failures')),
  secret text NOT NULL CHECK (secret LIKE 'whsec\_%'),
  previous_secret text CHECK (previous_secret LIKE 'whsec\_%'),
  previous_secret_expires_at timestamptz,
  consecutive_failures integer NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  CHECK ((status = 'disabled') = (disabled_reason IS NOT NULL)),
  CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL))
);
CREATE INDEX webhook_endpoints_list ON webhook_endpoints (merchant_id, livemode, seq DESC) WHERE deleted_at IS NULL;

-- One delivery per (event, endpoint): the UNIQUE constraint is what makes a
-- second fan-out of the same event a no-op. A pending delivery is due at
-- next_attempt_at; a dispatcher claims it by setting locked_until (a lease, so
-- the claim of a process that died expires) and claim_token, and makes the
-- HTTP attempt outside any transaction.
CREATE TABLE webhook_deliveries (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'whd\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints(id),
  event_id text NOT NULL REFERENCES events(id),
  event_type text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  failure_reason text CHECK (failure_reason IN ('attempts_exhausted', 'endpoint_deleted', 'endpoint_disabled')),
  attempt_count integer NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
  next_attempt_at timestamptz,
  locked_until timestamptz,
  claim_token text,
  replayed_from text REFERENCES webhook_deliveries(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  UNIQUE (event_id, endpoint_id),
  CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)),
  CHECK ((status = 'pending') = (completed_at IS NULL)),
  CHECK ((status = 'failed') = (failure_reason IS NOT NULL))
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_list ON webhook_deliveries (merchant_id, livemode, seq DESC);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, seq DESC);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

-- Every attempt, once: (delivery_id, attempt) is unique, so two processes can
-- never both record attempt n of one delivery.
CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries(id),
  endpoint_id text NOT NULL REFERENCES webhook_endpoints(id),
  attempt integer NOT NULL CHECK (attempt >= 1),
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL CHECK (duration_ms >= 0),
  status_code integer,
  succeeded boolean NOT NULL,
  error text,
  response_body text,
  UNIQUE (delivery_id, attempt)
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, id DESC);
