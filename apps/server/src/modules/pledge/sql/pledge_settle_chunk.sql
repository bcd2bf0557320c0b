-- One chunk of an epoch's savings payouts (docs/settlement.md), for the users p_lo..p_hi of the stage
-- pledge_settle_epoch wrote; settlement_post_chunk calls it in the chunk's transaction:
--   'lock'   before the ledger: the products whose total falls with the chunk's releases, in id order
--            (a join takes its product before its flow, and so does the chunk);
--   'legs'   one leg settlement → savings_interest for the chunk's interest, and per releasing user
--            their principal pledged → fund (`release_pledge_income`);
--   'apply'  after the ledger: pledge_interest_lines, each position's interest_total, each user's
--            claimable interest; the released positions (redeemed at the epoch's end, their products'
--            totals fall) and their running miners (stopped, power log `withdraw`).
-- Every statement names the chunk's id range on the table it writes too, so that the planner reads
-- that range of its index whatever it guesses of the stage (no statistics yet), never the whole table.
-- Locks, after the ledger accounts: positions, pledge_interest, miners and user_power rows of the
-- chunk's users (every other writer of those posts its flow first).
CREATE OR REPLACE FUNCTION pledge_settle_chunk(p_epoch integer, p_lo integer, p_hi integer, p_phase text, p_flow_id bigint, p_now timestamptz)
RETURNS void
LANGUAGE plpgsql
SET jit = off
AS $$
DECLARE
  v_clearing_id bigint;
  v_interest_id bigint;
  v_pledged_id bigint;
  v_ends_at timestamptz;
  v_paid numeric;
  v_releases integer;
  v_done integer;
BEGIN
  IF p_phase = 'lock' THEN
    PERFORM 1 FROM pledge_products
      WHERE id IN (SELECT product_id FROM pledge_settle_release_stage WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi)
      ORDER BY id FOR UPDATE;
    RETURN;
  END IF;
  IF p_phase = 'legs' THEN
    SELECT id INTO v_clearing_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'settlement' AND asset = 'NADI';
    SELECT id INTO v_interest_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'savings_interest' AND asset = 'NADI';
    SELECT id INTO v_pledged_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'pledged' AND asset = 'NADI';
    SELECT coalesce(sum(paid), 0) INTO v_paid FROM pledge_settle_interest_stage WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi;
    IF v_paid > 0 THEN
      INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
      VALUES (16 * 2147483648::bigint + 2, p_flow_id, 'savings_income', 'NADI', v_paid, v_clearing_id, 'available', v_interest_id, 'available',
              jsonb_build_object('epoch', p_epoch));
    END IF;
    INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
    SELECT r.user_id::bigint * 16 + 10, p_flow_id, 'release_pledge_income', 'NADI', r.amount, v_pledged_id, 'available', coalesce(a.id, 0), 'available', NULL
      FROM (SELECT user_id, sum(amount) AS amount FROM pledge_settle_release_stage
             WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi GROUP BY user_id) r
      LEFT JOIN LATERAL (SELECT id FROM ledger_accounts WHERE user_id = r.user_id AND kind = 'fund' AND asset = 'NADI' LIMIT 1) a ON true;
    RETURN;
  END IF;
  IF p_phase <> 'apply' THEN
    RAISE EXCEPTION 'pledge_settle_chunk: unknown phase %', p_phase USING ERRCODE = 'NS003';
  END IF;

  INSERT INTO pledge_interest_lines (epoch, position_id, user_id, amount)
  SELECT p_epoch, position_id, user_id, paid FROM pledge_settle_interest_stage
   WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi ORDER BY position_id;
  UPDATE pledge_positions p SET interest_total = p.interest_total + i.paid
    FROM pledge_settle_interest_stage i
   WHERE i.epoch = p_epoch AND i.user_id BETWEEN p_lo AND p_hi AND p.id = i.position_id AND p.user_id BETWEEN p_lo AND p_hi;
  INSERT INTO pledge_interest (user_id, claimable, claimed_total, updated_at)
  SELECT user_id, sum(paid), 0, p_now FROM pledge_settle_interest_stage
   WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi GROUP BY user_id ORDER BY user_id
  ON CONFLICT (user_id) DO UPDATE SET claimable = pledge_interest.claimable + excluded.claimable, updated_at = excluded.updated_at;

  SELECT count(*) INTO v_releases FROM pledge_settle_release_stage WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi;
  IF v_releases = 0 THEN
    RETURN;
  END IF;
  SELECT ends_at INTO v_ends_at FROM mining_epochs WHERE epoch = p_epoch;
  -- Only the settlement releases a locked position: every staged one is still active, or the
  -- principal just paid would be paid twice.
  UPDATE pledge_positions p SET status = 'redeemed', redeemed_at = v_ends_at, release_flow_id = p_flow_id
    FROM pledge_settle_release_stage r
   WHERE r.epoch = p_epoch AND r.user_id BETWEEN p_lo AND p_hi AND p.id = r.position_id AND p.user_id BETWEEN p_lo AND p_hi AND p.status = 'active';
  GET DIAGNOSTICS v_done = ROW_COUNT;
  IF v_done <> v_releases THEN
    RAISE EXCEPTION 'savings epoch %: % of % positions to release are still active', p_epoch, v_done, v_releases USING ERRCODE = 'NS004';
  END IF;
  UPDATE pledge_products pr SET total = pr.total - r.amount
    FROM (SELECT product_id, sum(amount) AS amount FROM pledge_settle_release_stage
           WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi GROUP BY product_id) r
   WHERE pr.id = r.product_id;
  -- (The changes go through a temporary table: a user_power row the statement that logs them also
  -- updated would no longer be seen by it.)
  CREATE TEMP TABLE settle_power_moves (id bigint, user_id integer, type text, delta bigint) ON COMMIT DROP;
  WITH changed AS (
    UPDATE miners m SET status = 2
      FROM pledge_settle_release_stage r
     WHERE r.epoch = p_epoch AND r.user_id BETWEEN p_lo AND p_hi AND m.id = r.miner_id AND m.user_id BETWEEN p_lo AND p_hi AND m.status = 3
    RETURNING m.id, m.user_id, 'withdraw'::text AS type, -(m.base_power + m.gift_power) AS delta
  )
  INSERT INTO settle_power_moves (id, user_id, type, delta) SELECT id, user_id, type, delta FROM changed;
  PERFORM mining_power_moves(p_epoch, p_now);
END;
$$;
