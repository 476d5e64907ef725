-- Subscriptions (docs/SUBSCRIPTIONS.md). Period n runs from the anchor's n-th
-- boundary to the next (packages/core subscriptions/period.ts); `next_renewal_at`
-- is when the next period opens and is claimed with FOR UPDATE SKIP LOCKED by
-- the scheduler in every server process.
CREATE TABLE subscriptions (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'sub\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  customer_id text NOT NULL REFERENCES customers(id),
  amount bigint NOT NULL CHECK (amount > 0 AND amount <= 999999999999),
  currency text NOT NULL,
  interval text NOT NULL CHECK (interval IN ('day', 'week', 'month', 'year')),
  interval_count integer NOT NULL CHECK (interval_count BETWEEN 1 AND 365),
  phone text NOT NULL CHECK (phone ~ '^255[0-9]{9}$'),
  description text,
  metadata jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL CHECK (status IN ('trialing', 'active', 'past_due', 'canceled')),
  after_final_failure text NOT NULL CHECK (after_final_failure IN ('cancel', 'leave_unpaid')),
  start_at timestamptz NOT NULL,
  -- The start of period 0: the end of the trial, or the start.
  billing_anchor timestamptz NOT NULL CHECK (billing_anchor >= start_at),
  -- The latest period opened; NULL until the first opens.
  current_period integer CHECK (current_period >= 0),
  next_renewal_at timestamptz,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  canceled_at timestamptz,
  cancellation_reason text CHECK (cancellation_reason IN ('requested', 'payment_failed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'canceled') = (canceled_at IS NOT NULL)),
  CHECK (status <> 'canceled' OR next_renewal_at IS NULL)
);
CREATE INDEX subscriptions_list ON subscriptions (merchant_id, livemode, seq DESC);
CREATE INDEX subscriptions_customer ON subscriptions (customer_id);
CREATE INDEX subscriptions_renewal_due ON subscriptions (next_renewal_at) WHERE next_renewal_at IS NOT NULL;

-- One invoice per (subscription, period), whoever opens it.
CREATE TABLE subscription_periods (
  subscription_id text NOT NULL REFERENCES subscriptions(id),
  period integer NOT NULL CHECK (period >= 0),
  invoice_id text NOT NULL UNIQUE REFERENCES invoices(id),
  status text NOT NULL CHECK (status IN ('open', 'paid', 'failed')),
  -- Charges made so far; the next is due at next_attempt_at (NULL while one awaits its outcome, or none is due).
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz,
  first_failed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subscription_id, period),
  CHECK (status = 'open' OR next_attempt_at IS NULL)
);
ALTER TABLE invoices ADD FOREIGN KEY (subscription_id) REFERENCES subscriptions(id);
CREATE INDEX subscription_periods_attempt_due ON subscription_periods (next_attempt_at)
  WHERE next_attempt_at IS NOT NULL;

-- One charge per (period, attempt): two processes never charge one invoice twice.
CREATE TABLE subscription_charges (
  subscription_id text NOT NULL,
  period integer NOT NULL,
  attempt integer NOT NULL CHECK (attempt >= 1),
  payment_id text NOT NULL UNIQUE REFERENCES payments(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subscription_id, period, attempt),
  FOREIGN KEY (subscription_id, period) REFERENCES subscription_periods (subscription_id, period)
);
