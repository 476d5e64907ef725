-- Up Migration
-- Apps, referrals and the overview (docs/APPS.md).

-- Apps: a merchant's verticals, per mode. A missing row means installed, so every
-- merchant, new or existing, starts with all of them; removing one keeps its data.
CREATE TABLE merchant_apps (
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  slug text NOT NULL CHECK (slug IN ('retail', 'hospitality', 'events', 'memberships', 'employees', 'printers', 'statutory')),
  installed boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, livemode, slug)
);

-- The overview's calendar days are the merchant's; East Africa Time unless set otherwise.
ALTER TABLE merchants ADD COLUMN time_zone text NOT NULL DEFAULT 'Africa/Dar_es_Salaam';

-- Referrals: every merchant has a code; a merchant may sign up with another's.
ALTER TABLE merchants ADD COLUMN referral_code text;
-- Existing merchants: 10 hex digits with 0 and 1 spelled G and H, so no code holds 0/O or 1/I.
UPDATE merchants SET referral_code = translate(upper(substr(md5(id || random()::text), 1, 10)), '01', 'GH');
ALTER TABLE merchants ALTER COLUMN referral_code SET NOT NULL;
CREATE UNIQUE INDEX merchants_referral_code ON merchants (referral_code);
ALTER TABLE merchants ADD COLUMN referred_by text REFERENCES merchants(id) CHECK (referred_by <> id);
CREATE INDEX merchants_referred_by ON merchants (referred_by) WHERE referred_by IS NOT NULL;

-- A paid payment of a referred merchant waits here, written with the payment's
-- transaction, until a poller posts the referrer's earning and deletes the row.
CREATE TABLE referral_earnings_due (
  payment_id text PRIMARY KEY REFERENCES payments(id),
  merchant_id text NOT NULL REFERENCES merchants(id),
  due_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX referral_earnings_due_at ON referral_earnings_due (due_at);

-- Each earning as the referrer reads it (GET /v1/referrals), written with its ledger transaction.
CREATE TABLE referral_earnings (
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  payment_id text NOT NULL,
  referred_id text NOT NULL REFERENCES merchants(id),
  currency text NOT NULL,
  fee bigint NOT NULL CHECK (fee >= 0),
  amount bigint NOT NULL CHECK (amount >= 0),
  transaction_id text REFERENCES ledger_transactions(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, payment_id),
  CHECK ((amount > 0) = (transaction_id IS NOT NULL))
);
CREATE UNIQUE INDEX referral_earnings_payment ON referral_earnings (payment_id);
CREATE INDEX referral_earnings_referred ON referral_earnings (merchant_id, livemode, referred_id);

-- The overview sums windows of days.
CREATE INDEX payments_created ON payments (merchant_id, livemode, created_at);
CREATE INDEX ledger_transactions_created ON ledger_transactions (merchant_id, livemode, created_at);
