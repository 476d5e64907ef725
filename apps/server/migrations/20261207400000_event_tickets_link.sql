-- Up Migration
-- The buyer's tickets page at /t/{token} (docs/EVENTS.md "The buyer's tickets"): a short random token per order, made when it is paid.
ALTER TABLE event_orders ADD COLUMN tickets_token text UNIQUE;
