-- Up Migration
-- Promo codes of an event (docs/EVENTS.md "Promo codes"): a percentage or a
-- fixed amount off, on one tier or the whole event, within a validity window
-- and a usage limit. An order redeems its promo by incrementing `used` only
-- where it stays within `usage_limit` (and a CHECK says so again), so
-- concurrent orders never redeem it more often than allowed; an order that
-- expires gives its use back.
CREATE TABLE event_promos (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  event_id text NOT NULL REFERENCES ticketed_events(id),
  tier_id text REFERENCES event_tiers(id),
  code text NOT NULL,
  percent_off integer CHECK (percent_off BETWEEN 1 AND 100),
  amount_off bigint CHECK (amount_off > 0),
  usage_limit integer CHECK (usage_limit > 0),
  used integer NOT NULL DEFAULT 0,
  valid_from timestamptz,
  valid_until timestamptz,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT event_promos_kind CHECK ((percent_off IS NULL) <> (amount_off IS NULL)),
  CONSTRAINT event_promos_window CHECK (valid_until IS NULL OR valid_from IS NULL OR valid_until > valid_from),
  CONSTRAINT event_promos_usage CHECK (used >= 0 AND (usage_limit IS NULL OR used <= usage_limit))
);
CREATE UNIQUE INDEX event_promos_code ON event_promos (event_id, upper(code)) WHERE deleted_at IS NULL;
CREATE INDEX event_promos_event ON event_promos (event_id, seq);

ALTER TABLE event_orders
  ADD COLUMN promo_id text REFERENCES event_promos(id),
  ADD COLUMN discount bigint NOT NULL DEFAULT 0 CHECK (discount >= 0);
