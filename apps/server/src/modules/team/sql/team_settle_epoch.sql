-- The team rewards in the epoch settlement (docs/team.md, "Rewards"), set-based: share income (levels
-- 1 and 2), community power income with level difference and power level income, all on the epoch's
-- mining income (mining_results: device + destroy + power income, before vesting), from the referral
-- pool to the users' fund accounts: team_rewards lines (each names its source and inputs),
-- team_reward_totals, the team_epochs row; ledger flow `team:epoch:<n>`. settleEpoch
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
-- performance_events created at or after p_ends_at added (read in one statement: one snapshot, so a
-- purchase committing meanwhile is seen in both or in neither).
-- Lines (wanted > 0 only; each pays ⌊wanted × payable ÷ Σ wanted⌋ when the pool holds less than Σ wanted):
--   share_income            recipient = the earner's ancestor at depth 1 or 2; source = the earner at
--                           that depth; ⌊income × share bps ÷ 10⁴⌋.
--   community_power_income  per (ancestor A, branch B = A's direct on the way down to the earners, the
--                           earner itself when a direct): over the earners of the branch for whom A's rate
--                           is above the highest rate R between them and A (level difference), source_amount
--                           = Σ their income, lower_numerator = Σ R × income, wanted = ⌊(rate × source_amount
--                           − lower_numerator) ÷ 10⁴⌋ (the numerators summed before rounding); depth 1.
--   power_level_income      the earner itself at level ≥ p_power_min: ⌊income × p_power_bps ÷ 10⁴⌋; depth 0.
-- Locks, in this order: team_epochs (one settlement at a time), the referral pool (from reading what it
-- holds to the commit), the fund accounts (ledger_post_legs, id order), then team_reward_totals rows
-- (their other writer, the device direct reward, posts its flow first too). The levels, paths and lines
-- need no lock and come first. Returns a summary as jsonb.
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
  v_kinds constant text[] := ARRAY['share_income', 'community_power_income', 'power_level_income'];
  v_levels integer := cardinality(p_level_usdt);
  v_last integer;
  v_pool_id bigint;
  v_pool numeric;
  v_zero_level integer;
  v_zero_rate integer := 0;
  v_earners integer;
  v_leveled integer := 0;
  v_wanted numeric;
  v_payable numeric;
  v_paid numeric;
  v_share numeric;
  v_community numeric;
  v_power numeric;
  v_lines integer;
  v_flow_id bigint;
  v_journal integer := 0;
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
    FROM mining_results
   WHERE epoch = p_epoch AND device_income + destroy_income + power_income > 0;
  SELECT count(*) INTO v_earners FROM team_settle_earners;

  -- 2. Levels at the epoch's end, of everyone above V0 (and above the level of nothing). A direct is
  --    active when its own performance at the end is above zero; users.referrer_id names the direct's
  --    referrer (the depth-1 row of user_ancestors, one row per user instead of one per ancestor).
  CREATE TEMP TABLE team_settle_levels ON COMMIT DROP AS
  WITH late AS (
    SELECT user_id, sum(usdt) AS usdt FROM performance_events WHERE created_at >= p_ends_at GROUP BY user_id
  ), team_late AS (
    SELECT a.ancestor_id AS user_id, sum(l.usdt) AS usdt FROM late l JOIN user_ancestors a ON a.user_id = l.user_id GROUP BY a.ancestor_id
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

  -- 5. What is paid: all of it, or each line ⌊wanted × pool ÷ Σ wanted⌋ when the pool holds less. The
  --    device direct reward takes from the referral pool at purchase time too, so the pool is locked
  --    from this read to the commit (ledger_post_legs would lock it anyway, with the fund accounts),
  --    and only now: the work above needs no lock.
  SELECT id, available INTO v_pool_id, v_pool FROM ledger_accounts WHERE user_id IS NULL AND kind = 'referral_pool' AND asset = 'NADI' FOR UPDATE;
  IF v_pool_id IS NULL THEN
    RAISE EXCEPTION 'the referral_pool account must exist' USING ERRCODE = 'NL003';
  END IF;
  v_payable := least(v_wanted, greatest(v_pool, 0));
  IF v_wanted > v_payable THEN
    UPDATE team_settle_lines SET amount = div(wanted * v_payable, v_wanted);
  END IF;
  SELECT coalesce(sum(amount), 0), coalesce(sum(amount) FILTER (WHERE k = 1), 0), coalesce(sum(amount) FILTER (WHERE k = 2), 0),
         coalesce(sum(amount) FILTER (WHERE k = 3), 0)
    INTO v_paid, v_share, v_community, v_power FROM team_settle_lines;
  IF v_paid > v_payable OR EXISTS (SELECT 1 FROM team_settle_lines WHERE amount < 0 OR amount > wanted) THEN
    RAISE EXCEPTION 'team epoch % would pay % of a payable %', p_epoch, v_paid, v_payable USING ERRCODE = 'NS004';
  END IF;

  -- 6. The ledger: one flow, one leg per user and kind, referral pool → fund NADI. Nothing paid: no flow.
  IF v_paid > 0 THEN
    v_flow_id := ledger_open_flow('team:epoch:' || p_epoch, NULL, 'share_income',
      json_build_object('epoch', p_epoch, 'share1Bps', p_share1_bps, 'share2Bps', p_share2_bps,
        'levelUsdt', (SELECT json_agg(v::text ORDER BY n) FROM unnest(p_level_usdt) WITH ORDINALITY AS u(v, n)),
        'levelDirects', to_json(p_level_directs), 'levelRate', to_json(p_level_rate), 'powerBps', p_power_bps, 'powerMin', p_power_min,
        'wanted', v_wanted::text, 'payable', v_payable::text), p_now);
    PERFORM ledger_legs_prepare();
    INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
    SELECT l.ord, v_flow_id, v_kinds[l.k], 'NADI', l.amount, v_pool_id, 'available', coalesce(a.id, 0), 'available', NULL
      FROM (
        SELECT user_id, k, user_id::bigint * 4 + k AS ord, sum(amount) AS amount
          FROM team_settle_lines GROUP BY user_id, k HAVING sum(amount) > 0
         ORDER BY user_id, k
      ) l
      -- One index lookup per user (a join would hash every account of the table).
      LEFT JOIN LATERAL (SELECT id FROM ledger_accounts WHERE user_id = l.user_id AND kind = 'fund' AND asset = 'NADI' LIMIT 1) a ON true;
    v_journal := ledger_post_legs(p_now);
    IF (SELECT available FROM ledger_accounts WHERE id = v_pool_id) < 0 THEN
      RAISE EXCEPTION 'the referral pool would go below zero' USING ERRCODE = 'NS004';
    END IF;
  END IF;
  v_marks := v_marks || clock_timestamp();

  -- 7. The lines and each user's totals per kind, after the ledger.
  INSERT INTO team_rewards (epoch, user_id, kind, source_user_id, source_depth, source_amount, rate_bps, lower_numerator, wanted, amount, ref, flow_id, created_at)
  SELECT p_epoch, user_id, v_kinds[k], source_user_id, source_depth, source_amount, rate_bps, lower_numerator, wanted, amount, NULL, v_flow_id, p_now
    FROM team_settle_lines
   ORDER BY user_id, k, source_user_id;
  INSERT INTO team_reward_totals (user_id, kind, total, last_epoch, last_epoch_amount)
  SELECT user_id, v_kinds[k], sum(amount), p_epoch, sum(amount)
    FROM team_settle_lines GROUP BY user_id, k HAVING sum(amount) > 0
   ORDER BY user_id, k
  ON CONFLICT (user_id, kind) DO UPDATE
     SET total = team_reward_totals.total + excluded.total,
         last_epoch_amount = CASE WHEN team_reward_totals.last_epoch = excluded.last_epoch
                                  THEN team_reward_totals.last_epoch_amount + excluded.last_epoch_amount
                                  ELSE excluded.last_epoch_amount END,
         last_epoch = excluded.last_epoch;

  -- 8. The epoch's row.
  v_marks := v_marks || clock_timestamp();
  v_duration := (extract(epoch FROM clock_timestamp() - v_started) * 1000)::integer;
  INSERT INTO team_epochs (epoch, wanted, payable, paid, lines, flow_id, settled_at)
  VALUES (p_epoch, v_wanted, v_payable, v_paid, v_lines, v_flow_id, p_now);

  DROP TABLE team_settle_lines;
  DROP TABLE team_settle_paths;
  DROP TABLE team_settle_levels;
  DROP TABLE team_settle_earners;
  RETURN jsonb_build_object(
    'epoch', p_epoch, 'flow_id', v_flow_id, 'wanted', v_wanted::text, 'payable', v_payable::text, 'paid', v_paid::text,
    'share_income', v_share::text, 'community_power_income', v_community::text, 'power_level_income', v_power::text,
    'lines', v_lines, 'earners', v_earners, 'leveled', v_leveled, 'journal', v_journal, 'duration_ms', v_duration,
    'phases_ms', (SELECT jsonb_object_agg(name, ms) FROM (
                    SELECT p.name, round(extract(epoch FROM p.ended - coalesce(lag(p.ended) OVER (ORDER BY p.n), v_started)) * 1000) AS ms
                      FROM unnest(ARRAY['levels', 'paths', 'lines', 'ledger', 'rows'], v_marks) WITH ORDINALITY AS p(name, ended, n)) x));
END;
$$;
