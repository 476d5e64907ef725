-- Up Migration
-- Invoices: lines, totals and a status moved only through core's transition table. A number is
-- assigned at finalisation from a per-merchant, per-mode counter row locked and incremented in the
-- finalising transaction, so a rolled-back finalisation gives its number back (no gaps) and drafts
-- never take one.
CREATE TABLE invoices (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'in\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  customer_id text NOT NULL REFERENCES customers(id),
  -- Set by subscriptions for the invoice of a period; no foreign key here, the subscriptions
  -- migration adds its own.
  subscription_id text,
  number text,
  status text NOT NULL CHECK (status IN ('draft', 'open', 'paid', 'void', 'uncollectible')),
  currency text NOT NULL,
  vat_region text NOT NULL CHECK (vat_region IN ('mainland', 'zanzibar')),
  lines jsonb NOT NULL DEFAULT '[]',
  tax_breakdown jsonb NOT NULL DEFAULT '[]',
  subtotal bigint NOT NULL CHECK (subtotal >= 0),
  tax bigint NOT NULL CHECK (tax >= 0),
  total bigint NOT NULL CHECK (total >= 0 AND total <= 999999999999 AND total = subtotal + tax),
  amount_paid bigint NOT NULL DEFAULT 0 CHECK (amount_paid >= 0),
  memo text,
  metadata jsonb NOT NULL DEFAULT '{}',
  due_at timestamptz,
  -- The hosted page's unguessable address.
  hosted_token text NOT NULL UNIQUE,
  -- The latest payment asked for; the one that paid, once paid.
  payment_id text,
  -- When `invoice.overdue` is due (the due date while open); NULL once emitted or not applicable.
  overdue_check_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  finalized_at timestamptz,
  sent_at timestamptz,
  paid_at timestamptz,
  voided_at timestamptz,
  marked_uncollectible_at timestamptz,
  overdue_at timestamptz,
  UNIQUE (merchant_id, livemode, number),
  CHECK ((status = 'draft') = (number IS NULL)),
  CHECK (status = 'draft' OR due_at IS NOT NULL),
  CHECK ((status = 'paid') = (paid_at IS NOT NULL))
);
CREATE INDEX invoices_list ON invoices (merchant_id, livemode, seq DESC);
CREATE INDEX invoices_customer ON invoices (customer_id);
CREATE INDEX invoices_subscription ON invoices (subscription_id) WHERE subscription_id IS NOT NULL;
CREATE INDEX invoices_overdue_due ON invoices (overdue_check_at) WHERE overdue_check_at IS NOT NULL;

CREATE TABLE invoice_number_counters (
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  last_number bigint NOT NULL CHECK (last_number > 0),
  PRIMARY KEY (merchant_id, livemode)
);

-- A payment asked for an invoice; its outcome moves the invoice in the same transaction.
ALTER TABLE payments ADD COLUMN invoice_id text REFERENCES invoices(id);
CREATE INDEX payments_invoice ON payments (invoice_id) WHERE invoice_id IS NOT NULL;
