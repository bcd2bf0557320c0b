-- The team rewards in an epoch's computation (docs/team.md, "Rewards"; docs/settlement.md), set-based,
-- in the run's first transaction, which locks no user's accounts: share income (levels 1 and 2),
-- community power income with level difference and power level income, all on the epoch's mining
-- income (mining_settle_stage: device + destroy + power income, before vesting): the lines (each names
-- its source and inputs) go to team_settle_stage, which the run's chunks post user by user
-- (team_settle_chunk: the fund legs, team_rewards, team_reward_totals); one ledger leg takes what is
-- paid from the referral pool to the settlement account (team_settle_pay); team_settle_finish
-- writes the team_epochs row when the last chunk has posted. settleEpoch
-- (modules/mining/settlement/settle.ts) calls it after node_settle_epoch, in the same transaction.
-- Errors: NS001 settled already, NS002 not the next epoch (or its mining epoch is not settled), NS003
-- bad input, NS004 the pool would pay more than it may; NL00x from the ledger. The packages/economy
-- reference model (team-model.ts) answers the same lines from the same inputs.
--
-- Settles the team rewards of epoch p_epoch [p_starts_at, p_ends_at), with the parameters in force at it:
--   p_share1_bps, p_share2_bps   share income of a level-1 (direct) and a level-2 referral's income;
--   p_level_usdt[k], p_level_directs[k], p_level_rate[k]   level Vk: the team performance (USDT base
--                                units) and active directs it needs, its community rate (bps);
--   p_power_bps, p_power_min     power level income: this share of one's own income from level p_power_min on;
--   p_now                        the settlement's time (journal rows, team rows, settled_at).
-- Levels are those at the epoch's end: the aggregates of user_performance now, minus what the
-- performance_events created at or after p_ends_at added, plus the purchases made before it that are
-- not folded into the ancestors' figures yet (performance_pending; read in one statement: one
-- snapshot, so a purchase committing meanwhile is seen in all or in none).
-- Lines (wanted > 0 only; team_settle_pay pays each ⌊wanted × payable ÷ Σ wanted⌋ when the pool holds less than Σ wanted):
--   share_income            recipient = the earner's ancestor at depth 1 or 2; source = the earner at
--                           that depth; ⌊income × share bps ÷ 10⁴⌋.
--   community_power_income  per (ancestor A, branch B = A's direct on the way down to the earners, the
--                           earner itself when a direct): over the earners of the branch for whom A's rate
--                           is above the highest rate R between them and A (level difference), source_amount
--                           = Σ their income, lower_numerator = Σ R × income, wanted = ⌊(rate × source_amount
--                           − lower_numerator) ÷ 10⁴⌋ (the numerators summed before rounding); depth 1.
--   power_level_income      the earner itself at level ≥ p_power_min: ⌊income × p_power_bps ÷ 10⁴⌋; depth 0.
-- Locks: team_epochs (one settlement at a time); nothing else (team_settle_pay takes the referral pool
-- at the end of the computation). Returns a summary as jsonb.
CREATE OR REPLACE FUNCTION team_settle_epoch(
  p_epoch integer, p_starts_at timestamptz, p_ends_at timestamptz, p_share1_bps integer, p_share2_bps integer,
  p_level_usdt numeric[], p_level_directs integer[], p_level_rate integer[], p_power_bps integer, p_power_min integer, p_now timestamptz)
