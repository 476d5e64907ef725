-- Up Migration
-- The door on the till (docs/EVENTS.md, "Doors"): events, their tiers, tickets, admissions and double
-- admissions join the change feed (docs/SYNC.md, "Change feed"), and an admission keeps the door's
-- scan id, so a door's report of a scan the server already admitted is a repeat, not a second entry.
-- `verdict`: what the server judged the ticket at admission; a door admitting on its own verdict
-- (offline) may have let in a ticket the server would have refused, and the admission says so.
ALTER TABLE event_checkins
  ADD COLUMN scan_id text UNIQUE,
  ADD COLUMN verdict text NOT NULL DEFAULT 'ok' CHECK (verdict IN ('ok', 'unpaid', 'canceled', 'not_yet_valid'));

-- A ticket admitted by a second door that could not know of the first admission (offline): the
-- admission that stands (`checkin_id`, its door and time as they were), the later door's, and when
-- the server learnt of it. One per scan, so a report pushed twice records it once.
CREATE TABLE event_double_admissions (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  event_id text NOT NULL REFERENCES ticketed_events(id),
  ticket_id text NOT NULL REFERENCES event_tickets(id),
  checkin_id text NOT NULL REFERENCES event_checkins(id),
  first_door text NOT NULL,
  first_at timestamptz NOT NULL,
  holder_name text NOT NULL,
  door text NOT NULL,
  admitted_at timestamptz NOT NULL,
  scan_id text NOT NULL UNIQUE,
  detected_at timestamptz NOT NULL
);
CREATE INDEX event_double_admissions_event ON event_double_admissions (event_id, seq);
CREATE INDEX event_double_admissions_ticket ON event_double_admissions (ticket_id);

SELECT enable_change_feed('ticketed_events', ARRAY['merchant_id', 'livemode']);
SELECT enable_change_feed('event_tiers', ARRAY['merchant_id', 'livemode']);
SELECT enable_change_feed('event_tickets', ARRAY['merchant_id', 'livemode']);
SELECT enable_change_feed('event_checkins', ARRAY['merchant_id', 'livemode']);
SELECT enable_change_feed('event_double_admissions', ARRAY['merchant_id', 'livemode']);
