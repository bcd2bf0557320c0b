-- One chunk of an epoch's mining payouts (docs/settlement.md), for the users p_lo..p_hi of the stage
-- mining_settle_epoch wrote; settlement_post_chunk calls it twice in the chunk's transaction:
--   'legs'   adds the ledger legs to ledger_legs_in (made by ledger_legs_prepare, posted by
--            ledger_post_legs): per user and source the immediate part, settlement → fund (device
--            income, destroy profit, power income, as staged), and one leg settlement → vesting for
--            the chunk's locked part.
--   'apply'  after the ledger: the users' mining_results rows, the miners' status changes (only a miner
--            still in the status it was computed in changes) with the power log and user_power, and
--            the vesting (released moves locked → claimable, the new tranche adds to locked, the rate
--            moves by rate_delta).
-- Every statement names the chunk's id range on the table it writes too, so that the planner reads
-- that range of its index whatever it guesses of the stage (no statistics yet), never the whole table.
-- Locks, after the ledger accounts: miners, user_power and mining_vesting rows of the chunk's users
-- (every other writer of user_power or mining_vesting posts its flow first).
CREATE OR REPLACE FUNCTION mining_settle_chunk(p_epoch integer, p_lo integer, p_hi integer, p_phase text, p_flow_id bigint, p_now timestamptz)
RETURNS void
LANGUAGE plpgsql
SET jit = off
AS $$
DECLARE
  v_clearing_id bigint;
  v_vesting_id bigint;
  v_locked numeric;
BEGIN
  IF p_phase = 'legs' THEN
    SELECT id INTO v_clearing_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'settlement' AND asset = 'NADI';
    SELECT id INTO v_vesting_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'vesting' AND asset = 'NADI';
    INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
    SELECT l.ord, p_flow_id, l.type, 'NADI', l.amount, v_clearing_id, 'available', coalesce(a.id, 0), 'available', NULL
      FROM (
        SELECT r.user_id, r.user_id::bigint * 16 + k.n AS ord, k.type, k.amount
          FROM mining_settle_stage r
          CROSS JOIN LATERAL (VALUES (1, 'device_income', r.device_now), (2, 'destroy_profit', r.destroy_now), (3, 'power_income', r.power_now)) AS k(n, type, amount)
         WHERE r.epoch = p_epoch AND r.user_id BETWEEN p_lo AND p_hi AND r.immediate > 0 AND k.amount > 0
      ) l
      LEFT JOIN LATERAL (SELECT id FROM ledger_accounts WHERE user_id = l.user_id AND kind = 'fund' AND asset = 'NADI' LIMIT 1) a ON true;
    SELECT coalesce(sum(locked), 0) INTO v_locked FROM mining_settle_stage WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi;
    IF v_locked > 0 THEN
      INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
      VALUES (16 * 2147483648::bigint + 1, p_flow_id, 'power_income', 'NADI', v_locked, v_clearing_id, 'available', v_vesting_id, 'available',
              jsonb_build_object('epoch', p_epoch, 'locked', true));
    END IF;
    RETURN;
  END IF;
  IF p_phase <> 'apply' THEN
    RAISE EXCEPTION 'mining_settle_chunk: unknown phase %', p_phase USING ERRCODE = 'NS003';
  END IF;

  INSERT INTO mining_results (epoch, user_id, device_power, destroy_power, other_power, device_income, destroy_income, power_income,
    reduction, immediate, locked, released)
  SELECT epoch, user_id, device_power, destroy_power, other_power, device_income, destroy_income, power_income, reduction, immediate, locked, released
    FROM mining_settle_stage
   WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi AND (device_power + destroy_power + other_power > 0 OR released > 0)
   ORDER BY user_id;

  -- Vesting: released moves locked → claimable (no money moves: it is in the vesting account already);
  -- the new tranche adds to locked, the rate moves by rate_delta. A user's first tranche makes the row
  -- (only settlements make mining_vesting rows, so has_vesting, read at the computation, still holds).
  UPDATE mining_vesting v
     SET locked = v.locked - r.released + r.locked,
         claimable = v.claimable + r.released,
         rate = v.rate + r.rate_delta,
         updated_epoch = p_epoch
    FROM mining_settle_stage r
   WHERE r.epoch = p_epoch AND r.user_id BETWEEN p_lo AND p_hi AND v.user_id = r.user_id AND v.user_id BETWEEN p_lo AND p_hi AND r.has_vesting
     AND (r.locked > 0 OR r.released > 0 OR r.rate_delta <> 0);
  INSERT INTO mining_vesting (user_id, locked, claimable, claimed, rate, updated_epoch)
  SELECT r.user_id, r.locked, 0, 0, r.rate_delta, p_epoch
    FROM mining_settle_stage r
   WHERE r.epoch = p_epoch AND r.user_id BETWEEN p_lo AND p_hi AND r.locked > 0 AND NOT r.has_vesting
   ORDER BY r.user_id;

  -- The miners: each changes only from the status it was computed in; the power log and user_power
  -- follow the changes made (the users' user_power rows locked, in id order, before they are read).
  -- (The changes go through a temporary table: a user_power row the statement that logs them also
  -- updated would no longer be seen by it.)
  IF NOT EXISTS (SELECT 1 FROM mining_settle_miner_stage WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi) THEN
    RETURN;
  END IF;
  CREATE TEMP TABLE settle_power_moves (id bigint, user_id integer, type text, delta bigint) ON COMMIT DROP;
  WITH changed AS (
    UPDATE miners m SET status = c.status, released_usdt = m.released_usdt + c.used
      FROM mining_settle_miner_stage c
     WHERE c.epoch = p_epoch AND c.user_id BETWEEN p_lo AND p_hi AND m.id = c.miner_id AND m.user_id BETWEEN p_lo AND p_hi AND m.status = c.from_status
    RETURNING c.miner_id AS id, c.user_id, c.type, c.delta, c.status <> c.from_status AS moved
  )
  INSERT INTO settle_power_moves (id, user_id, type, delta) SELECT id, user_id, type, delta FROM changed WHERE moved;
  PERFORM mining_power_moves(p_epoch, p_now);
END;
$$;