RETURNS jsonb
LANGUAGE plpgsql
SET work_mem = '256MB'
SET jit = off
AS $$
DECLARE
  v_started timestamptz := clock_timestamp();
  v_levels integer := cardinality(p_level_usdt);
  v_last integer;
  v_zero_level integer;
  v_zero_rate integer := 0;
  v_earners integer;
  v_leveled integer := 0;
  v_wanted numeric;
  v_lines integer;
  v_duration integer;
  -- When each step ended (the summary's phases_ms: what the time went to).
  v_marks timestamptz[] := ARRAY[]::timestamptz[];
BEGIN
  IF p_epoch IS NULL OR p_epoch < 0 OR p_starts_at IS NULL OR p_ends_at IS NULL OR p_ends_at <= p_starts_at OR p_now IS NULL OR p_now < p_ends_at
     OR p_share1_bps IS NULL OR p_share1_bps NOT BETWEEN 0 AND 10000 OR p_share2_bps IS NULL OR p_share2_bps NOT BETWEEN 0 AND 10000
     OR p_power_bps IS NULL OR p_power_bps NOT BETWEEN 0 AND 10000 OR p_power_min IS NULL OR p_power_min < 0
     OR v_levels IS NULL OR v_levels < 1 OR array_ndims(p_level_usdt) <> 1 OR array_lower(p_level_usdt, 1) <> 1
     OR p_level_directs IS NULL OR array_ndims(p_level_directs) <> 1 OR array_lower(p_level_directs, 1) <> 1 OR cardinality(p_level_directs) <> v_levels
     OR p_level_rate IS NULL OR array_ndims(p_level_rate) <> 1 OR array_lower(p_level_rate, 1) <> 1 OR cardinality(p_level_rate) <> v_levels
     OR EXISTS (SELECT 1 FROM unnest(p_level_usdt, p_level_directs, p_level_rate) AS l(usdt, directs, rate)
                 WHERE l.usdt IS NULL OR l.usdt < 0 OR l.usdt <> trunc(l.usdt) OR l.directs IS NULL OR l.directs < 0
                    OR l.rate IS NULL OR l.rate NOT BETWEEN 0 AND 10000) THEN
    RAISE EXCEPTION 'team settlement of epoch %: invalid input', p_epoch USING ERRCODE = 'NS003';
  END IF;
  LOCK TABLE team_epochs IN SHARE ROW EXCLUSIVE MODE;
  IF EXISTS (SELECT 1 FROM team_epochs WHERE epoch = p_epoch) THEN
    RAISE EXCEPTION 'team epoch % is settled already', p_epoch USING ERRCODE = 'NS001';
  END IF;
  -- The stage of the epochs before (settled: an epoch computes after the one before has posted). Rows,
  -- not TRUNCATE: a reader of the stage (the audit) never waits for, nor deadlocks with, the computation.
  DELETE FROM team_settle_stage WHERE epoch < p_epoch;
  -- In order after the first (whichever epoch settles first once the migration ran), never before the
  -- epoch's mining settlement.
  SELECT max(epoch) INTO v_last FROM team_epochs;
  IF (v_last IS NOT NULL AND p_epoch <> v_last + 1) OR NOT EXISTS (SELECT 1 FROM mining_epochs WHERE epoch = p_epoch) THEN
    RAISE EXCEPTION 'team epoch % cannot settle before epoch % and its mining settlement', p_epoch, coalesce(v_last + 1, p_epoch) USING ERRCODE = 'NS002';
  END IF;

  -- The level of a user with nothing at all (no user_performance row): V0 unless the operator made a
  -- level that needs neither performance nor directs.
  SELECT coalesce(max(k), 0) INTO v_zero_level FROM generate_subscripts(p_level_usdt, 1) k WHERE p_level_usdt[k] = 0 AND p_level_directs[k] = 0;
  IF v_zero_level > 0 THEN
    v_zero_rate := p_level_rate[v_zero_level];
  END IF;

  -- 1. The earners: mining income of the epoch above zero.
  CREATE TEMP TABLE team_settle_earners ON COMMIT DROP AS
  SELECT user_id, device_income + destroy_income + power_income AS income
    FROM mining_settle_stage
   WHERE epoch = p_epoch AND device_income + destroy_income + power_income > 0;
  SELECT count(*) INTO v_earners FROM team_settle_earners;

  -- 2. Levels at the epoch's end, of everyone above V0 (and above the level of nothing). A direct is
  --    active when its own performance at the end is above zero; users.referrer_id names the direct's
  --    referrer (the depth-1 row of user_ancestors, one row per user instead of one per ancestor).
  CREATE TEMP TABLE team_settle_levels ON COMMIT DROP AS
  WITH late AS (
    SELECT user_id, sum(usdt) AS usdt FROM performance_events WHERE created_at >= p_ends_at GROUP BY user_id
  ), team_late AS (
    -- The ancestors' team_performance holds the folded purchases only (docs/team.md "Aggregates"):
    -- take out the folded ones made at or after the end, add the pending ones made before it.
    SELECT a.ancestor_id AS user_id, sum(x.usdt) AS usdt
      FROM (SELECT e.user_id, e.usdt FROM performance_events e
             WHERE e.created_at >= p_ends_at AND NOT EXISTS (SELECT 1 FROM performance_pending q WHERE q.event_id = e.id)
            UNION ALL
            SELECT q.user_id, -q.usdt FROM performance_pending q WHERE q.at < p_ends_at) x
      JOIN user_ancestors a ON a.user_id = x.user_id GROUP BY a.ancestor_id
  ), at_end AS (
    SELECT p.user_id, p.me_performance - coalesce(l.usdt, 0) AS me, p.team_performance - coalesce(t.usdt, 0) AS team
      FROM user_performance p
      LEFT JOIN late l ON l.user_id = p.user_id
      LEFT JOIN team_late t ON t.user_id = p.user_id
  ), active AS (
    SELECT u.referrer_id AS user_id, count(*)::integer AS directs
      FROM at_end e JOIN users u ON u.id = e.user_id
     WHERE e.me > 0 AND u.referrer_id IS NOT NULL
     GROUP BY u.referrer_id
  ), counted AS (
    SELECT coalesce(e.user_id, a.user_id) AS user_id, coalesce(e.team, 0) AS team, coalesce(a.directs, 0) AS directs
      FROM at_end e FULL JOIN active a ON a.user_id = e.user_id
  ), rules AS (
    SELECT k AS level, p_level_usdt[k] AS usdt, p_level_directs[k] AS directs FROM generate_subscripts(p_level_usdt, 1) k
  )
  SELECT c.user_id, max(r.level) AS level, p_level_rate[max(r.level)] AS rate
    FROM counted c JOIN rules r ON c.team >= r.usdt AND c.directs >= r.directs
   GROUP BY c.user_id
  HAVING max(r.level) > v_zero_level;
  SELECT count(*) INTO v_leveled FROM team_settle_levels;
  v_marks := v_marks || clock_timestamp();

  -- 3. Each earner's ancestors, nearest first, with their rates: `branch` is the ancestor's child on
  --    the way down (the row before, or the earner), `below` the highest rate between the earner and
  --    the ancestor (0 for the nearest). Both windows share one sort; only the rows a line needs are
  --    kept (depth 1 and 2 for share income, a rate above `below` for community income).
  CREATE TEMP TABLE team_settle_paths ON COMMIT DROP AS
  WITH chain AS (
    SELECT e.user_id AS earner, e.income, a.ancestor_id, a.depth,
           coalesce(lag(a.ancestor_id) OVER w, e.user_id) AS branch,
           coalesce(l.rate, v_zero_rate) AS rate,
           coalesce(max(coalesce(l.rate, v_zero_rate)) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS below
      FROM team_settle_earners e
      JOIN user_ancestors a ON a.user_id = e.user_id
      LEFT JOIN team_settle_levels l ON l.user_id = a.ancestor_id
    WINDOW w AS (PARTITION BY e.user_id ORDER BY a.depth)
  )
  SELECT earner, income, ancestor_id, depth, branch, rate, below FROM chain WHERE depth <= 2 OR rate > below;
  v_marks := v_marks || clock_timestamp();

  -- 4. The lines and what each wants.
  CREATE TEMP TABLE team_settle_lines ON COMMIT DROP AS
  WITH lines AS (
    SELECT ancestor_id AS user_id, 1 AS k, earner AS source_user_id, depth AS source_depth, income AS source_amount,
           CASE depth WHEN 1 THEN p_share1_bps ELSE p_share2_bps END AS rate_bps, 0::numeric AS lower_numerator,
           div(income * CASE depth WHEN 1 THEN p_share1_bps ELSE p_share2_bps END, 10000) AS wanted
      FROM team_settle_paths WHERE depth <= 2
    UNION ALL
    SELECT ancestor_id, 2, branch, 1, sum(income), min(rate), sum(below * income), div(sum((rate - below) * income), 10000)
      FROM team_settle_paths WHERE rate > below
     GROUP BY ancestor_id, branch
    UNION ALL
    SELECT e.user_id, 3, e.user_id, 0, e.income, p_power_bps, 0, div(e.income * p_power_bps, 10000)
      FROM team_settle_earners e LEFT JOIN team_settle_levels l ON l.user_id = e.user_id
     WHERE coalesce(l.level, v_zero_level) >= p_power_min
  )
  SELECT user_id, k, source_user_id, source_depth, source_amount, rate_bps, lower_numerator, wanted, wanted AS amount
    FROM lines WHERE wanted > 0;
  SELECT coalesce(sum(wanted), 0), count(*) INTO v_wanted, v_lines FROM team_settle_lines;
  v_marks := v_marks || clock_timestamp();

  -- 5. The lines, for their recipients' chunks, each for all it wants: team_settle_pay, the last step
  --    of the computation, pays them all or pro rata from the referral pool.
  INSERT INTO team_settle_stage (epoch, user_id, k, source_user_id, source_depth, source_amount, rate_bps, lower_numerator, wanted, amount)
  SELECT p_epoch, user_id, k, source_user_id, source_depth, source_amount, rate_bps, lower_numerator, wanted, amount
    FROM team_settle_lines
   ORDER BY user_id, k, source_user_id;
  v_marks := v_marks || clock_timestamp();
  v_duration := (extract(epoch FROM clock_timestamp() - v_started) * 1000)::integer;

  -- Statistics of the stage for the chunks' plans (they read it by epoch and user range).
  ANALYZE team_settle_stage;
  DROP TABLE team_settle_lines;
  DROP TABLE team_settle_paths;
  DROP TABLE team_settle_levels;
  DROP TABLE team_settle_earners;
  RETURN jsonb_build_object(
    'epoch', p_epoch, 'wanted', v_wanted::text, 'lines', v_lines, 'earners', v_earners, 'leveled', v_leveled, 'duration_ms', v_duration,
    'phases_ms', (SELECT jsonb_object_agg(name, ms) FROM (
                    SELECT p.name, round(extract(epoch FROM p.ended - coalesce(lag(p.ended) OVER (ORDER BY p.n), v_started)) * 1000) AS ms
                      FROM unnest(ARRAY['levels', 'paths', 'lines', 'stage'], v_marks) WITH ORDINALITY AS p(name, ended, n)) x));
END;
$$;
