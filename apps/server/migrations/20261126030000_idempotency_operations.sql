-- Up Migration
-- Idempotency keys are scoped by (merchant, mode, operation, key): a REST request's
-- operation is its method and path ('POST /v1/payments'), a till command's is its
-- type ('command order.create', the command id being the key). Stored keys move
-- over with their operation spelled from their method and path, so a retry of a
-- request made before this migration still replays.
ALTER TABLE idempotency_keys ADD COLUMN operation text;
UPDATE idempotency_keys SET operation = method || ' ' || path;
ALTER TABLE idempotency_keys ALTER COLUMN operation SET NOT NULL;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys DROP COLUMN method, DROP COLUMN path;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (merchant_id, livemode, operation, key);

DROP FUNCTION claim_idempotency_key(text, boolean, text, text, text, text, integer, text);
DROP FUNCTION complete_idempotency_key(text, boolean, text, text, text, text, integer, jsonb);

-- Claims a key for the request or command holding `p_token`, committed without
-- waiting for the disk (the durable commit of the work it guards flushes it).
-- Answers 'claimed', 'replay' with the stored response, 'reused' (another body)
-- or 'in_flight'. A finished key past its TTL, or a claim left running for two
-- minutes by a process that died, is taken over.
CREATE FUNCTION claim_idempotency_key(
  p_merchant text, p_livemode boolean, p_operation text, p_key text, p_hash text, p_ttl_hours integer,
  p_token text
) RETURNS TABLE (outcome text, response_status integer, response_body jsonb)
LANGUAGE plpgsql AS $$
DECLARE
  existing idempotency_keys%ROWTYPE;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  FOR attempt IN 1..2 LOOP
    INSERT INTO idempotency_keys (merchant_id, livemode, operation, key, request_hash, state, claim_token)
    VALUES (p_merchant, p_livemode, p_operation, p_key, p_hash, 'running', p_token)
    ON CONFLICT DO NOTHING;
    IF FOUND THEN
      RETURN QUERY SELECT 'claimed'::text, NULL::integer, NULL::jsonb;
      RETURN;
    END IF;
    SELECT * INTO existing FROM idempotency_keys k
    WHERE k.merchant_id = p_merchant AND k.livemode = p_livemode AND k.operation = p_operation AND k.key = p_key;
    IF NOT FOUND THEN
      CONTINUE; -- released between the insert and the read
    END IF;
    IF (existing.state = 'done' AND existing.created_at < now() - make_interval(hours => p_ttl_hours))
       OR (existing.state = 'running' AND existing.created_at < now() - interval '2 minutes') THEN
      DELETE FROM idempotency_keys k
      WHERE k.merchant_id = p_merchant AND k.livemode = p_livemode AND k.operation = p_operation
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

-- Stores the response of the holder of the claim; raises TZ409 for anyone else.
CREATE FUNCTION complete_idempotency_key(
  p_merchant text, p_livemode boolean, p_operation text, p_key text, p_token text,
  p_status integer, p_body jsonb
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE idempotency_keys k
  SET state = 'done', response_status = p_status, response_body = p_body
  WHERE k.merchant_id = p_merchant AND k.livemode = p_livemode AND k.operation = p_operation
    AND k.key = p_key AND k.state = 'running' AND k.claim_token = p_token;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'idempotency key is not held by this request' USING ERRCODE = 'TZ409';
  END IF;
END $$;
