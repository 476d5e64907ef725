-- Up Migration
-- The front desk on the till (docs/HOSPITALITY.md, "Front desk on the till"): the property, its
-- room types, rooms, rates and reservations join the change feed (docs/SYNC.md, "Change feed").

-- One property per account and mode: the feed names its one document `property`.
ALTER TABLE hospitality_properties ADD COLUMN id text NOT NULL DEFAULT 'property' CHECK (id = 'property');

-- What the desk reads of a stay offline: its folio's balance, the room nights posted to it and how
-- many guests the register holds. Triggers on the lines and the register keep them, so a line or a
-- registration rewrites the reservation's row and moves it in the feed.
ALTER TABLE hospitality_reservations
  ADD COLUMN folio_balance bigint NOT NULL DEFAULT 0,
  ADD COLUMN folio_nights_posted integer NOT NULL DEFAULT 0,
  ADD COLUMN registered_guests integer NOT NULL DEFAULT 0;
UPDATE hospitality_reservations r SET folio_balance = lines.balance, folio_nights_posted = lines.nights
  FROM (SELECT reservation_id, sum(amount) AS balance, count(*) FILTER (WHERE kind = 'room') AS nights
          FROM hospitality_folio_lines GROUP BY reservation_id) AS lines
 WHERE lines.reservation_id = r.id;
UPDATE hospitality_reservations r SET registered_guests = guests.registered
  FROM (SELECT reservation_id, count(*) AS registered FROM hospitality_guest_registrations
         GROUP BY reservation_id) AS guests
 WHERE guests.reservation_id = r.id;

-- Per statement: the night audit writes a night's lines in one insert, and the stay moves once.
-- Lines are never updated or deleted (a correction is an adjustment line).
CREATE FUNCTION hospitality_folio_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE hospitality_reservations r
     SET folio_balance = r.folio_balance + added.amount, folio_nights_posted = r.folio_nights_posted + added.nights
    FROM (SELECT reservation_id, sum(amount) AS amount, count(*) FILTER (WHERE kind = 'room') AS nights
            FROM inserted GROUP BY reservation_id) AS added
   WHERE r.id = added.reservation_id;
  RETURN NULL;
END $$;
CREATE TRIGGER folio_totals AFTER INSERT ON hospitality_folio_lines REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION hospitality_folio_totals();

CREATE FUNCTION hospitality_registered_guests() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE hospitality_reservations r SET registered_guests = r.registered_guests + added.registered
    FROM (SELECT reservation_id, count(*) AS registered FROM inserted GROUP BY reservation_id) AS added
   WHERE r.id = added.reservation_id;
  RETURN NULL;
END $$;
CREATE TRIGGER registered_guests AFTER INSERT ON hospitality_guest_registrations REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION hospitality_registered_guests();

-- The property's one row, the setup (room types and rooms are archived, never deleted: the feed
-- sends an archived one as deleted) and the stays. A rate's delete is soft from now on
-- (`deleted_at`, which joining the feed adds), and every read of rates skips deleted ones.
SELECT enable_change_feed('hospitality_properties', ARRAY['merchant_id', 'livemode']);
SELECT enable_change_feed('hospitality_room_types', ARRAY['merchant_id', 'livemode']);
SELECT enable_change_feed('hospitality_rooms', ARRAY['merchant_id', 'livemode']);
SELECT enable_change_feed('hospitality_rates', ARRAY['merchant_id', 'livemode']);
SELECT enable_change_feed('hospitality_reservations', ARRAY['merchant_id', 'livemode']);
