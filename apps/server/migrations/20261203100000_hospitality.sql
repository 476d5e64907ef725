-- Up Migration
-- Hospitality: the property, its room types, rates, rooms and blackouts, and
-- reservations (docs/HOSPITALITY.md).
--
-- No room-night is ever sold twice, and the database says so:
-- - a reservation given a room holds it for its stay through an exclusion
--   constraint on (room, stay) over the states that hold a room;
-- - a reservation not yet given one counts against its room type's rooms, a
--   check made while holding the room type's row lock (every write that can
--   take a room of the type takes that lock first), so two processes booking
--   the last room wait on each other and the second finds it gone.
-- A stay is a range of instants: a nightly stay runs from the arrival's
-- check-in time to the departure's check-out time (so a guest leaving at 10:00
-- and one arriving at 14:00 share the day), a day-use stay its own hours.
CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE TABLE hospitality_properties (
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  name text NOT NULL,
  address_lines jsonb NOT NULL DEFAULT '[]',
  phone text,
  time_zone text NOT NULL DEFAULT 'Africa/Dar_es_Salaam',
  check_in_time text NOT NULL DEFAULT '14:00',
  check_out_time text NOT NULL DEFAULT '10:00',
  star_rating smallint CHECK (star_rating BETWEEN 1 AND 5),
  region text NOT NULL DEFAULT 'mainland' CHECK (region IN ('mainland', 'zanzibar')),
  usd_rate integer CHECK (usd_rate > 0),
  hotel_levy_bps integer CHECK (hotel_levy_bps BETWEEN 0 AND 10000),
  tourism_levy_bps integer CHECK (tourism_levy_bps BETWEEN 0 AND 10000),
  infrastructure_tax_usd integer CHECK (infrastructure_tax_usd >= 0),
  vat_bps integer CHECK (vat_bps BETWEEN 0 AND 10000),
  booking_mode text NOT NULL DEFAULT 'nightly' CHECK (booking_mode IN ('nightly', 'day_use')),
  confirmation text NOT NULL DEFAULT 'instant' CHECK (confirmation IN ('instant', 'on_request')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, livemode)
);

CREATE TABLE hospitality_room_types (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  name text NOT NULL,
  description text,
  max_adults integer NOT NULL CHECK (max_adults >= 1),
  max_children integer NOT NULL CHECK (max_children >= 0),
  base_rate bigint NOT NULL CHECK (base_rate >= 0),
  day_use_rate bigint CHECK (day_use_rate >= 0),
  day_use_block_minutes integer NOT NULL DEFAULT 60 CHECK (day_use_block_minutes > 0),
  -- null: the property's
  booking_mode text CHECK (booking_mode IN ('nightly', 'day_use')),
  confirmation text CHECK (confirmation IN ('instant', 'on_request')),
  metadata jsonb NOT NULL DEFAULT '{}',
  archived_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hospitality_room_types_list ON hospitality_room_types (merchant_id, livemode, seq DESC);

CREATE TABLE hospitality_rooms (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  room_type_id text NOT NULL REFERENCES hospitality_room_types(id),
  number text NOT NULL,
  floor text,
  housekeeping text NOT NULL DEFAULT 'clean'
    CHECK (housekeeping IN ('clean', 'dirty', 'inspected', 'out_of_order')),
  archived_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX hospitality_rooms_number ON hospitality_rooms (merchant_id, livemode, lower(number))
  WHERE archived_at IS NULL;
CREATE INDEX hospitality_rooms_type ON hospitality_rooms (room_type_id) WHERE archived_at IS NULL;
CREATE INDEX hospitality_rooms_list ON hospitality_rooms (merchant_id, livemode, seq DESC);

CREATE TABLE hospitality_rates (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  room_type_id text NOT NULL REFERENCES hospitality_room_types(id),
  starts_on date NOT NULL,
  ends_on date NOT NULL CHECK (ends_on >= starts_on),
  days_of_week smallint[],
  rate bigint NOT NULL CHECK (rate >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hospitality_rates_type ON hospitality_rates (room_type_id, seq);

CREATE TABLE hospitality_blackouts (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  -- Exactly one of them, or neither for the whole property.
  room_type_id text REFERENCES hospitality_room_types(id),
  room_id text REFERENCES hospitality_rooms(id),
  starts_on date NOT NULL,
  ends_on date NOT NULL CHECK (ends_on >= starts_on),
  stay tstzrange NOT NULL,
  reason text,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (room_type_id IS NULL OR room_id IS NULL)
);
CREATE INDEX hospitality_blackouts_stay ON hospitality_blackouts USING gist (merchant_id, livemode, stay)
  WHERE deleted_at IS NULL;

CREATE TABLE hospitality_reservations (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  room_type_id text NOT NULL REFERENCES hospitality_room_types(id),
  room_id text REFERENCES hospitality_rooms(id),
  status text NOT NULL
    CHECK (status IN ('pending', 'confirmed', 'checked_in', 'checked_out', 'canceled', 'no_show')),
  mode text NOT NULL CHECK (mode IN ('nightly', 'day_use')),
  -- Nightly stays: the dates; day use: null.
  arrival date,
  departure date,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL CHECK (ends_at > starts_at),
  stay tstzrange GENERATED ALWAYS AS (tstzrange(starts_at, ends_at, '[)')) STORED,
  adults integer NOT NULL CHECK (adults >= 1),
  children integer NOT NULL CHECK (children >= 0),
  guest_name text NOT NULL,
  guest_phone text,
  guest_email text,
  customer_id text,
  notes text,
  source text NOT NULL CHECK (source IN ('front_desk', 'api', 'channel')),
  quote jsonb NOT NULL,
  total bigint NOT NULL CHECK (total >= 0),
  currency text NOT NULL DEFAULT 'TZS',
  metadata jsonb NOT NULL DEFAULT '{}',
  confirmed_at timestamptz,
  checked_in_at timestamptz,
  checked_out_at timestamptz,
  canceled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((mode = 'nightly') = (arrival IS NOT NULL AND departure IS NOT NULL)),
  CONSTRAINT hospitality_reservations_no_double_booking EXCLUDE USING gist (room_id WITH =, stay WITH &&)
    WHERE (room_id IS NOT NULL AND status IN ('pending', 'confirmed', 'checked_in'))
);
-- The capacity check and availability: a type's holding stays that meet a range.
CREATE INDEX hospitality_reservations_holding ON hospitality_reservations USING gist (room_type_id, stay)
  WHERE status IN ('pending', 'confirmed', 'checked_in');
CREATE INDEX hospitality_reservations_list ON hospitality_reservations (merchant_id, livemode, seq DESC);
CREATE INDEX hospitality_reservations_arrival ON hospitality_reservations (merchant_id, livemode, arrival);
