-- Opens a ledger flow for a function that posts its legs itself (the epoch settlements, through
-- ledger_legs_prepare and ledger_post_legs): records it under its idempotency key with the hash of
-- its parameters (ledger_params_hash, as TypeScript hashes them) and returns its id. Errors: NL001
-- the key was used before.
CREATE OR REPLACE FUNCTION ledger_open_flow(p_key text, p_user_id integer, p_type text, p_params json, p_now timestamptz)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_flow_id bigint;
BEGIN
  INSERT INTO ledger_flows (idempotency_key, user_id, type, params_hash, created_at)
  VALUES (p_key, p_user_id, p_type, ledger_params_hash(p_params), p_now)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO v_flow_id;
  IF v_flow_id IS NULL THEN
    RAISE EXCEPTION 'ledger flow key % was used before', p_key USING ERRCODE = 'NL001';
  END IF;
  RETURN v_flow_id;
END;
$$;
