-- Up Migration
-- Hospitality channels (docs/HOSPITALITY.md, "Channels"): each room type's
-- secret iCal export, and iCal feeds imported on a schedule.
--
-- An export is found by its token's SHA-256 alone: the URL is shown once, and
-- a read of this table opens no calendar. Rotating replaces the hash (the old
-- URL answers 404 at once); revoking deletes the row.
CREATE TABLE hospitality_channel_exports (
  room_type_id text PRIMARY KEY REFERENCES hospitality_room_types(id),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  token_hash text NOT NULL UNIQUE,
  -- The URL's last four characters, so a person can tell which one a channel holds.
  token_hint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A feed is claimed for a fetch (claim_token, claimed_until) so two processes
-- never fetch one at once; a crashed process's claim expires. next_fetch_at is
-- compared with the server's clock, passed as a parameter.
CREATE TABLE hospitality_channel_feeds (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  room_type_id text NOT NULL REFERENCES hospitality_room_types(id),
  name text NOT NULL,
  url text NOT NULL,
  next_fetch_at timestamptz NOT NULL,
  claim_token text,
  claimed_until timestamptz,
  last_fetched_at timestamptz,
  last_status text CHECK (last_status IN ('ok', 'empty', 'failed')),
  last_error text,
  last_event_count integer,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hospitality_channel_feeds_due ON hospitality_channel_feeds (next_fetch_at) WHERE deleted_at IS NULL;
CREATE INDEX hospitality_channel_feeds_list ON hospitality_channel_feeds (merchant_id, livemode, seq DESC);

-- Each event a feed has listed, by its UID: the reservation it became, or why
-- none. `booked`: its reservation holds the dates; `unbooked`: it could not be
-- booked (a conflict says why); `missing`: a later fetch no longer listed it
-- while its stay was still ahead (a conflict for a person, nothing canceled);
-- `gone`: no longer listed and nothing to decide (its stay is over, or it was
-- never booked); `settled`: a person decided its conflict.
CREATE TABLE hospitality_channel_events (
  feed_id text NOT NULL REFERENCES hospitality_channel_feeds(id),
  uid text NOT NULL,
  arrival date NOT NULL,
  departure date NOT NULL,
  summary text,
  reservation_id text REFERENCES hospitality_reservations(id),
  status text NOT NULL CHECK (status IN ('booked', 'unbooked', 'missing', 'gone', 'settled')),
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  PRIMARY KEY (feed_id, uid)
);

-- What a person must decide: an event that could not be booked (`collision`:
-- no room free; `refused`: the booking was refused for another reason), one
-- that disappeared (`missing`) or moved (`changed`) after it was booked.
CREATE TABLE hospitality_channel_conflicts (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  room_type_id text NOT NULL REFERENCES hospitality_room_types(id),
  feed_id text NOT NULL REFERENCES hospitality_channel_feeds(id),
  uid text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('collision', 'refused', 'missing', 'changed')),
  arrival date NOT NULL,
  departure date NOT NULL,
  reservation_id text REFERENCES hospitality_reservations(id),
  detail text NOT NULL,
  -- keep, cancel_reservation, dismiss: a person's decision; feed: the feed settled it itself.
  resolution text CHECK (resolution IN ('keep', 'cancel_reservation', 'dismiss', 'feed')),
  resolved_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX hospitality_channel_conflicts_open ON hospitality_channel_conflicts (feed_id, uid)
  WHERE resolved_at IS NULL;
CREATE INDEX hospitality_channel_conflicts_type ON hospitality_channel_conflicts (room_type_id, seq)
  WHERE resolved_at IS NULL;
