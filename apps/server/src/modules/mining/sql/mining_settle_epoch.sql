-- The mining part of an epoch's computation (docs/economy.md, "Settlement"; docs/settlement.md),
-- set-based, in the run's first transaction, which locks no user's accounts: counted power, income per
-- user and source, destroy budgets, the immediate / locked split, vesting releases and the miners whose
-- status changes, written to the stage tables (mining_settle_stage, mining_settle_miner_stage) that the
-- run's chunks post user by user (mining_settle_chunk.sql); one ledger leg takes what the epoch pays
-- from the mining pool to the settlement account (flow `mining:epoch:<n>`); the mining_epochs row is
-- written with its figures and no settled_at. Node and pledge miners in status 3 created before the
-- epoch's end count as other power (like the trial) and are never changed by its status step.
-- settleEpoch (modules/mining/settlement/settle.ts) calls it first, then pledge_settle_epoch,
-- node_settle_epoch, team_settle_epoch and settlement_plan, in one transaction.
-- Errors: NS001 the epoch is computed already, NS002 it is not the next one (or the one before is still
-- posting), NS003 bad input, NS004 the pool would pay more than it may; NL001/NL002/NL003 as in the ledger.
--
-- Computes epoch p_epoch [p_starts_at, p_ends_at) with the parameters in force at it:
--   p_emission        E(n), base units;            p_immediate_bps  share credited at once (0..10000);
--   p_vesting_epochs  V of this epoch's tranche;   p_uptime_beats   beats a device needs to count;
--   p_price           USDT base units per NADI at the epoch's end (values destroy income);
--   p_ending_epochs / p_ending_vesting  the earlier epochs whose tranche ends now (n + V(n) = p_epoch) and their V;
--   p_now             the settlement's time (journal rows, computed_at).
-- Locks: mining_epochs (one computation at a time; readers are not blocked), then, at the very end,
-- the mining pool and the settlement account for its one leg. Returns a summary as jsonb.
CREATE OR REPLACE FUNCTION mining_settle_epoch(
  p_epoch integer, p_starts_at timestamptz, p_ends_at timestamptz, p_emission numeric, p_immediate_bps integer,
  p_vesting_epochs integer, p_uptime_beats integer, p_price numeric, p_ending_epochs integer[], p_ending_vesting integer[], p_now timestamptz)
