-- Up Migration
-- A front desk step the server refused because another desk (or the API) took the room first
-- (docs/HOSPITALITY.md, "Conflicts"): recorded when the refusal is given, and pulled by every
-- desk, so the desk whose step stood sees the clash as well as the desk whose step was refused.
-- Resolved once, from either desk; a resolved conflict goes down as deleted.
CREATE TABLE hospitality_desk_conflicts (
  id text PRIMARY KEY,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  -- The refused command (its id is the till's), once: a repeated push records nothing new.
  command_id text NOT NULL,
  command_type text NOT NULL,
  till_id text NOT NULL REFERENCES tills(id),
  till_name text NOT NULL,
  -- The refused step's stay (a walk-in refused whole has none on the server) and guest.
  reservation_id text,
  guest_name text,
  room_id text REFERENCES hospitality_rooms(id),
  room_number text,
  -- The stay that holds the room: the one whose step stood.
  holder_reservation_id text REFERENCES hospitality_reservations(id),
  holder_guest_name text,
  code text NOT NULL,
  message text NOT NULL,
  created_at timestamptz NOT NULL,
  resolved_at timestamptz,
  resolved_by_till text REFERENCES tills(id),
  resolved_by_employee text,
  CONSTRAINT hospitality_desk_conflicts_once UNIQUE (merchant_id, livemode, command_id)
);
SELECT enable_change_feed('hospitality_desk_conflicts', ARRAY['merchant_id', 'livemode']);
