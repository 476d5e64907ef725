-- Up Migration
-- The guests of a stay as the guest register records them at check-in
-- (docs/HOSPITALITY.md, "Guest registration"): personal data, read only with
-- the merchant's secret key or at the front desk.
CREATE TABLE hospitality_guest_registrations (
  id text PRIMARY KEY,
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  reservation_id text NOT NULL REFERENCES hospitality_reservations(id),
  name text NOT NULL,
  nationality text NOT NULL CHECK (nationality ~ '^[A-Z]{2}$'),
  id_type text NOT NULL CHECK (id_type IN ('passport', 'national_id', 'driving_licence', 'voter_id', 'other')),
  id_number text NOT NULL,
  id_country text NOT NULL CHECK (id_country ~ '^[A-Z]{2}$'),
  arriving_from text NOT NULL,
  going_to text NOT NULL,
  phone text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hospitality_guest_registrations_reservation ON hospitality_guest_registrations (reservation_id, seq);
