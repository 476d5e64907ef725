-- When the sandbox's outcome of a test payment is due. Kept with the payment and
-- picked up by a poller (FOR UPDATE SKIP LOCKED), so a settlement survives
-- restarts and database outages; NULL when none is due (the stays-pending number).
ALTER TABLE payments ADD COLUMN settle_at timestamptz;
UPDATE payments SET settle_at = now()
  WHERE status = 'pending' AND provider = 'sandbox' AND phone <> '255700000003';
CREATE INDEX payments_settle_due ON payments (settle_at) WHERE settle_at IS NOT NULL;
