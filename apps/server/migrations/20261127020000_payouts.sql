-- Up Migration
-- Payouts: money leaving a merchant's available balance for a mobile money wallet or a bank account.
CREATE TABLE payouts (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'po\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'failed')),
  method text NOT NULL CHECK (method IN ('mobile_money', 'bank')),
  phone text CHECK (phone ~ '^255[0-9]{9}$'),
  network text,
  bank_name text,
  account_number text,
  account_name text,
  bic text,
  description text,
  metadata jsonb NOT NULL DEFAULT '{}',
  provider text NOT NULL,
  provider_reference text,
  failure_code text,
  failure_message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz,
  failed_at timestamptz,
  -- When the sandbox's outcome is due (test mode), as for payments; NULL once settled or never.
  settle_at timestamptz,
  CHECK ((method = 'mobile_money') = (phone IS NOT NULL)),
  CHECK ((method = 'bank') = (bank_name IS NOT NULL AND account_number IS NOT NULL AND account_name IS NOT NULL)),
  CHECK ((status = 'failed') = (failure_code IS NOT NULL)),
  CHECK ((status = 'paid') = (paid_at IS NOT NULL))
);
CREATE INDEX payouts_list ON payouts (merchant_id, livemode, seq DESC);
CREATE INDEX payouts_settle_due ON payouts (settle_at) WHERE settle_at IS NOT NULL;
CREATE INDEX payouts_pending ON payouts (created_at) WHERE status = 'pending';
CREATE UNIQUE INDEX payouts_provider_ref ON payouts (provider, provider_reference) WHERE provider_reference IS NOT NULL;

-- One row per merchant, mode and currency, locked (SELECT ... FOR UPDATE through an upsert) by every
-- transaction that takes money out of the available balance: the balance check and the debit are
-- serialised on it. A row lock works on PostgreSQL and on the embedded database alike.
CREATE TABLE balance_locks (
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  currency text NOT NULL,
  PRIMARY KEY (merchant_id, livemode, currency)
);

-- The payout that paid a payment out (its payout_status moved to 'paid' with it); kept after a refund.
ALTER TABLE payments ADD COLUMN payout_id text REFERENCES payouts(id);
ALTER TABLE payments ADD CONSTRAINT payments_payout_status_check
  CHECK (payout_status IN ('not_applicable', 'pending', 'paid'));
ALTER TABLE payments ADD CONSTRAINT payments_payout_paid_has_payout
  CHECK (payout_status <> 'paid' OR payout_id IS NOT NULL);
CREATE INDEX payments_awaiting_payout ON payments (merchant_id, livemode, currency, paid_at)
  WHERE payout_status = 'pending';
CREATE INDEX payments_by_payout ON payments (payout_id) WHERE payout_id IS NOT NULL;
