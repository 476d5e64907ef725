-- Up Migration
-- Ticketed events: the organizer, events, their tiers, orders and tickets, and
-- check-ins (docs/EVENTS.md).
--
-- No ticket is sold twice over, and the database says so:
-- - each tier and each event counts the tickets held or sold (`taken`), and a
--   CHECK keeps it within the tier's quantity and the event's capacity; an order
--   takes its tickets by incrementing those counters (tiers in id order, then the
--   event), so concurrent buyers wait on the rows' locks and the one that would
--   go over finds nothing left;
-- - a ticket is admitted at most once: UNIQUE (ticket_id) on check-ins.
CREATE TABLE event_organizers (
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  display_name text NOT NULL,
  contact_email text,
  contact_phone text,
  payout_phone text,
  refund_policy text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, livemode)
);

CREATE TABLE ticketed_events (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  name text NOT NULL,
  venue text NOT NULL,
  description text,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  doors_open_at timestamptz,
  time_zone text NOT NULL,
  capacity integer NOT NULL CHECK (capacity >= 0),
  taken integer NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'canceled', 'ended')),
  -- The door key: Ed25519, the public half raw (base64url), the private half
  -- PKCS#8 sealed by the SecretBox, bound to this row.
  door_public_key text NOT NULL,
  door_private_key text NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  published_at timestamptz,
  canceled_at timestamptz,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT ticketed_events_times CHECK (ends_at > starts_at),
  CONSTRAINT ticketed_events_capacity CHECK (taken >= 0 AND taken <= capacity)
);
CREATE INDEX ticketed_events_list ON ticketed_events (merchant_id, livemode, seq DESC);

CREATE TABLE event_tiers (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  event_id text NOT NULL REFERENCES ticketed_events(id),
  name text NOT NULL,
  price bigint NOT NULL CHECK (price >= 0),
  currency text NOT NULL DEFAULT 'TZS' CHECK (currency = 'TZS'),
  quantity integer NOT NULL CHECK (quantity >= 0),
  taken integer NOT NULL DEFAULT 0,
  sales_start timestamptz,
  sales_end timestamptz,
  per_order_limit integer NOT NULL CHECK (per_order_limit BETWEEN 1 AND 100),
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT event_tiers_window CHECK (sales_end IS NULL OR sales_start IS NULL OR sales_end > sales_start),
  CONSTRAINT event_tiers_quantity CHECK (taken >= 0 AND taken <= quantity)
);
CREATE INDEX event_tiers_event ON event_tiers (event_id, seq);

CREATE TABLE event_orders (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  event_id text NOT NULL REFERENCES ticketed_events(id),
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'expired', 'refunded')),
  buyer_name text NOT NULL,
  buyer_phone text NOT NULL,
  buyer_email text,
  amount bigint NOT NULL CHECK (amount >= 0),
  currency text NOT NULL DEFAULT 'TZS',
  checkout_id text REFERENCES checkouts(id),
  payment_id text REFERENCES payments(id),
  held_until timestamptz NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  paid_at timestamptz,
  expired_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_orders_list ON event_orders (merchant_id, livemode, seq DESC);
CREATE INDEX event_orders_event ON event_orders (event_id, status);
CREATE INDEX event_orders_phone ON event_orders (merchant_id, livemode, buyer_phone);
CREATE UNIQUE INDEX event_orders_checkout ON event_orders (checkout_id) WHERE checkout_id IS NOT NULL;
-- The holds the release pass looks for.
CREATE INDEX event_orders_holds ON event_orders (held_until) WHERE status = 'pending';

CREATE TABLE event_order_lines (
  order_id text NOT NULL REFERENCES event_orders(id),
  tier_id text NOT NULL REFERENCES event_tiers(id),
  quantity integer NOT NULL CHECK (quantity > 0),
  unit_price bigint NOT NULL CHECK (unit_price >= 0),
  PRIMARY KEY (order_id, tier_id)
);
CREATE INDEX event_order_lines_tier ON event_order_lines (tier_id);

CREATE TABLE event_tickets (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  event_id text NOT NULL REFERENCES ticketed_events(id),
  tier_id text NOT NULL REFERENCES event_tiers(id),
  order_id text NOT NULL REFERENCES event_orders(id),
  status text NOT NULL CHECK (status IN ('held', 'valid', 'released', 'void')),
  holder_name text NOT NULL,
  -- The signed QR payload, made when the ticket is issued (paid).
  code text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_tickets_order ON event_tickets (order_id);
CREATE INDEX event_tickets_event ON event_tickets (event_id, seq);

CREATE TABLE event_checkins (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  event_id text NOT NULL REFERENCES ticketed_events(id),
  ticket_id text NOT NULL REFERENCES event_tickets(id),
  door text NOT NULL,
  checked_in_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Admitted at most once, across doors and processes.
  CONSTRAINT event_checkins_once UNIQUE (ticket_id)
);
CREATE INDEX event_checkins_event ON event_checkins (event_id, seq);

