-- Up Migration
-- Hospitality: each reservation's folio and the night audit (docs/HOSPITALITY.md,
-- "Folio and night audit").
--
-- A folio line is a charge (positive) or a payment (negative) in whole
-- shillings; the balance is their sum. A night is charged once: the night
-- audit, a check-out and a second process all insert a night's lines under
-- UNIQUE (reservation_id, kind, night), so whoever comes second inserts nothing.
CREATE TABLE hospitality_folio_lines (
  id text PRIMARY KEY CHECK (id LIKE 'fol\_%'),
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  reservation_id text NOT NULL REFERENCES hospitality_reservations(id),
  kind text NOT NULL CHECK (kind IN ('room', 'hotel_levy', 'tourism_levy', 'infrastructure_tax', 'vat',
    'extra', 'adjustment', 'cash', 'mobile_money', 'deposit')),
  -- The night a room, levy or VAT line charges; null for the rest.
  night date,
  description text,
  amount bigint NOT NULL,
  currency text NOT NULL DEFAULT 'TZS' CHECK (currency = 'TZS'),
  -- An extra rung up at the till and charged to the room.
  order_id text REFERENCES retail_orders(id),
  -- A mobile money payment: the payment that paid it.
  payment_id text REFERENCES payments(id),
  -- A non-resident guest's payment in another currency, and the shillings per whole unit it was taken at.
  foreign_currency text,
  foreign_amount bigint CHECK (foreign_amount > 0),
  exchange_rate integer CHECK (exchange_rate > 0),
  -- The night audit that posted the line, or who posted it (an API key, a login, a till).
  audit_id text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (reservation_id, kind, night),
  CHECK ((night IS NOT NULL) = (kind IN ('room', 'hotel_levy', 'tourism_levy', 'infrastructure_tax', 'vat'))),
  CHECK (kind IN ('adjustment', 'room') OR amount <> 0),
  CHECK (kind NOT IN ('cash', 'mobile_money', 'deposit') OR amount < 0),
  CHECK (kind NOT IN ('room', 'hotel_levy', 'tourism_levy', 'infrastructure_tax', 'vat', 'extra') OR amount >= 0),
  CHECK ((kind = 'mobile_money') = (payment_id IS NOT NULL)),
  CHECK ((foreign_currency IS NULL) = (foreign_amount IS NULL) AND (foreign_amount IS NULL) = (exchange_rate IS NULL)),
  CHECK (foreign_currency IS NULL OR kind IN ('cash', 'deposit'))
);
CREATE INDEX hospitality_folio_lines_reservation ON hospitality_folio_lines (reservation_id, seq);
-- A mobile money payment, and a sale charged to the room, land on a folio once.
CREATE UNIQUE INDEX hospitality_folio_lines_payment ON hospitality_folio_lines (payment_id) WHERE payment_id IS NOT NULL;
CREATE UNIQUE INDEX hospitality_folio_lines_order ON hospitality_folio_lines (order_id) WHERE order_id IS NOT NULL;

-- How a folio was closed at check-out: at a zero balance, or by a recorded override.
ALTER TABLE hospitality_reservations
  ADD COLUMN folio_closed_at timestamptz,
  ADD COLUMN folio_closing_balance bigint,
  ADD COLUMN folio_override_reason text,
  ADD COLUMN folio_override_by text;
-- The night audit's claim: stays in house.
CREATE INDEX hospitality_reservations_in_house ON hospitality_reservations (id) WHERE status = 'checked_in';

-- A payment asked for a folio (mobile money at the desk): its success posts the folio's line.
ALTER TABLE payments ADD COLUMN reservation_id text REFERENCES hospitality_reservations(id);

-- A sale charged to a room: the tender names the stay.
ALTER TABLE retail_order_tenders DROP CONSTRAINT retail_order_tenders_method_check;
ALTER TABLE retail_order_tenders ADD CONSTRAINT retail_order_tenders_method_check
  CHECK (method IN ('cash', 'mobile_money', 'card', 'room'));
ALTER TABLE retail_order_tenders ADD COLUMN reservation_id text REFERENCES hospitality_reservations(id);
ALTER TABLE retail_order_tenders ADD CONSTRAINT retail_order_tenders_room
  CHECK ((method = 'room') = (reservation_id IS NOT NULL));

-- Each run of the night audit that posted something, per account: when and what.
CREATE TABLE hospitality_night_audits (
  id text PRIMARY KEY CHECK (id LIKE 'naud\_%'),
  seq bigserial UNIQUE,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  -- The audit's clock when it ran.
  ran_at timestamptz NOT NULL,
  reservations integer NOT NULL CHECK (reservations > 0),
  nights integer NOT NULL CHECK (nights > 0),
  amount bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hospitality_night_audits_list ON hospitality_night_audits (merchant_id, livemode, seq DESC);