RETURNS jsonb
LANGUAGE plpgsql
-- Sorts and hashes over every mining user stay in memory (the server's default is a few MB); no
-- JIT: compiling each big statement costs more than it saves here.
SET work_mem = '256MB'
SET jit = off
AS $$
DECLARE
  v_started timestamptz := clock_timestamp();
  v_unit constant numeric := 1000000000000000000;
  v_next integer;
  v_pool_id bigint;
  v_pool numeric;
  v_clearing_id bigint;
  v_payable numeric;
  v_network bigint;
  v_users integer;
  v_paid numeric;
  v_locked numeric;
  v_released numeric;
  v_reduction numeric;
  v_flow_id bigint;
  v_journal integer := 0;
  v_results integer;
  v_changes integer;
  v_duration integer;
BEGIN
  IF p_epoch IS NULL OR p_epoch < 0 OR p_starts_at IS NULL OR p_ends_at IS NULL OR p_ends_at <= p_starts_at OR p_now IS NULL OR p_now < p_ends_at
     OR p_emission IS NULL OR p_emission < 0 OR p_emission <> trunc(p_emission) OR p_immediate_bps IS NULL OR p_immediate_bps NOT BETWEEN 0 AND 10000
     OR p_vesting_epochs IS NULL OR p_vesting_epochs < 1 OR p_uptime_beats IS NULL OR p_uptime_beats < 0
     OR p_price IS NULL OR p_price <= 0 OR p_price <> trunc(p_price)
     OR p_ending_epochs IS NULL OR p_ending_vesting IS NULL OR cardinality(p_ending_epochs) <> cardinality(p_ending_vesting)
     OR EXISTS (SELECT 1 FROM unnest(p_ending_epochs, p_ending_vesting) e(epoch, v) WHERE e.epoch IS NULL OR e.v IS NULL OR e.v < 1 OR e.epoch + e.v <> p_epoch) THEN
    RAISE EXCEPTION 'mining settlement of epoch %: invalid input', p_epoch USING ERRCODE = 'NS003';
  END IF;

  -- One settlement at a time (readers of mining_epochs are not blocked); then the order of epochs.
  LOCK TABLE mining_epochs IN SHARE ROW EXCLUSIVE MODE;
  IF EXISTS (SELECT 1 FROM mining_epochs WHERE epoch = p_epoch) THEN
    RAISE EXCEPTION 'mining epoch % is computed already', p_epoch USING ERRCODE = 'NS001';
  END IF;
  SELECT coalesce(max(epoch) + 1, 0) INTO v_next FROM mining_epochs;
  IF p_epoch <> v_next OR EXISTS (SELECT 1 FROM mining_epochs WHERE settled_at IS NULL) THEN
    RAISE EXCEPTION 'mining epoch % cannot settle before epoch %', p_epoch, v_next USING ERRCODE = 'NS002';
  END IF;
  -- The stage of the epochs before (settled: see above). Rows, not TRUNCATE: a reader of the stage
  -- (the audit) never waits for, nor deadlocks with, the computation.
  DELETE FROM mining_settle_stage WHERE epoch < p_epoch;
  DELETE FROM mining_settle_miner_stage WHERE epoch < p_epoch;

  -- Only settlements take from the mining pool, so what it holds now is what this one may pay.
  SELECT id, available INTO v_pool_id, v_pool FROM ledger_accounts WHERE user_id IS NULL AND kind = 'mining_pool' AND asset = 'NADI';
  SELECT id INTO v_clearing_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'settlement' AND asset = 'NADI';
  IF v_pool_id IS NULL OR v_clearing_id IS NULL THEN
    RAISE EXCEPTION 'the mining_pool and settlement accounts must exist' USING ERRCODE = 'NL003';
  END IF;
  v_payable := greatest(0, least(p_emission, v_pool));

  -- 1. Miners that count in the epoch or whose status may change at its end:
  --    trials in status 1 that have started; destroy miners running (status 3) created before the
  --    end; devices running or paused that were online before the end (status 4 waits for its first beat);
  --    node and pledge miners running (status 3) created before the end: they count like a trial
  --    (other_power) and their status is never changed here (a node is held for good, a pledge's
  --    miner ends when it is redeemed or released).
  CREATE TEMP TABLE mining_settle_miners ON COMMIT DROP AS
  SELECT m.id, m.user_id, m.kind, m.status, m.base_power + m.gift_power AS power,
         CASE m.kind WHEN 'trial' THEN p_epoch <= coalesce(m.ends_epoch, p_epoch)
                     WHEN 'destroy' THEN true
                     WHEN 'node' THEN true
                     WHEN 'pledge' THEN true
                     ELSE coalesce(u.beats, 0) >= p_uptime_beats END AS counts,
         m.kind = 'trial' AND coalesce(m.ends_epoch, p_epoch) <= p_epoch AS ends,
         -- A device first seen during the epoch could not prove a whole epoch of uptime: it earns
         -- nothing for it, but is not paused for it either.
         m.kind = 'device' AND coalesce(d.first_seen_at, m.created_at) < p_starts_at AS whole_epoch,
         m.budget_usdt - m.released_usdt AS remaining
    FROM miners m
    LEFT JOIN devices d ON d.id = m.device_id
    LEFT JOIN device_uptime u ON u.device_id = m.device_id AND u.epoch = p_epoch
   WHERE (m.kind = 'trial' AND m.status = 1 AND m.starts_epoch <= p_epoch)
      OR (m.kind = 'destroy' AND m.status = 3 AND m.created_at < p_ends_at)
      OR (m.kind = 'device' AND m.status IN (2, 3) AND coalesce(d.first_seen_at, m.created_at) < p_ends_at)
      OR (m.kind IN ('node', 'pledge') AND m.status = 3 AND m.created_at < p_ends_at);
  SELECT coalesce(sum(power) FILTER (WHERE counts), 0) INTO v_network FROM mining_settle_miners;

  -- 2. Power and income per user and source: floor(payable × power / network power).
  CREATE TEMP TABLE mining_settle_users ON COMMIT DROP AS
  WITH p AS (
    SELECT user_id,
           coalesce(sum(power) FILTER (WHERE counts AND kind = 'device'), 0)::bigint AS device_power,
           coalesce(sum(power) FILTER (WHERE counts AND kind = 'destroy'), 0)::bigint AS destroy_power,
           coalesce(sum(power) FILTER (WHERE counts AND kind IN ('trial', 'node', 'pledge')), 0)::bigint AS other_power
      FROM mining_settle_miners GROUP BY user_id
  )
  SELECT p.*,
         CASE WHEN v_network > 0 THEN div(v_payable * device_power, v_network) ELSE 0 END AS device_income,
         CASE WHEN v_network > 0 THEN div(v_payable * destroy_power, v_network) ELSE 0 END AS destroy_gross,
         CASE WHEN v_network > 0 THEN div(v_payable * other_power, v_network) ELSE 0 END AS power_income
    FROM p;

  -- 3. A user's destroy income split over their destroy miners by power (largest remainder: the
  --    units the floors leave go one each to the largest fractional parts, ties to the older miner),
  --    then each capped by the miner's remaining budget at the price (cappedByBudget).
  CREATE TEMP TABLE mining_settle_destroy ON COMMIT DROP AS
  WITH shares AS (
    SELECT m.id, m.user_id, m.remaining, s.destroy_gross AS gross,
           div(s.destroy_gross * m.power, s.destroy_power) AS base,
           mod(s.destroy_gross * m.power, s.destroy_power) AS frac
      FROM mining_settle_miners m JOIN mining_settle_users s ON s.user_id = m.user_id
     WHERE m.kind = 'destroy' AND s.destroy_power > 0
  ), incomes AS (
    SELECT id, user_id, remaining,
           base + CASE WHEN row_number() OVER (PARTITION BY user_id ORDER BY frac DESC, id) <= gross - sum(base) OVER (PARTITION BY user_id) THEN 1 ELSE 0 END AS income
      FROM shares
  ), capped AS (
    SELECT id, user_id, remaining, income,
           CASE WHEN remaining <= 0 OR income <= 0 THEN 0
                WHEN div(income * p_price, v_unit) < remaining THEN income
                ELSE least(div(remaining * v_unit, p_price), income) END AS paid,
           CASE WHEN remaining <= 0 OR income <= 0 THEN 0
                WHEN div(income * p_price, v_unit) < remaining THEN div(income * p_price, v_unit)
                ELSE remaining END AS used
      FROM incomes
  )
  SELECT id, user_id, income, paid, income - paid AS reduction, used, remaining - used <= 0 AS ends FROM capped;

  -- 4. What each user is paid now and what vests: total = Σ sources; immediate = floor(total × bps);
  --    one leg per source of floor(source × bps), the units that leaves to the first source that has
  --    income (device, destroy, power); locked = total − immediate. Vesting releases: the rate
  --    (Σ slices of tranches still releasing) plus the remainder of the tranches ending now.
  CREATE TEMP TABLE mining_settle_results ON COMMIT DROP AS
  WITH destroy AS (
    SELECT user_id, sum(paid) AS paid, sum(reduction) AS reduction FROM mining_settle_destroy GROUP BY user_id
  ), incomes AS (
    SELECT u.user_id, u.device_power, u.destroy_power, u.other_power, u.device_income,
           coalesce(d.paid, 0) AS destroy_income, u.power_income, coalesce(d.reduction, 0) AS reduction,
           u.device_income + coalesce(d.paid, 0) + u.power_income AS total
      FROM mining_settle_users u LEFT JOIN destroy d ON d.user_id = u.user_id
  ), ending AS (
    SELECT r.user_id, sum(r.locked - e.v * div(r.locked, e.v)) AS remainder, sum(div(r.locked, e.v)) AS slices
      FROM unnest(p_ending_epochs, p_ending_vesting) AS e(epoch, v)
      JOIN mining_results r ON r.epoch = e.epoch
     WHERE r.locked > 0
     GROUP BY r.user_id
  ), releasing AS (
    SELECT coalesce(v.user_id, e.user_id) AS user_id, coalesce(v.rate, 0) + coalesce(e.remainder, 0) AS released, coalesce(e.slices, 0) AS slices
      FROM (SELECT user_id, rate FROM mining_vesting WHERE rate > 0) v FULL JOIN ending e ON e.user_id = v.user_id
  )
  SELECT coalesce(i.user_id, r.user_id) AS user_id,
         coalesce(i.device_power, 0) AS device_power, coalesce(i.destroy_power, 0) AS destroy_power, coalesce(i.other_power, 0) AS other_power,
         coalesce(i.device_income, 0) AS device_income, coalesce(i.destroy_income, 0) AS destroy_income, coalesce(i.power_income, 0) AS power_income,
         coalesce(i.reduction, 0) AS reduction, coalesce(i.total, 0) AS total,
         div(coalesce(i.total, 0) * p_immediate_bps, 10000) AS immediate,
         coalesce(i.total, 0) - div(coalesce(i.total, 0) * p_immediate_bps, 10000) AS locked,
         coalesce(r.released, 0) AS released, coalesce(r.slices, 0) AS slices,
         v.user_id IS NOT NULL AS has_vesting
    FROM incomes i FULL JOIN releasing r ON r.user_id = i.user_id
    LEFT JOIN mining_vesting v ON v.user_id = coalesce(i.user_id, r.user_id);
  SELECT coalesce(sum(total), 0), coalesce(sum(locked), 0), coalesce(sum(released), 0), coalesce(sum(reduction), 0),
         count(*) FILTER (WHERE device_power + destroy_power + other_power > 0)
    INTO v_paid, v_locked, v_released, v_reduction, v_users FROM mining_settle_results;
  IF v_paid > v_payable THEN
    RAISE EXCEPTION 'mining epoch % would pay % of a payable %', p_epoch, v_paid, v_payable USING ERRCODE = 'NS004';
  END IF;

  -- 5. The stage: one row per user who mined, had income released or whose vesting changes; each
  --    chunk (mining_settle_chunk_legs / mining_settle_chunk_apply) posts and applies its users' rows.
  --    rate_delta: the new tranche's slice floor(L / V) less the slices of the tranches that ended.
  --    The immediate part by source (one leg each): floor(source × bps), the units that leaves to the
  --    first source that has income (device, destroy, power).
  INSERT INTO mining_settle_stage (epoch, user_id, device_power, destroy_power, other_power, device_income, destroy_income, power_income,
    reduction, immediate, device_now, destroy_now, power_now, locked, released, rate_delta, has_vesting)
  SELECT p_epoch, user_id, device_power, destroy_power, other_power, device_income, destroy_income, power_income, reduction, immediate,
         div(device_income * p_immediate_bps, 10000) + CASE WHEN device_income > 0 THEN rest ELSE 0 END,
         div(destroy_income * p_immediate_bps, 10000) + CASE WHEN device_income = 0 AND destroy_income > 0 THEN rest ELSE 0 END,
         div(power_income * p_immediate_bps, 10000) + CASE WHEN device_income = 0 AND destroy_income = 0 THEN rest ELSE 0 END,
         locked, released, div(locked, p_vesting_epochs) - slices, has_vesting
    FROM (SELECT r.*, r.immediate - div(r.device_income * p_immediate_bps, 10000) - div(r.destroy_income * p_immediate_bps, 10000)
                        - div(r.power_income * p_immediate_bps, 10000) AS rest
            FROM mining_settle_results r) r
   WHERE device_power + destroy_power + other_power > 0 OR immediate > 0 OR locked > 0 OR released > 0 OR slices > 0
   ORDER BY user_id;
  GET DIAGNOSTICS v_results = ROW_COUNT;

  -- 6. Miner statuses at the epoch's end, staged with the status they leave (applied only if still
  --    in it): a trial past its last epoch expires (1 → 2); a destroy miner whose budget is used
  --    expires (3 → 2) and every destroy miner adds what it earned (at the price) to released_usdt;
  --    a device that did not count over a whole epoch pauses (3 → 2, freeze), a paused one that
  --    counted runs (2 → 3, unlock).
  INSERT INTO mining_settle_miner_stage (epoch, miner_id, user_id, from_status, status, used, type, delta)
  SELECT p_epoch, m.id, m.user_id, m.status,
         CASE WHEN m.kind = 'trial' THEN 2
              WHEN m.kind = 'destroy' THEN CASE WHEN d.ends THEN 2 ELSE m.status END
              WHEN m.status = 3 AND NOT m.counts AND m.whole_epoch THEN 2
              WHEN m.status = 2 AND m.counts THEN 3
              ELSE m.status END,
         coalesce(d.used, 0),
         CASE WHEN m.kind IN ('trial', 'destroy') THEN 'expire' WHEN m.status = 3 THEN 'freeze' ELSE 'unlock' END,
         CASE WHEN m.kind = 'device' AND m.status = 2 THEN m.power ELSE -m.power END
    FROM mining_settle_miners m
    LEFT JOIN mining_settle_destroy d ON d.id = m.id
   WHERE (m.kind = 'trial' AND m.ends)
      OR (m.kind = 'destroy' AND (d.ends OR d.used > 0))
      OR (m.kind = 'device' AND ((m.status = 3 AND NOT m.counts AND m.whole_epoch) OR (m.status = 2 AND m.counts)))
   ORDER BY m.id;
  GET DIAGNOSTICS v_changes = ROW_COUNT;

  -- 7. The ledger: one flow, one leg: everything the epoch pays (immediate and locked) leaves the
  --    mining pool for the settlement account, from which the chunks pay each user. Nothing paid: no flow.
  IF v_paid > 0 THEN
    v_flow_id := ledger_open_flow('mining:epoch:' || p_epoch, NULL, 'power_income',
      json_build_object('epoch', p_epoch, 'emission', p_emission::text, 'payable', v_payable::text, 'immediateBps', p_immediate_bps,
        'vestingEpochs', p_vesting_epochs, 'uptimeBeats', p_uptime_beats, 'price', p_price::text, 'networkPower', v_network::text), p_now);
    PERFORM ledger_legs_prepare();
    INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
    VALUES (0, v_flow_id, 'power_income', 'NADI', v_paid, v_pool_id, 'available', v_clearing_id, 'available', jsonb_build_object('epoch', p_epoch));
    v_journal := ledger_post_legs(p_now);
    IF (SELECT available FROM ledger_accounts WHERE id = v_pool_id) < 0 THEN
      RAISE EXCEPTION 'the mining pool would go below zero' USING ERRCODE = 'NS004';
    END IF;
  END IF;

  -- 8. The epoch's row: its figures are final; settled_at is written when its last chunk has posted.
  v_duration := (extract(epoch FROM clock_timestamp() - v_started) * 1000)::integer;
  INSERT INTO mining_epochs (epoch, starts_at, ends_at, emission, payable, network_power, price, paid, released, reduction, users, flow_id,
    computed_at, settled_at, duration_ms)
  VALUES (p_epoch, p_starts_at, p_ends_at, p_emission, v_payable, v_network, p_price, v_paid, v_released, v_reduction, v_users, v_flow_id,
    p_now, NULL, v_duration);

  -- Statistics of the stage for the chunks' plans (they read it by epoch and user range).
  ANALYZE mining_settle_stage, mining_settle_miner_stage;
  DROP TABLE mining_settle_results;
  DROP TABLE mining_settle_destroy;
  DROP TABLE mining_settle_users;
  DROP TABLE mining_settle_miners;
  RETURN jsonb_build_object(
    'epoch', p_epoch, 'flow_id', v_flow_id, 'emission', p_emission::text, 'payable', v_payable::text, 'paid', v_paid::text,
    'locked', v_locked::text, 'released', v_released::text, 'reduction', v_reduction::text, 'network_power', v_network::text,
    'users', v_users, 'results', v_results, 'journal', v_journal, 'miner_changes', v_changes, 'duration_ms', v_duration);
END;
$$;
