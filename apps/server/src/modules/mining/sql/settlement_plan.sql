-- Cuts an epoch's computed payouts into chunks (docs/settlement.md): every user with a staged row of
-- any part (mining figures or miner changes, savings, nodes, team), in id order, p_chunk_users to a
-- chunk; each chunk is the id range lo_user..hi_user, posted later in its own transaction
-- (settlement_post_chunk). Runs in the computation's transaction, after the four parts and before
-- team_settle_pay (it needs the users, not the amounts). Returns {chunks, users}.
CREATE OR REPLACE FUNCTION settlement_plan(p_epoch integer, p_chunk_users integer)
RETURNS jsonb
LANGUAGE plpgsql
SET work_mem = '256MB'
SET jit = off
AS $$
DECLARE
  v_chunks integer;
  v_users integer;
BEGIN
  IF p_chunk_users IS NULL OR p_chunk_users < 1 THEN
    RAISE EXCEPTION 'settlement plan of epoch %: chunk size % is not a positive whole number', p_epoch, p_chunk_users USING ERRCODE = 'NS003';
  END IF;
  INSERT INTO settlement_chunks (epoch, chunk, lo_user, hi_user, users, nadi, usdt)
  WITH u AS (
    SELECT user_id FROM mining_settle_stage WHERE epoch = p_epoch
    UNION SELECT user_id FROM mining_settle_miner_stage WHERE epoch = p_epoch
    UNION SELECT user_id FROM pledge_settle_owed(p_epoch)
    UNION SELECT user_id FROM node_settle_owed(p_epoch)
    UNION SELECT user_id FROM team_settle_owed(p_epoch)
  ), n AS (
    SELECT user_id, ((row_number() OVER (ORDER BY user_id)) - 1) / p_chunk_users AS chunk FROM u
  )
  SELECT p_epoch, chunk, min(user_id), max(user_id), count(*), 0, 0 FROM n GROUP BY chunk ORDER BY chunk;
  SELECT count(*), coalesce(sum(users), 0) INTO v_chunks, v_users FROM settlement_chunks WHERE epoch = p_epoch;
  RETURN jsonb_build_object('chunks', v_chunks, 'users', v_users);
END;
$$;
