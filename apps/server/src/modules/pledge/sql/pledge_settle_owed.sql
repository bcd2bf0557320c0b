-- What the settlement account pays each user of an epoch's savings (docs/settlement.md): their staged
-- interest (paid into savings_interest with their chunk). Released principal comes from `pledged`,
-- not the settlement account. settlement_plan sums it with the other parts' to size the chunks.
CREATE OR REPLACE FUNCTION pledge_settle_owed(p_epoch integer)
RETURNS TABLE (user_id integer, nadi numeric, usdt numeric)
LANGUAGE sql STABLE AS $$
  SELECT user_id, coalesce(sum(paid), 0), 0::numeric FROM (
    SELECT user_id, paid FROM pledge_settle_interest_stage WHERE epoch = p_epoch
    UNION ALL
    SELECT user_id, 0 FROM pledge_settle_release_stage WHERE epoch = p_epoch
  ) s GROUP BY user_id
$$;
