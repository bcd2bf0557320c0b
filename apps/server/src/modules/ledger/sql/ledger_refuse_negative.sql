-- Raises NL002 for an account whose balance would go below zero: called from inside a statement of
-- ledger_post_flows, which cannot raise by itself.
CREATE OR REPLACE FUNCTION ledger_refuse_negative(p_account_id bigint) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'balance of account % would go below zero', p_account_id USING ERRCODE = 'NL002';
END;
$$;
