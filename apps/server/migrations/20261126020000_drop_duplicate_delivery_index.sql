-- Up Migration
-- UNIQUE (event_id, endpoint_id) already indexes deliveries by event first; this
-- second index only cost a write on every fan-out.
DROP INDEX webhook_deliveries_event;
