-- Locks every account the legs name, lowest id first, and returns them as
-- {"ids": {ref: account id}, "accounts": {account id: [available, frozen, version, is_system]}}:
-- the balances as locked, which the caller computes from without reading the rows again.
CREATE OR REPLACE FUNCTION ledger_lock_accounts(p_legs jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_ids jsonb;
  v_account_ids bigint[];
  v_wanted integer;
  v_missing text;
  v_accounts jsonb;
BEGIN
  -- One index lookup per distinct account (LATERAL ... LIMIT 1 keeps the planner from hashing the
  -- whole table for a handful of rows): owner accounts by (user, kind, asset), system ones by (kind, asset).
  WITH refs AS (
    SELECT DISTINCT l->>'debit_ref' AS ref, (l->>'debit_user')::int AS user_id, l->>'debit_kind' AS kind, l->>'asset' AS asset FROM jsonb_array_elements(p_legs) l
    UNION
    SELECT l->>'credit_ref', (l->>'credit_user')::int, l->>'credit_kind', l->>'asset' FROM jsonb_array_elements(p_legs) l
  ), found AS (
    SELECT r.ref, a.id FROM refs r CROSS JOIN LATERAL (
      SELECT id FROM ledger_accounts WHERE user_id = r.user_id AND kind = r.kind AND asset = r.asset LIMIT 1) a
     WHERE r.user_id IS NOT NULL
    UNION ALL
    SELECT r.ref, a.id FROM refs r CROSS JOIN LATERAL (
      SELECT id FROM ledger_accounts WHERE user_id IS NULL AND kind = r.kind AND asset = r.asset LIMIT 1) a
     WHERE r.user_id IS NULL
  )
  SELECT coalesce(jsonb_object_agg(f.ref, f.id), '{}'::jsonb), coalesce(array_agg(f.id), '{}'), (SELECT count(*) FROM refs)
    INTO v_ids, v_account_ids, v_wanted FROM found f;
  IF cardinality(v_account_ids) <> v_wanted THEN
    SELECT ref INTO v_missing FROM (
      SELECT l->>'debit_ref' AS ref FROM jsonb_array_elements(p_legs) l UNION SELECT l->>'credit_ref' FROM jsonb_array_elements(p_legs) l
    ) r WHERE NOT v_ids ? r.ref LIMIT 1;
    RAISE EXCEPTION 'ledger account % does not exist', v_missing USING ERRCODE = 'NL003';
  END IF;
  WITH locked AS (
    SELECT id, available, frozen, version, is_system FROM ledger_accounts WHERE id = ANY (v_account_ids) ORDER BY id FOR UPDATE
  )
  SELECT coalesce(jsonb_object_agg(id, jsonb_build_array(available, frozen, version, is_system)), '{}'::jsonb) INTO v_accounts FROM locked;
  RETURN jsonb_build_object('ids', v_ids, 'accounts', v_accounts);
END;
$$;
