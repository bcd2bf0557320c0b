-- ledger_post: posts one flow in a single statement, as a list of one flow through ledger_post_flows
-- (runFlow / postFlow in ledger.ts). The application builds and checks the legs and hashes the
-- parameters. Errors: NL001 the key was used before, NL002 a user balance would go below zero, NL003
-- an account does not exist. Any error rolls the whole flow back.
CREATE OR REPLACE FUNCTION ledger_post(p_key text, p_user_id integer, p_type text, p_params_hash text, p_legs jsonb)
RETURNS TABLE (flow_id bigint, created_at timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := now();
  v_posted jsonb;
BEGIN
  v_posted := ledger_post_flows(
    jsonb_build_array(jsonb_build_object('key', p_key, 'user_id', p_user_id, 'type', p_type, 'params_hash', p_params_hash, 'legs', p_legs)), v_now);
  RETURN QUERY SELECT (v_posted->'flows'->>p_key)::bigint, v_now;
END;
$$;
