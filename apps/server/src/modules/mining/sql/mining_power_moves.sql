-- The power log and each user's power for miners a settlement chunk changed (docs/settlement.md): the
-- caller fills the temporary table settle_power_moves (miner id, user, power log type, power delta;
-- made ON COMMIT DROP by the caller) in the chunk's transaction, after its ledger post; this locks
-- the users' user_power rows in id order, logs each change (before / after as running sums per user,
-- in miner id order) and adds the deltas, then drops the table. The mining chunk (status changes)
-- and the savings chunk (released terms' miners) both end their miners' power through it.
CREATE OR REPLACE FUNCTION mining_power_moves(p_epoch integer, p_now timestamptz)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM user_power WHERE user_id IN (SELECT user_id FROM settle_power_moves) ORDER BY user_id FOR UPDATE;
  INSERT INTO power_log (user_id, type, miner_id, before, after, epoch, created_at)
  SELECT c.user_id, c.type, c.id,
         coalesce(p.power, 0) + sum(c.delta) OVER w - c.delta, coalesce(p.power, 0) + sum(c.delta) OVER w, p_epoch, p_now
    FROM settle_power_moves c LEFT JOIN user_power p ON p.user_id = c.user_id
  WINDOW w AS (PARTITION BY c.user_id ORDER BY c.id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
   ORDER BY c.user_id, c.id;
  INSERT INTO user_power (user_id, power, updated_at)
  SELECT user_id, sum(delta), p_now FROM settle_power_moves GROUP BY user_id
  ON CONFLICT (user_id) DO UPDATE SET power = user_power.power + excluded.power, updated_at = excluded.updated_at;
  DROP TABLE settle_power_moves;
END;
$$;
