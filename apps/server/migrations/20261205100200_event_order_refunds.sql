-- Up Migration
-- A ticket order refunded (docs/EVENTS.md "Refunds"): when, its tickets void.
ALTER TABLE event_orders ADD COLUMN refunded_at timestamptz;
