-- What the settlement account pays each recipient of an epoch's team rewards (docs/settlement.md);
-- settlement_plan and the ledger audit sum it with the other parts'.
CREATE OR REPLACE FUNCTION team_settle_owed(p_epoch integer)
RETURNS TABLE (user_id integer, nadi numeric, usdt numeric)
LANGUAGE sql STABLE AS $$
  SELECT user_id, sum(amount), 0::numeric FROM team_settle_stage WHERE epoch = p_epoch GROUP BY user_id
$$;
