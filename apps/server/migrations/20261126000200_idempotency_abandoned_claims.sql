-- Up Migration
-- A claim whose request died with its process (no commit, no release) would hold
-- its key 'running' for good. Requests cannot run past the statement and pool
-- timeouts, so a claim older than two minutes is abandoned: the next request
-- with the key takes it over.
CREATE OR REPLACE FUNCTION claim_idempotency_key(
  p_merchant text, p_livemode boolean, p_method text, p_path text, p_key text, p_hash text, p_ttl_hours integer
) RETURNS TABLE (outcome text, response_status integer, response_body jsonb)
LANGUAGE plpgsql AS $$
DECLARE
  existing idempotency_keys%ROWTYPE;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  FOR attempt IN 1..2 LOOP
    INSERT INTO idempotency_keys (merchant_id, livemode, method, path, key, request_hash, state)
    VALUES (p_merchant, p_livemode, p_method, p_path, p_key, p_hash, 'running')
    ON CONFLICT DO NOTHING;
    IF FOUND THEN
      RETURN QUERY SELECT 'claimed'::text, NULL::integer, NULL::jsonb;
      RETURN;
    END IF;
    SELECT * INTO existing FROM idempotency_keys k
    WHERE k.merchant_id = p_merchant AND k.livemode = p_livemode AND k.method = p_method AND k.path = p_path AND k.key = p_key;
    IF NOT FOUND THEN
      CONTINUE; -- released between the insert and the read
    END IF;
    IF (existing.state = 'done' AND existing.created_at < now() - make_interval(hours => p_ttl_hours))
       OR (existing.state = 'running' AND existing.created_at < now() - interval '2 minutes') THEN
      DELETE FROM idempotency_keys k
      WHERE k.merchant_id = p_merchant AND k.livemode = p_livemode AND k.method = p_method AND k.path = p_path
        AND k.key = p_key AND k.state = existing.state AND k.created_at = existing.created_at;
      CONTINUE;
    END IF;
    IF existing.request_hash <> p_hash THEN
      RETURN QUERY SELECT 'reused'::text, NULL::integer, NULL::jsonb;
    ELSIF existing.state = 'running' THEN
      RETURN QUERY SELECT 'in_flight'::text, NULL::integer, NULL::jsonb;
    ELSE
      RETURN QUERY SELECT 'replay'::text, existing.response_status, existing.response_body;
    END IF;
    RETURN;
  END LOOP;
  RETURN QUERY SELECT 'in_flight'::text, NULL::integer, NULL::jsonb;
END $$;
