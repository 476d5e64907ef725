-- Escrow: a paid payment's net held until its splits are released to merchants or
-- phones, with a platform fee; what is not released can go back to the payer.
-- The ledger carries the money (escrow_hold / escrow_release / escrow_refund);
-- these rows carry the states.
CREATE TABLE escrows (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'esc\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  -- A payment is held at most once.
  payment_id text NOT NULL UNIQUE REFERENCES payments(id),
  currency text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  platform_fee bigint NOT NULL CHECK (platform_fee >= 0 AND platform_fee < amount),
  -- The fee is posted with the first release; a refund before any returns it too.
  fee_collected boolean NOT NULL DEFAULT false,
  status text NOT NULL CHECK (status IN ('held', 'partially_released', 'released', 'refunded')),
  refunded_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
  description text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  released_at timestamptz,
  refunded_at timestamptz,
  CHECK ((status = 'released') = (released_at IS NOT NULL)),
  CHECK ((status = 'refunded') = (refunded_at IS NOT NULL))
);
CREATE INDEX escrows_list ON escrows (merchant_id, livemode, seq DESC);

CREATE TABLE escrow_splits (
  id text PRIMARY KEY CHECK (id LIKE 'esp\_%'),
  escrow_id text NOT NULL REFERENCES escrows(id),
  position integer NOT NULL CHECK (position >= 0),
  -- Exactly one recipient: another merchant (same mode as the escrow) or a mobile number.
  recipient_merchant_id text REFERENCES merchants(id),
  phone text,
  network text,
  amount bigint NOT NULL CHECK (amount > 0),
  status text NOT NULL CHECK (status IN ('held', 'sending', 'released', 'refunded')),
  description text,
  transfer_reference text,
  failure_code text,
  failure_message text,
  released_at timestamptz,
  UNIQUE (escrow_id, position),
  CHECK ((recipient_merchant_id IS NULL) <> (phone IS NULL)),
  CHECK (status <> 'sending' OR phone IS NOT NULL),
  CHECK ((status = 'released') = (released_at IS NOT NULL))
);
-- Transfers under way, resumed by a starting process in test mode.
CREATE INDEX escrow_splits_sending ON escrow_splits (escrow_id) WHERE status = 'sending';
