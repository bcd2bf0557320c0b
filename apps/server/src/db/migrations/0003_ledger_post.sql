-- ledger_post: posts one flow in a single statement. The application builds and checks the legs;
-- this function does the part that must happen under the locks, without a network round trip per
-- step: record the flow (its key unique), lock every account it touches in id order, apply each leg
-- with the balance checked before the write, and append the journal rows with the balances after.
-- Errors: NL001 the key was used before, NL002 a user balance would go below zero, NL003 an account
-- does not exist. Any error rolls the whole flow back.
CREATE FUNCTION ledger_post(p_key text, p_user_id integer, p_type text, p_params_hash text, p_legs jsonb)
RETURNS TABLE (flow_id bigint, created_at timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  v_flow_id bigint;
  v_now timestamptz := now();
  v_leg jsonb;
  v_amount numeric(78, 0);
  v_debit_id bigint;
  v_credit_id bigint;
  v_debit_part text;
  v_credit_part text;
  v_d ledger_accounts%ROWTYPE;
  v_c ledger_accounts%ROWTYPE;
  v_ids jsonb;
  v_ref record;
  v_id bigint;
  v_account_ids bigint[] := '{}';
BEGIN
  INSERT INTO ledger_flows (idempotency_key, user_id, type, params_hash, created_at)
  VALUES (p_key, p_user_id, p_type, p_params_hash, v_now)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO v_flow_id;
  IF v_flow_id IS NULL THEN
    RAISE EXCEPTION 'ledger flow key % was used before', p_key USING ERRCODE = 'NL001';
  END IF;

  -- Resolve every (owner, kind, asset) to its account by index, one lookup per distinct account
  -- (a set-based join over the JSON would be planned blind and scan the table), then lock them
  -- all, lowest id first: the one lock order of the whole product.
  v_ids := '{}'::jsonb;
  FOR v_ref IN
    SELECT DISTINCT l->>'debit_ref' AS ref, (l->>'debit_user')::int AS user_id, l->>'debit_kind' AS kind, l->>'asset' AS asset FROM jsonb_array_elements(p_legs) l
    UNION
    SELECT l->>'credit_ref', (l->>'credit_user')::int, l->>'credit_kind', l->>'asset' FROM jsonb_array_elements(p_legs) l
  LOOP
    v_id := NULL;
    IF v_ref.user_id IS NULL THEN
      SELECT id INTO v_id FROM ledger_accounts WHERE user_id IS NULL AND kind = v_ref.kind AND asset = v_ref.asset;
    ELSE
      SELECT id INTO v_id FROM ledger_accounts WHERE user_id = v_ref.user_id AND kind = v_ref.kind AND asset = v_ref.asset;
    END IF;
    IF v_id IS NULL THEN
      RAISE EXCEPTION 'ledger account % does not exist', v_ref.ref USING ERRCODE = 'NL003';
    END IF;
    v_ids := v_ids || jsonb_build_object(v_ref.ref, v_id);
    v_account_ids := v_account_ids || v_id;
  END LOOP;
  PERFORM 1 FROM ledger_accounts WHERE id = ANY (v_account_ids) ORDER BY id FOR UPDATE;

  FOR v_leg IN SELECT value FROM jsonb_array_elements(p_legs) LOOP
    v_amount := (v_leg->>'amount')::numeric;
    v_debit_part := v_leg->>'debit_part';
    v_credit_part := v_leg->>'credit_part';
    v_debit_id := (v_ids->>(v_leg->>'debit_ref'))::bigint;
    v_credit_id := (v_ids->>(v_leg->>'credit_ref'))::bigint;

    SELECT * INTO v_d FROM ledger_accounts WHERE id = v_debit_id;
    IF v_debit_part = 'available' THEN v_d.available := v_d.available - v_amount; ELSE v_d.frozen := v_d.frozen - v_amount; END IF;
    IF NOT v_d.is_system AND (v_d.available < 0 OR v_d.frozen < 0) THEN
      RAISE EXCEPTION 'balance of account % would go below zero', v_debit_id USING ERRCODE = 'NL002';
    END IF;
    v_d.version := v_d.version + 1;
    UPDATE ledger_accounts SET available = v_d.available, frozen = v_d.frozen, version = v_d.version WHERE id = v_debit_id;

    SELECT * INTO v_c FROM ledger_accounts WHERE id = v_credit_id;
    IF v_credit_part = 'available' THEN v_c.available := v_c.available + v_amount; ELSE v_c.frozen := v_c.frozen + v_amount; END IF;
    -- A move between two parts of one account is one transfer for that account: one version step.
    IF v_credit_id <> v_debit_id THEN v_c.version := v_c.version + 1; END IF;
    UPDATE ledger_accounts SET available = v_c.available, frozen = v_c.frozen, version = v_c.version WHERE id = v_credit_id;

    INSERT INTO ledger_transfers (flow_id, type, asset, amount, debit_account_id, debit_part, credit_account_id, credit_part,
      debit_available_after, debit_frozen_after, debit_version, credit_available_after, credit_frozen_after, credit_version, memo, created_at)
    VALUES (v_flow_id, v_leg->>'type', v_leg->>'asset', v_amount, v_debit_id, v_debit_part, v_credit_id, v_credit_part,
      CASE WHEN v_credit_id = v_debit_id THEN v_c.available ELSE v_d.available END,
      CASE WHEN v_credit_id = v_debit_id THEN v_c.frozen ELSE v_d.frozen END,
      CASE WHEN v_credit_id = v_debit_id THEN v_c.version ELSE v_d.version END,
      v_c.available, v_c.frozen, v_c.version, v_leg->'memo', v_now);
  END LOOP;

  RETURN QUERY SELECT v_flow_id, v_now;
END;
$$;
