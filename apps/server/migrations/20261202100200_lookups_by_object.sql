-- A payment's page in the back office reads the transactions and the webhook deliveries of
-- one object (GET /v1/transactions?source=, GET /v1/webhook-deliveries?object=): without
-- these each read would scan every line or event of the merchant.
CREATE INDEX IF NOT EXISTS ledger_transactions_source ON ledger_transactions (source_id);
CREATE INDEX IF NOT EXISTS events_object ON events (merchant_id, livemode, ((data -> 'object' ->> 'id')));
