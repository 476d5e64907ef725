-- The box office: ticket orders sold at a till's counter (channel `till`), paid at
-- the counter with the till's tenders and counted in the till's shift. A sale the
-- till made offline is a fact: when its tiers had no room left by the time it
-- reached the server it is recorded all the same, `oversold`, outside the
-- tiers' and the event's counts (which keep their CHECKs), for the organiser.
ALTER TABLE event_orders
  ADD COLUMN channel text NOT NULL DEFAULT 'online' CHECK (channel IN ('online', 'till')),
  ADD COLUMN till_id text REFERENCES tills(id),
  ADD COLUMN shift_id text REFERENCES shifts(id),
  ADD COLUMN cashier_id text,
  ADD COLUMN receipt_number text,
  ADD COLUMN change_due bigint NOT NULL DEFAULT 0 CHECK (change_due >= 0),
  ADD COLUMN oversold boolean NOT NULL DEFAULT false,
  ALTER COLUMN buyer_phone DROP NOT NULL,
  ADD CONSTRAINT event_orders_till CHECK ((channel = 'till') = (till_id IS NOT NULL));
CREATE INDEX event_orders_shift ON event_orders (shift_id) WHERE shift_id IS NOT NULL;

-- What the counter took for a box-office order, as a retail sale's tenders.
CREATE TABLE event_order_tenders (
  order_id text NOT NULL REFERENCES event_orders(id),
  position integer NOT NULL,
  method text NOT NULL CHECK (method IN ('cash', 'mobile_money', 'card')),
  amount bigint NOT NULL CHECK (amount > 0),
  paid bigint NOT NULL CHECK (paid >= 0),
  payment_id text REFERENCES payments(id),
  reference text,
  PRIMARY KEY (order_id, position)
);
-- A mobile money payment pays for one box-office order.
CREATE UNIQUE INDEX event_order_tenders_payment ON event_order_tenders (payment_id) WHERE payment_id IS NOT NULL;
