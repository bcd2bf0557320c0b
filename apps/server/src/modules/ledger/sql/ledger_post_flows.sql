-- Set-based posting of many flows in one statement (the market's single writer settles a whole batch
-- of commands, tens of flows and a hundred legs, at once): the work under the locks is a few
-- set-based statements over all legs. It records the flows under their idempotency keys, locks their
-- accounts (ledger_lock_accounts, lowest id first: the product's one lock order, across all flows of
-- the batch), computes every account's balances after each leg (running sums in leg order), refuses
-- the whole post if a user balance would go below zero at any step (ledger_refuse_negative), appends
-- the journal rows with those balances, and writes each account once with its final balance.
-- Errors: NL001 a key was used before, NL002 a user balance would go below zero, NL003 an account
-- does not exist.

-- Posts flows [{key, user_id, type, params_hash, legs: [...]}, ...] in list order, all or nothing.
-- Returns {"flows": {key: flow id}, "available": {ref: available after, as text}} (the latter for the user
-- accounts the flows touched: a caller that keeps balances in memory starts again from them).
CREATE OR REPLACE FUNCTION ledger_post_flows(p_flows jsonb, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_flow_ids jsonb;
  v_inserted integer;
  v_available jsonb;
  v_used text;
  v_locked jsonb;
  v_ids jsonb;
  v_accounts jsonb;
BEGIN
  WITH inserted AS (
    INSERT INTO ledger_flows (idempotency_key, user_id, type, params_hash, created_at)
    SELECT x.f->>'key', (x.f->>'user_id')::int, x.f->>'type', x.f->>'params_hash', p_now
      FROM jsonb_array_elements(p_flows) WITH ORDINALITY AS x(f, n) ORDER BY x.n
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id, idempotency_key
  )
  SELECT coalesce(jsonb_object_agg(idempotency_key, id), '{}'::jsonb), count(*) INTO v_flow_ids, v_inserted FROM inserted;
  IF v_inserted <> jsonb_array_length(p_flows) THEN
    SELECT f->>'key' INTO v_used FROM jsonb_array_elements(p_flows) f WHERE NOT v_flow_ids ? (f->>'key') LIMIT 1;
    RAISE EXCEPTION 'ledger flow key % was used before', v_used USING ERRCODE = 'NL001';
  END IF;

  v_locked := ledger_lock_accounts((SELECT coalesce(jsonb_agg(l), '[]'::jsonb) FROM jsonb_array_elements(p_flows) f, jsonb_array_elements(f->'legs') l));
  v_ids := v_locked->'ids';
  v_accounts := v_locked->'accounts';

  WITH legs AS (
    -- Leg order: flows in list order, legs in flow order (a flow has at most 16 legs).
    SELECT x.n * 1000 + y.m AS ord, (v_flow_ids->>(x.f->>'key'))::bigint AS flow_id,
           y.l->>'type' AS type, y.l->>'asset' AS asset, (y.l->>'amount')::numeric(78, 0) AS amount,
           (v_ids->>(y.l->>'debit_ref'))::bigint AS debit_id, y.l->>'debit_part' AS debit_part,
           (v_ids->>(y.l->>'credit_ref'))::bigint AS credit_id, y.l->>'credit_part' AS credit_part, y.l->'memo' AS memo
      FROM jsonb_array_elements(p_flows) WITH ORDINALITY AS x(f, n), jsonb_array_elements(x.f->'legs') WITH ORDINALITY AS y(l, m)
  ), moves AS (
    SELECT ord, debit_id AS account_id,
           CASE WHEN debit_part = 'available' THEN -amount ELSE 0 END AS d_available,
           CASE WHEN debit_part = 'frozen' THEN -amount ELSE 0 END AS d_frozen
      FROM legs
    UNION ALL
    SELECT ord, credit_id,
           CASE WHEN credit_part = 'available' THEN amount ELSE 0 END,
           CASE WHEN credit_part = 'frozen' THEN amount ELSE 0 END
      FROM legs
  ), steps AS (
    -- One step per account and leg: a move between two parts of one account is one transfer for it.
    SELECT account_id, ord, sum(d_available) AS d_available, sum(d_frozen) AS d_frozen FROM moves GROUP BY account_id, ord
  ), locked AS (
    -- The balances as ledger_lock_accounts locked them.
    SELECT key::bigint AS account_id, (value->>0)::numeric(78, 0) AS available, (value->>1)::numeric(78, 0) AS frozen,
           (value->>2)::bigint AS version, (value->>3)::boolean AS is_system
      FROM jsonb_each(v_accounts)
  ), running AS (
    SELECT s.account_id, s.ord, a.is_system,
           a.available + sum(s.d_available) OVER w AS available_after,
           a.frozen + sum(s.d_frozen) OVER w AS frozen_after,
           a.version + row_number() OVER w AS version_after,
           row_number() OVER (PARTITION BY s.account_id ORDER BY s.ord DESC) AS from_last
      FROM steps s JOIN locked a ON a.account_id = s.account_id
    WINDOW w AS (PARTITION BY s.account_id ORDER BY s.ord)
  ), refused AS (
    SELECT ledger_refuse_negative(account_id) FROM running
     WHERE NOT is_system AND (available_after < 0 OR frozen_after < 0) LIMIT 1
  ), journal AS (
    INSERT INTO ledger_transfers (flow_id, type, asset, amount, debit_account_id, debit_part, credit_account_id, credit_part,
      debit_available_after, debit_frozen_after, debit_version, credit_available_after, credit_frozen_after, credit_version, memo, created_at)
    SELECT l.flow_id, l.type, l.asset, l.amount, l.debit_id, l.debit_part, l.credit_id, l.credit_part,
           d.available_after, d.frozen_after, d.version_after, c.available_after, c.frozen_after, c.version_after, l.memo, p_now
      FROM legs l
      JOIN running d ON d.account_id = l.debit_id AND d.ord = l.ord
      JOIN running c ON c.account_id = l.credit_id AND c.ord = l.ord
     ORDER BY l.ord
    RETURNING 1
  ), balances AS (
    UPDATE ledger_accounts a
       SET available = r.available_after, frozen = r.frozen_after, version = r.version_after
      FROM running r
     WHERE r.account_id = a.id AND r.from_last = 1 AND a.id = ANY ((SELECT array_agg(account_id) FROM locked)::bigint[])
    RETURNING 1
  )
  -- Every part is evaluated: a refusal raises NL002 and the whole post rolls back.
  SELECT (SELECT count(*) FROM refused) + (SELECT count(*) FROM journal) + (SELECT count(*) FROM balances),
         (SELECT coalesce(jsonb_object_agg(i.key, r.available_after::text), '{}'::jsonb)
            FROM running r JOIN jsonb_each_text(v_ids) i ON i.value::bigint = r.account_id
           WHERE r.from_last = 1 AND NOT r.is_system)
    INTO v_inserted, v_available;
  RETURN jsonb_build_object('flows', v_flow_ids, 'available', v_available);
END;
$$;
