-- One chunk of an epoch's team rewards (docs/settlement.md), for the recipients p_lo..p_hi of the lines
-- team_settle_epoch staged (and team_settle_pay paid); settlement_post_chunk calls it in the chunk's
-- transaction:
--   'legs'   one leg per recipient and kind, settlement → fund NADI;
--   'apply'  after the ledger: the team_rewards lines (with the chunk's flow) and each recipient's
--            team_reward_totals (their other writer, the device direct reward, posts its flow first too).
CREATE OR REPLACE FUNCTION team_settle_chunk(p_epoch integer, p_lo integer, p_hi integer, p_phase text, p_flow_id bigint, p_now timestamptz)
RETURNS void
LANGUAGE plpgsql
SET jit = off
AS $$
DECLARE
  v_kinds constant text[] := ARRAY['share_income', 'community_power_income', 'power_level_income'];
  v_clearing_id bigint;
BEGIN
  IF p_phase = 'legs' THEN
    SELECT id INTO v_clearing_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'settlement' AND asset = 'NADI';
    INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
    SELECT l.ord, p_flow_id, v_kinds[l.k], 'NADI', l.amount, v_clearing_id, 'available', coalesce(a.id, 0), 'available', NULL
      FROM (
        SELECT user_id, k, user_id::bigint * 16 + 6 + k AS ord, sum(amount) AS amount
          FROM team_settle_stage WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi
         GROUP BY user_id, k HAVING sum(amount) > 0
      ) l
      LEFT JOIN LATERAL (SELECT id FROM ledger_accounts WHERE user_id = l.user_id AND kind = 'fund' AND asset = 'NADI' LIMIT 1) a ON true;
    RETURN;
  END IF;
  IF p_phase <> 'apply' THEN
    RAISE EXCEPTION 'team_settle_chunk: unknown phase %', p_phase USING ERRCODE = 'NS003';
  END IF;
  INSERT INTO team_rewards (epoch, user_id, kind, source_user_id, source_depth, source_amount, rate_bps, lower_numerator, wanted, amount, ref, flow_id, created_at)
  SELECT p_epoch, user_id, v_kinds[k], source_user_id, source_depth, source_amount, rate_bps, lower_numerator, wanted, amount, NULL, p_flow_id, p_now
    FROM team_settle_stage
   WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi
   ORDER BY user_id, k, source_user_id;
  INSERT INTO team_reward_totals (user_id, kind, total, last_epoch, last_epoch_amount)
  SELECT user_id, v_kinds[k], sum(amount), p_epoch, sum(amount)
    FROM team_settle_stage WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi
   GROUP BY user_id, k HAVING sum(amount) > 0
   ORDER BY user_id, k
  ON CONFLICT (user_id, kind) DO UPDATE
     SET total = team_reward_totals.total + excluded.total,
         last_epoch_amount = CASE WHEN team_reward_totals.last_epoch = excluded.last_epoch
                                  THEN team_reward_totals.last_epoch_amount + excluded.last_epoch_amount
                                  ELSE excluded.last_epoch_amount END,
         last_epoch = excluded.last_epoch;
END;
$$;
