-- Posts one chunk of an epoch being settled (docs/settlement.md), in the caller's transaction, which it
-- should be alone in: every payout of the chunk's users (lo_user..hi_user), all parts together, in one
-- ledger flow `settle:epoch:<n>:chunk:<k>` (from the settlement accounts, and `pledged` for released
-- principal) with every row those payouts explain (mining results, miner changes, vesting, savings
-- interest and releases, node earnings, team rewards). A user's epoch appears all at once.
-- Exactly once: the chunk row is taken FOR UPDATE SKIP LOCKED and must not be posted yet (another
-- instance posting it, or a chunk posted before: NULL, nothing done), and the flow key is unique.
-- Locks, in this order: the chunk row, the products whose total falls (pledge), the ledger accounts
-- (id order: the settlement, vesting, savings_interest and pledged accounts and the users' fund
-- accounts), then the users' rows. Returns what it posted as jsonb, or NULL.
CREATE OR REPLACE FUNCTION settlement_post_chunk(p_epoch integer, p_chunk integer, p_now timestamptz)
RETURNS jsonb
LANGUAGE plpgsql
SET jit = off
AS $$
DECLARE
  v_started timestamptz := clock_timestamp();
  v_lo integer;
  v_hi integer;
  v_flow_id bigint;
  v_legs integer;
  v_nadi numeric;
  v_usdt numeric;
  v_journal integer := 0;
  v_duration integer;
  -- When each step ended (the answer's phases_ms: where a chunk's time goes).
  v_marks timestamptz[] := ARRAY[]::timestamptz[];
BEGIN
  SELECT lo_user, hi_user INTO v_lo, v_hi FROM settlement_chunks
   WHERE epoch = p_epoch AND chunk = p_chunk AND posted_at IS NULL FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  PERFORM pledge_settle_chunk(p_epoch, v_lo, v_hi, 'lock', NULL, p_now);
  v_marks := v_marks || clock_timestamp();
  PERFORM ledger_legs_prepare();
  -- The legs name flow 0 until the flow is opened (only when there is a leg to post).
  PERFORM mining_settle_chunk(p_epoch, v_lo, v_hi, 'legs', 0, p_now);
  PERFORM pledge_settle_chunk(p_epoch, v_lo, v_hi, 'legs', 0, p_now);
  PERFORM node_settle_chunk(p_epoch, v_lo, v_hi, 'legs', 0, p_now);
  PERFORM team_settle_chunk(p_epoch, v_lo, v_hi, 'legs', 0, p_now);
  v_marks := v_marks || clock_timestamp();
  SELECT count(*),
         coalesce(sum(l.amount) FILTER (WHERE a.kind = 'settlement' AND a.asset = 'NADI'), 0),
         coalesce(sum(l.amount) FILTER (WHERE a.kind = 'settlement' AND a.asset = 'USDT'), 0)
    INTO v_legs, v_nadi, v_usdt
    FROM ledger_legs_in l JOIN ledger_accounts a ON a.id = l.debit_id;
  IF v_legs > 0 THEN
    v_flow_id := ledger_open_flow('settle:epoch:' || p_epoch || ':chunk:' || p_chunk, NULL, 'epoch_settlement',
      json_build_object('epoch', p_epoch, 'chunk', p_chunk, 'lo', v_lo, 'hi', v_hi), p_now);
    UPDATE ledger_legs_in SET flow_id = v_flow_id;
    v_journal := ledger_post_legs(p_now);
  ELSE
    DROP TABLE ledger_legs_in;
  END IF;
  v_marks := v_marks || clock_timestamp();
  PERFORM mining_settle_chunk(p_epoch, v_lo, v_hi, 'apply', v_flow_id, p_now);
  v_marks := v_marks || clock_timestamp();
  PERFORM pledge_settle_chunk(p_epoch, v_lo, v_hi, 'apply', v_flow_id, p_now);
  v_marks := v_marks || clock_timestamp();
  PERFORM node_settle_chunk(p_epoch, v_lo, v_hi, 'apply', v_flow_id, p_now);
  v_marks := v_marks || clock_timestamp();
  PERFORM team_settle_chunk(p_epoch, v_lo, v_hi, 'apply', v_flow_id, p_now);
  v_marks := v_marks || clock_timestamp();
  v_duration := (extract(epoch FROM clock_timestamp() - v_started) * 1000)::integer;
  UPDATE settlement_chunks SET posted_at = p_now, flow_id = v_flow_id, nadi = v_nadi, usdt = v_usdt, duration_ms = v_duration
   WHERE epoch = p_epoch AND chunk = p_chunk;
  RETURN jsonb_build_object('epoch', p_epoch, 'chunk', p_chunk, 'lo', v_lo, 'hi', v_hi, 'flow_id', v_flow_id, 'journal', v_journal,
    'nadi', v_nadi::text, 'usdt', v_usdt::text, 'duration_ms', v_duration,
    'phases_ms', (SELECT jsonb_object_agg(name, ms) FROM (
                    SELECT p.name, round(extract(epoch FROM p.ended - coalesce(lag(p.ended) OVER (ORDER BY p.n), v_started)) * 1000, 1) AS ms
                      FROM unnest(ARRAY['lock', 'legs', 'post', 'mining', 'pledge', 'node', 'team'], v_marks) WITH ORDINALITY AS p(name, ended, n)) x));
END;
$$;
