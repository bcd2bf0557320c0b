-- Set-based posting of many flows in one statement.
--
-- ledger_post (migration 0003) applied a flow leg by leg: two UPDATEs and one INSERT per leg, each
-- a statement of its own. The market's single writer now settles a whole batch of commands (tens
-- of flows, a hundred legs) at once, so the work under the locks is written as a few set-based
-- statements over all legs instead:
--   ledger_lock_accounts  resolve the accounts of any number of legs and lock them, lowest id first
--                         (the product's one lock order, across all flows of the batch);
--   ledger_post_flows     record the flows under their idempotency keys, compute every account's
--                         balances after each leg (running sums in leg order), refuse the whole post
--                         if a user balance would go below zero at any step, append the journal rows
--                         with those balances, and write each account once with its final balance.
-- ledger_post keeps its signature and its errors (it posts a list of one flow): NL001 a key was
-- used before, NL002 a user balance would go below zero, NL003 an account does not exist.

-- Locks every account the legs name, lowest id first, and returns them as
-- {"ids": {ref: account id}, "accounts": {account id: [available, frozen, version, is_system]}}:
-- the balances as locked, which the caller computes from without reading the rows again.
CREATE FUNCTION ledger_lock_accounts(p_legs jsonb) RETURNS jsonb
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
--> statement-breakpoint

CREATE FUNCTION ledger_refuse_negative(p_account_id bigint) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'balance of account % would go below zero', p_account_id USING ERRCODE = 'NL002';
END;
$$;
--> statement-breakpoint

-- Posts flows [{key, user_id, type, params_hash, legs: [...]}, ...] in list order, all or nothing.
-- Returns {"flows": {key: flow id}, "available": {ref: available after, as text}} (the latter for the user
-- accounts the flows touched: a caller that keeps balances in memory starts again from them).
CREATE FUNCTION ledger_post_flows(p_flows jsonb, p_now timestamptz) RETURNS jsonb
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
--> statement-breakpoint

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
