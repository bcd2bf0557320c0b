-- What the settlement account pays each holder of an epoch's node rewards (docs/settlement.md), per
-- asset; settlement_plan sums it with the other parts' to size the chunks.
CREATE OR REPLACE FUNCTION node_settle_owed(p_epoch integer)
RETURNS TABLE (user_id integer, nadi numeric, usdt numeric)
LANGUAGE sql STABLE AS $$
  SELECT user_id, sum(mining_income + dividend_nadi), sum(dividend_usdt) FROM node_settle_stage WHERE epoch = p_epoch GROUP BY user_id
$$;
