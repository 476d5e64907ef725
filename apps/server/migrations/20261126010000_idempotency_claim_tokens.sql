-- Up Migration
-- Each claim carries its request's token, and only the holder of the claim can
-- complete the key: `complete_idempotency_key` raises otherwise, so the
-- transaction it closes rolls back. The request's transaction may then be sent
-- in the same packet as its claim, before the claim's answer is known. A claim
-- taken over as abandoned can no longer be completed by its first holder.
ALTER TABLE idempotency_keys ADD COLUMN claim_token text;

DROP FUNCTION claim_idempotency_key(text, boolean, text, text, text, text, integer);

CREATE FUNCTION claim_idempotency_key(
  p_merchant text, p_livemode boolean, p_method text, p_path text, p_key text, p_hash text, p_ttl_hours integer,
  p_token text
) RETURNS TABLE (outcome text, response_status integer, response_body jsonb)
LANGUAGE plpgsql AS $$
DECLARE
  existing idempotency_keys%ROWTYPE;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  FOR attempt IN 1..2 LOOP
    INSERT INTO idempotency_keys (merchant_id, livemode, method, path, key, request_hash, state, claim_token)
    VALUES (p_merchant, p_livemode, p_method, p_path, p_key, p_hash, 'running', p_token)
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

-- Stores the response of the request holding the claim; raises TZ409 for any other.
CREATE FUNCTION complete_idempotency_key(
  p_merchant text, p_livemode boolean, p_method text, p_path text, p_key text, p_token text,
  p_status integer, p_body jsonb
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE idempotency_keys k
  SET state = 'done', response_status = p_status, response_body = p_body
  WHERE k.merchant_id = p_merchant AND k.livemode = p_livemode AND k.method = p_method AND k.path = p_path
    AND k.key = p_key AND k.state = 'running' AND k.claim_token = p_token;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'idempotency key is not held by this request' USING ERRCODE = 'TZ409';
  END IF;
END $$;
