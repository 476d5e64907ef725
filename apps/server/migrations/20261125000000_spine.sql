-- Up Migration
-- Merchants, keys and sessions. Keys and session tokens are stored only as SHA-256 hashes.
CREATE TABLE merchants (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'mer\_%'),
  business_name text NOT NULL CHECK (length(business_name) BETWEEN 1 AND 200),
  email text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX merchants_email_key ON merchants (lower(email));

CREATE TABLE api_keys (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'key\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  type text NOT NULL CHECK (type IN ('secret', 'publishable')),
  livemode boolean NOT NULL,
  key_hash text NOT NULL UNIQUE,
  masked text NOT NULL,
  name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX api_keys_merchant ON api_keys (merchant_id, seq DESC);

CREATE TABLE sessions (
  id text PRIMARY KEY CHECK (id LIKE 'ses\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  token_hash text NOT NULL UNIQUE,
  livemode boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

CREATE TABLE customers (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'cus\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  name text,
  email text,
  phone text,
  description text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX customers_list ON customers (merchant_id, livemode, seq DESC);

CREATE TABLE checkouts (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'cs\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  created_by_key text,
  amount bigint NOT NULL CHECK (amount > 0 AND amount <= 999999999999),
  currency text NOT NULL,
  line_items jsonb NOT NULL DEFAULT '[]',
  description text,
  customer_id text REFERENCES customers(id),
  metadata jsonb NOT NULL DEFAULT '{}',
  success_url text,
  cancel_url text,
  status text NOT NULL CHECK (status IN ('open', 'complete', 'expired')),
  payment_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX checkouts_list ON checkouts (merchant_id, livemode, seq DESC);

CREATE TABLE payments (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'pay\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0 AND amount <= 999999999999),
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'failed', 'refunded')),
  phone text NOT NULL CHECK (phone ~ '^255[0-9]{9}$'),
  network text,
  description text,
  customer_id text REFERENCES customers(id),
  checkout_id text REFERENCES checkouts(id),
  metadata jsonb NOT NULL DEFAULT '{}',
  provider text NOT NULL,
  provider_reference text,
  fee bigint,
  net bigint,
  payout_status text NOT NULL DEFAULT 'not_applicable',
  failure_code text,
  failure_message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz,
  failed_at timestamptz,
  refunded_at timestamptz,
  CHECK ((status IN ('paid', 'refunded')) = (fee IS NOT NULL AND net IS NOT NULL)),
  CHECK (fee IS NULL OR (fee >= 0 AND net >= 0 AND fee + net = amount)),
  CHECK ((status = 'failed') = (failure_code IS NOT NULL))
);
CREATE INDEX payments_list ON payments (merchant_id, livemode, seq DESC);
CREATE UNIQUE INDEX payments_provider_ref ON payments (provider, provider_reference) WHERE provider_reference IS NOT NULL;
CREATE INDEX payments_pending ON payments (created_at) WHERE status = 'pending';
ALTER TABLE checkouts ADD FOREIGN KEY (payment_id) REFERENCES payments(id);

-- Double-entry ledger: each transaction's postings sum to zero per currency (checked at commit).
CREATE TABLE ledger_transactions (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'txn\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  type text NOT NULL CHECK (type IN ('payment', 'refund')),
  source_id text NOT NULL,
  currency text NOT NULL,
  amount bigint NOT NULL,
  fee bigint NOT NULL DEFAULT 0,
  net bigint NOT NULL,
  description text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (type, source_id)
);
CREATE INDEX ledger_transactions_list ON ledger_transactions (merchant_id, livemode, seq DESC);

CREATE TABLE ledger_postings (
  id bigserial PRIMARY KEY,
  transaction_id text NOT NULL REFERENCES ledger_transactions(id),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  account text NOT NULL CHECK (account IN ('merchant_available', 'merchant_pending', 'merchant_referral', 'platform_fees', 'provider_clearing')),
  currency text NOT NULL,
  amount bigint NOT NULL CHECK (amount <> 0)
);
CREATE INDEX ledger_postings_balance ON ledger_postings (merchant_id, livemode, account, currency);
CREATE INDEX ledger_postings_transaction ON ledger_postings (transaction_id);

CREATE FUNCTION ledger_transaction_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM ledger_postings WHERE transaction_id = NEW.transaction_id
    GROUP BY currency HAVING sum(amount) <> 0
  ) THEN
    RAISE EXCEPTION 'ledger transaction % does not balance', NEW.transaction_id USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER ledger_postings_balance_check
  AFTER INSERT OR UPDATE ON ledger_postings
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balances();

-- Transactional outbox: written in the same transaction as the change it reports.
CREATE TABLE events (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'evt\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  type text NOT NULL,
  api_version text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz
);
CREATE INDEX events_undispatched ON events (seq) WHERE dispatched_at IS NULL;
CREATE INDEX events_list ON events (merchant_id, livemode, seq DESC);

CREATE TABLE idempotency_keys (
  merchant_id text NOT NULL,
  livemode boolean NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  request_hash text NOT NULL,
  state text NOT NULL CHECK (state IN ('running', 'done')),
  response_status integer,
  response_body jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, livemode, method, path, key)
);
CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);

CREATE TABLE request_logs (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'log\_%'),
  merchant_id text NOT NULL,
  livemode boolean NOT NULL,
  api_key_id text,
  request_id text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  status integer NOT NULL,
  duration_ms integer NOT NULL,
  ip text,
  error_code text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX request_logs_list ON request_logs (merchant_id, livemode, seq DESC);

-- Counters of rate-limiter-flexible's Postgres store, shared by every server process.
CREATE TABLE rate_limits (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
