-- Nodes and savings in the epoch settlement (docs/nodes-and-savings.md, "Settlement"), set-based.
--
-- mining_settle_epoch  as in migration 0012, except that node and pledge miners in status 3 created
--                      before the epoch's end count as other power (like the trial) and are never
--                      changed by its status step.
-- pledge_settle_epoch  savings interest (savings_pool → savings_interest, one leg; pledge_interest,
--                      pledge_interest_lines, interest_total), the release of locked positions at their
--                      last epoch (pledged → fund, `release_pledge_income`; their miners end with power
--                      log `withdraw`), the pledge_epochs row; ledger flow `pledge:epoch:<n>`.
-- node_settle_epoch    the node mining income (node_pool → fund NADI, `node_mining_income`) and the node
--                      fee dividend (fees → fund, per asset, `node_fee_dividend`), node_earnings per
--                      node, the node_epochs row; ledger flow `node:epoch:<n>`.
-- settleEpoch (modules/mining/settlement/settle.ts) calls the three in one transaction: mining, then
-- savings, then nodes (which read the epoch's mining_results). Errors as in 0012: NS001 settled
-- already, NS002 not the next epoch (or its mining epoch is not settled), NS003 bad input, NS004 a pool
-- would pay more than it may; NL00x from the ledger.

-- The settlement of epoch n also pays flexible positions redeemed after n ended (redeemed_at >= its end).
CREATE INDEX "pledge_positions_redeemed_idx" ON "pledge_positions" USING btree ("redeemed_at") WHERE "pledge_positions"."redeemed_at" is not null;
--> statement-breakpoint
-- Every settlement updates each earning position's interest_total (a column no index covers). Pages
-- kept half empty leave room for the new version on the same page: a HOT update writes no entry in the
-- table's indexes (as migration 0010 does for ledger_accounts).
ALTER TABLE pledge_positions SET (fillfactor = 50);
--> statement-breakpoint
-- The node fee dividend sums what the fees accounts were credited during an epoch. Only those credits
-- are indexed, so that every other journal insert stays as cheap as before: a partial index on the two
-- fees accounts, whose ids (fixed since migration 0002) are written into its predicate here.
DO $$
BEGIN
  EXECUTE format('CREATE INDEX ledger_transfers_fees_idx ON ledger_transfers (credit_account_id, created_at) WHERE credit_account_id IN (%s)',
    (SELECT string_agg(id::text, ', ' ORDER BY id) FROM ledger_accounts WHERE user_id IS NULL AND kind = 'fees'));
END;
$$;
--> statement-breakpoint
-- Settles epoch p_epoch [p_starts_at, p_ends_at) with the parameters in force at it:
--   p_emission        E(n), base units;            p_immediate_bps  share credited at once (0..10000);
--   p_vesting_epochs  V of this epoch's tranche;   p_uptime_beats   beats a device needs to count;
--   p_price           USDT base units per NADI at the epoch's end (values destroy income);
--   p_ending_epochs / p_ending_vesting  the earlier epochs whose tranche ends now (n + V(n) = p_epoch) and their V;
--   p_now             the settlement's time (journal rows, power log, settled_at).
-- Locks, in this order: mining_epochs (one settlement at a time), the miners whose status or budget
-- changes (nothing else changes those), the ledger accounts (id order), then user_power and
-- mining_vesting rows: a transaction that posts a flow and writes user_power or mining_vesting must
-- post its flow first. Work that needs no lock comes before the ledger, so the users' accounts are
-- held for as short a time as possible. Returns a summary as jsonb.
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
  v_vesting_id bigint;
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
    RAISE EXCEPTION 'mining epoch % is settled already', p_epoch USING ERRCODE = 'NS001';
  END IF;
  SELECT coalesce(max(epoch) + 1, 0) INTO v_next FROM mining_epochs;
  IF p_epoch <> v_next THEN
    RAISE EXCEPTION 'mining epoch % cannot settle before epoch %', p_epoch, v_next USING ERRCODE = 'NS002';
  END IF;

  -- Only settlements take from the mining pool, so what it holds now is what this one may pay.
  SELECT id, available INTO v_pool_id, v_pool FROM ledger_accounts WHERE user_id IS NULL AND kind = 'mining_pool' AND asset = 'NADI';
  SELECT id INTO v_vesting_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'vesting' AND asset = 'NADI';
  IF v_pool_id IS NULL OR v_vesting_id IS NULL THEN
    RAISE EXCEPTION 'the mining_pool and vesting accounts must exist' USING ERRCODE = 'NL003';
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

  -- 5. One row per user who mined or had income released.
  INSERT INTO mining_results (epoch, user_id, device_power, destroy_power, other_power, device_income, destroy_income, power_income,
    reduction, immediate, locked, released)
  SELECT p_epoch, user_id, device_power, destroy_power, other_power, device_income, destroy_income, power_income, reduction, immediate, locked, released
    FROM mining_settle_results
   WHERE device_power + destroy_power + other_power > 0 OR released > 0
   ORDER BY user_id;
  GET DIAGNOSTICS v_results = ROW_COUNT;

  -- 6. Miner statuses at the epoch's end, set-based:
  --    a trial past its last epoch expires (1 → 2); a destroy miner whose budget is used expires
  --    (3 → 2) and every destroy miner adds what it earned (at the price) to released_usdt; a
  --    device that did not count over a whole epoch pauses (3 → 2, freeze), a paused one that
  --    counted runs (2 → 3, unlock).
  CREATE TEMP TABLE mining_settle_changes ON COMMIT DROP AS
  SELECT m.id, m.user_id,
         CASE WHEN m.kind = 'trial' THEN 2
              WHEN m.kind = 'destroy' THEN CASE WHEN d.ends THEN 2 ELSE m.status END
              WHEN m.status = 3 AND NOT m.counts AND m.whole_epoch THEN 2
              WHEN m.status = 2 AND m.counts THEN 3
              ELSE m.status END AS status,
         coalesce(d.used, 0) AS used,
         CASE WHEN m.kind IN ('trial', 'destroy') THEN 'expire' WHEN m.status = 3 THEN 'freeze' ELSE 'unlock' END AS type,
         CASE WHEN m.kind = 'device' AND m.status = 2 THEN m.power ELSE -m.power END AS delta
    FROM mining_settle_miners m
    LEFT JOIN mining_settle_destroy d ON d.id = m.id
   WHERE (m.kind = 'trial' AND m.ends)
      OR (m.kind = 'destroy' AND (d.ends OR d.used > 0))
      OR (m.kind = 'device' AND ((m.status = 3 AND NOT m.counts AND m.whole_epoch) OR (m.status = 2 AND m.counts)));
  GET DIAGNOSTICS v_changes = ROW_COUNT;
  IF v_changes > 0 THEN
    UPDATE miners m SET status = c.status, released_usdt = m.released_usdt + c.used FROM mining_settle_changes c WHERE m.id = c.id;
    DELETE FROM mining_settle_changes c USING mining_settle_miners s WHERE s.id = c.id AND s.status = c.status;
  END IF;

  -- 7. The ledger: one flow; immediate legs pool → each user's fund account, one aggregate leg
  --    pool → vesting for everything locked. Nothing paid: no flow.
  IF v_paid > 0 THEN
    INSERT INTO ledger_flows (idempotency_key, user_id, type, params_hash, created_at)
    VALUES ('mining:epoch:' || p_epoch, NULL, 'power_income',
            md5(concat_ws(':', p_epoch, p_emission, v_payable, p_immediate_bps, p_vesting_epochs, p_uptime_beats, p_price, v_network)), p_now)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id INTO v_flow_id;
    IF v_flow_id IS NULL THEN
      RAISE EXCEPTION 'ledger flow key mining:epoch:% was used before', p_epoch USING ERRCODE = 'NL001';
    END IF;
    PERFORM ledger_legs_prepare();
    INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
    SELECT l.ord, v_flow_id, l.type, 'NADI', l.amount, v_pool_id, 'available', coalesce(a.id, 0), 'available', NULL
      FROM (
        SELECT r.user_id, r.user_id::bigint * 4 + k.n AS ord, k.type,
               div(k.amount * p_immediate_bps, 10000)
                 + CASE WHEN k.n = CASE WHEN r.device_income > 0 THEN 1 WHEN r.destroy_income > 0 THEN 2 ELSE 3 END
                        THEN r.immediate - div(r.device_income * p_immediate_bps, 10000) - div(r.destroy_income * p_immediate_bps, 10000)
                               - div(r.power_income * p_immediate_bps, 10000)
                        ELSE 0 END AS amount
          FROM mining_settle_results r
          CROSS JOIN LATERAL (VALUES (1, 'device_income', r.device_income), (2, 'destroy_profit', r.destroy_income), (3, 'power_income', r.power_income)) AS k(n, type, amount)
         WHERE r.immediate > 0
         ORDER BY r.user_id
      ) l
      -- One index lookup per user (a join would hash every account of the table).
      LEFT JOIN LATERAL (SELECT id FROM ledger_accounts WHERE user_id = l.user_id AND kind = 'fund' AND asset = 'NADI' LIMIT 1) a ON true
     WHERE l.amount > 0;
    IF v_locked > 0 THEN
      INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
      VALUES (4 * 2147483648::bigint, v_flow_id, 'power_income', 'NADI', v_locked, v_pool_id, 'available', v_vesting_id, 'available',
              jsonb_build_object('epoch', p_epoch, 'locked', true));
    END IF;
    v_journal := ledger_post_legs(p_now);
    IF (SELECT available FROM ledger_accounts WHERE id = v_pool_id) < 0 THEN
      RAISE EXCEPTION 'the mining pool would go below zero' USING ERRCODE = 'NS004';
    END IF;
  END IF;

  -- 8. The power log and the users' power for the status changes: the rows of the users concerned
  --    are locked (after the ledger accounts) before they are read.
  IF EXISTS (SELECT 1 FROM mining_settle_changes) THEN
    PERFORM 1 FROM user_power WHERE user_id IN (SELECT user_id FROM mining_settle_changes) ORDER BY user_id FOR UPDATE;
    INSERT INTO power_log (user_id, type, miner_id, before, after, epoch, created_at)
    SELECT c.user_id, c.type, c.id,
           coalesce(p.power, 0) + sum(c.delta) OVER w - c.delta, coalesce(p.power, 0) + sum(c.delta) OVER w, p_epoch, p_now
      FROM mining_settle_changes c LEFT JOIN user_power p ON p.user_id = c.user_id
    WINDOW w AS (PARTITION BY c.user_id ORDER BY c.id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
     ORDER BY c.user_id, c.id;
    INSERT INTO user_power (user_id, power, updated_at)
    SELECT user_id, sum(delta), p_now FROM mining_settle_changes GROUP BY user_id
    ON CONFLICT (user_id) DO UPDATE SET power = user_power.power + excluded.power, updated_at = excluded.updated_at;
  END IF;

  -- 9. Vesting: released moves locked → claimable (no money moves: it is in the vesting account
  --    already); the new tranche adds to locked, its slice floor(L / V) to the rate.
  UPDATE mining_vesting v
     SET locked = v.locked - r.released + r.locked,
         claimable = v.claimable + r.released,
         rate = v.rate - r.slices + div(r.locked, p_vesting_epochs),
         updated_epoch = p_epoch
    FROM mining_settle_results r
   WHERE v.user_id = r.user_id AND r.has_vesting AND (r.locked > 0 OR r.released > 0 OR r.slices > 0);
  INSERT INTO mining_vesting (user_id, locked, claimable, claimed, rate, updated_epoch)
  SELECT r.user_id, r.locked, 0, 0, div(r.locked, p_vesting_epochs), p_epoch
    FROM mining_settle_results r
   WHERE r.locked > 0 AND NOT r.has_vesting
   ORDER BY r.user_id;

  -- 10. The epoch's row.
  v_duration := (extract(epoch FROM clock_timestamp() - v_started) * 1000)::integer;
  INSERT INTO mining_epochs (epoch, starts_at, ends_at, emission, payable, network_power, price, paid, released, reduction, users, flow_id, settled_at, duration_ms)
  VALUES (p_epoch, p_starts_at, p_ends_at, p_emission, v_payable, v_network, p_price, v_paid, v_released, v_reduction, v_users, v_flow_id, p_now, v_duration);

  DROP TABLE mining_settle_changes;
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
--> statement-breakpoint
-- Settles the savings of epoch p_epoch [p_starts_at, p_ends_at), after its mining settlement:
--   interest  for every position that was active over the whole epoch (start_epoch ≤ n ≤ end_epoch,
--             and not redeemed before the epoch ended): ⌊amount × rate ppm ÷ 10⁶⌋, or for joint
--             savings ⌊budget × amount ÷ the product's earning total⌋; a savings pool holding less
--             than that pays each position ⌊wanted × pool ÷ Σ wanted⌋. One leg savings_pool →
--             savings_interest for the total; each user's claimable interest grows by theirs.
--   releases  active positions whose last epoch is n (or earlier, never released): principal
--             pledged → fund, status redeemed at the epoch's end, their miners end (power log
--             `withdraw`), the products' totals fall.
-- Locks, in this order: pledge_epochs (one settlement at a time), the products whose total falls
-- (as a join takes its product before its flow), the ledger accounts, then positions,
-- pledge_interest, miners and user_power (every other writer of those posts its flow first).
CREATE FUNCTION pledge_settle_epoch(p_epoch integer, p_starts_at timestamptz, p_ends_at timestamptz, p_now timestamptz)
RETURNS jsonb
LANGUAGE plpgsql
SET work_mem = '256MB'
SET jit = off
AS $$
DECLARE
  v_started timestamptz := clock_timestamp();
  v_last integer;
  v_pool_id bigint;
  v_pool numeric;
  v_interest_id bigint;
  v_pledged_id bigint;
  v_wanted numeric;
  v_payable numeric;
  v_paid numeric;
  v_positions integer;
  v_released numeric;
  v_releases integer;
  v_flow_id bigint;
  v_journal integer := 0;
  v_duration integer;
BEGIN
  IF p_epoch IS NULL OR p_epoch < 0 OR p_starts_at IS NULL OR p_ends_at IS NULL OR p_ends_at <= p_starts_at OR p_now IS NULL OR p_now < p_ends_at THEN
    RAISE EXCEPTION 'savings settlement of epoch %: invalid input', p_epoch USING ERRCODE = 'NS003';
  END IF;
  LOCK TABLE pledge_epochs IN SHARE ROW EXCLUSIVE MODE;
  IF EXISTS (SELECT 1 FROM pledge_epochs WHERE epoch = p_epoch) THEN
    RAISE EXCEPTION 'savings epoch % is settled already', p_epoch USING ERRCODE = 'NS001';
  END IF;
  -- In order after the first (the first is whichever epoch settles first once savings exist), and
  -- never before the epoch's mining settlement.
  SELECT max(epoch) INTO v_last FROM pledge_epochs;
  IF (v_last IS NOT NULL AND p_epoch <> v_last + 1) OR NOT EXISTS (SELECT 1 FROM mining_epochs WHERE epoch = p_epoch) THEN
    RAISE EXCEPTION 'savings epoch % cannot settle before epoch % and its mining settlement', p_epoch, coalesce(v_last + 1, p_epoch) USING ERRCODE = 'NS002';
  END IF;

  -- Only settlements take from the savings pool, so what it holds now is what this one may pay.
  SELECT id, available INTO v_pool_id, v_pool FROM ledger_accounts WHERE user_id IS NULL AND kind = 'savings_pool' AND asset = 'NADI';
  SELECT id INTO v_interest_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'savings_interest' AND asset = 'NADI';
  SELECT id INTO v_pledged_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'pledged' AND asset = 'NADI';
  IF v_pool_id IS NULL OR v_interest_id IS NULL OR v_pledged_id IS NULL THEN
    RAISE EXCEPTION 'the savings_pool, savings_interest and pledged accounts must exist' USING ERRCODE = 'NL003';
  END IF;
  v_pool := greatest(v_pool, 0);

  -- 1. Interest per earning position: what it is owed, then what the pool pays (all, or pro rata).
  --    A flexible position redeemed after the epoch ended (before this settlement) still earns it.
  CREATE TEMP TABLE pledge_settle_interest ON COMMIT DROP AS
  WITH earning AS (
    SELECT p.id, p.user_id, p.product_id, p.amount, p.day_rate_ppm FROM pledge_positions p
     WHERE p.status = 'active' AND p.start_epoch <= p_epoch AND (p.end_epoch IS NULL OR p.end_epoch >= p_epoch)
    UNION ALL
    SELECT p.id, p.user_id, p.product_id, p.amount, p.day_rate_ppm FROM pledge_positions p
     WHERE p.status = 'redeemed' AND p.redeemed_at >= p_ends_at AND p.start_epoch <= p_epoch AND (p.end_epoch IS NULL OR p.end_epoch >= p_epoch)
  ), joint AS (
    SELECT e.product_id, sum(e.amount) AS total FROM earning e JOIN pledge_products pr ON pr.id = e.product_id AND pr.kind = 'joint' GROUP BY e.product_id
  ), owed AS (
    SELECT e.id, e.user_id, e.amount,
           CASE WHEN j.product_id IS NOT NULL THEN div(coalesce(pr.epoch_budget, 0) * e.amount, j.total)
                ELSE div(e.amount * e.day_rate_ppm, 1000000) END AS wanted
      FROM earning e JOIN pledge_products pr ON pr.id = e.product_id LEFT JOIN joint j ON j.product_id = e.product_id
  ), total AS (
    SELECT coalesce(sum(wanted), 0) AS wanted FROM owed
  )
  SELECT o.id, o.user_id, o.amount, o.wanted,
         CASE WHEN t.wanted <= v_pool THEN o.wanted ELSE div(o.wanted * v_pool, t.wanted) END AS paid
    FROM owed o CROSS JOIN total t;
  SELECT coalesce(sum(wanted), 0), coalesce(sum(paid), 0), count(*) INTO v_wanted, v_paid, v_positions FROM pledge_settle_interest;
  v_payable := least(v_wanted, v_pool);
  IF v_paid > v_payable THEN
    RAISE EXCEPTION 'savings epoch % would pay % of a payable %', p_epoch, v_paid, v_payable USING ERRCODE = 'NS004';
  END IF;

  -- 2. Releases: locked positions whose last epoch this is; the products' totals fall first.
  CREATE TEMP TABLE pledge_settle_releases ON COMMIT DROP AS
  SELECT id, user_id, product_id, amount, miner_id FROM pledge_positions WHERE status = 'active' AND end_epoch <= p_epoch;
  SELECT coalesce(sum(amount), 0), count(*) INTO v_released, v_releases FROM pledge_settle_releases;
  IF v_releases > 0 THEN
    UPDATE pledge_products pr SET total = pr.total - r.amount
      FROM (SELECT product_id, sum(amount) AS amount FROM pledge_settle_releases GROUP BY product_id) r
     WHERE pr.id = r.product_id;
  END IF;

  -- 3. The ledger: one flow; the interest savings_pool → savings_interest in one leg, each releasing
  --    user's principal pledged → fund. Nothing paid or released: no flow.
  IF v_paid > 0 OR v_released > 0 THEN
    INSERT INTO ledger_flows (idempotency_key, user_id, type, params_hash, created_at)
    VALUES ('pledge:epoch:' || p_epoch, NULL, 'savings_income', md5(concat_ws(':', p_epoch, v_wanted, v_payable, v_paid, v_released, v_positions)), p_now)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id INTO v_flow_id;
    IF v_flow_id IS NULL THEN
      RAISE EXCEPTION 'ledger flow key pledge:epoch:% was used before', p_epoch USING ERRCODE = 'NL001';
    END IF;
    PERFORM ledger_legs_prepare();
    IF v_paid > 0 THEN
      INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
      VALUES (0, v_flow_id, 'savings_income', 'NADI', v_paid, v_pool_id, 'available', v_interest_id, 'available', jsonb_build_object('epoch', p_epoch));
    END IF;
    INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
    SELECT r.user_id, v_flow_id, 'release_pledge_income', 'NADI', r.amount, v_pledged_id, 'available', coalesce(a.id, 0), 'available', NULL
      FROM (SELECT user_id, sum(amount) AS amount FROM pledge_settle_releases GROUP BY user_id ORDER BY user_id) r
      LEFT JOIN LATERAL (SELECT id FROM ledger_accounts WHERE user_id = r.user_id AND kind = 'fund' AND asset = 'NADI' LIMIT 1) a ON true;
    v_journal := ledger_post_legs(p_now);
    IF (SELECT available FROM ledger_accounts WHERE id = v_pool_id) < 0 THEN
      RAISE EXCEPTION 'the savings pool would go below zero' USING ERRCODE = 'NS004';
    END IF;
  END IF;

  -- 4. What each position and user earned, after the ledger.
  INSERT INTO pledge_interest_lines (epoch, position_id, user_id, amount)
  SELECT p_epoch, id, user_id, paid FROM pledge_settle_interest WHERE paid > 0 ORDER BY id;
  UPDATE pledge_positions p SET interest_total = p.interest_total + i.paid FROM pledge_settle_interest i WHERE p.id = i.id AND i.paid > 0;
  INSERT INTO pledge_interest (user_id, claimable, claimed_total, updated_at)
  SELECT user_id, sum(paid), 0, p_now FROM pledge_settle_interest WHERE paid > 0 GROUP BY user_id ORDER BY user_id
  ON CONFLICT (user_id) DO UPDATE SET claimable = pledge_interest.claimable + excluded.claimable, updated_at = excluded.updated_at;

  -- 5. The released positions and their miners (running ones stop: power log `withdraw`).
  IF v_releases > 0 THEN
    UPDATE pledge_positions p SET status = 'redeemed', redeemed_at = p_ends_at, release_flow_id = v_flow_id
      FROM pledge_settle_releases r WHERE p.id = r.id;
    CREATE TEMP TABLE pledge_settle_changes ON COMMIT DROP AS
    SELECT m.id, m.user_id, -(m.base_power + m.gift_power) AS delta
      FROM miners m JOIN pledge_settle_releases r ON r.miner_id = m.id
     WHERE m.status = 3;
    IF EXISTS (SELECT 1 FROM pledge_settle_changes) THEN
      UPDATE miners m SET status = 2 FROM pledge_settle_changes c WHERE m.id = c.id;
      PERFORM 1 FROM user_power WHERE user_id IN (SELECT user_id FROM pledge_settle_changes) ORDER BY user_id FOR UPDATE;
      INSERT INTO power_log (user_id, type, miner_id, before, after, epoch, created_at)
      SELECT c.user_id, 'withdraw', c.id,
             coalesce(p.power, 0) + sum(c.delta) OVER w - c.delta, coalesce(p.power, 0) + sum(c.delta) OVER w, p_epoch, p_now
        FROM pledge_settle_changes c LEFT JOIN user_power p ON p.user_id = c.user_id
      WINDOW w AS (PARTITION BY c.user_id ORDER BY c.id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
       ORDER BY c.user_id, c.id;
      INSERT INTO user_power (user_id, power, updated_at)
      SELECT user_id, sum(delta), p_now FROM pledge_settle_changes GROUP BY user_id
      ON CONFLICT (user_id) DO UPDATE SET power = user_power.power + excluded.power, updated_at = excluded.updated_at;
    END IF;
    DROP TABLE pledge_settle_changes;
  END IF;

  -- 6. The epoch's row.
  v_duration := (extract(epoch FROM clock_timestamp() - v_started) * 1000)::integer;
  INSERT INTO pledge_epochs (epoch, interest_paid, released, positions, flow_id, settled_at)
  VALUES (p_epoch, v_paid, v_released, v_positions, v_flow_id, p_now);

  DROP TABLE pledge_settle_releases;
  DROP TABLE pledge_settle_interest;
  RETURN jsonb_build_object(
    'epoch', p_epoch, 'flow_id', v_flow_id, 'wanted', v_wanted::text, 'payable', v_payable::text, 'paid', v_paid::text,
    'positions', v_positions, 'released', v_released::text, 'releases', v_releases, 'journal', v_journal, 'duration_ms', v_duration);
END;
$$;
--> statement-breakpoint
-- Settles the node rewards of epoch p_epoch [p_starts_at, p_ends_at), after its mining settlement, for
-- every node bought before the epoch's end (a holder's nodes together):
--   mining income  the highest machine_rate (bps) of the holder's nodes × the holder's mining income of
--                  the epoch (mining_results: device + destroy + power income, before vesting), rounded
--                  down, from the node pool; a pool holding less pays each ⌊wanted × pool ÷ Σ wanted⌋.
--   fee dividend   per asset, ⌊what the fees account was credited in [start, end) × p_dividend_bps ÷ 10⁴⌋
--                  (at most what it holds), split by weight (the tiers' withdraw_rate, a holder's nodes
--                  added), ⌊dividend × weight ÷ Σ weights⌋ per holder; the dust stays in the fees account.
-- node_earnings splits each holder's amounts over their nodes by weight, the remainder to the oldest,
-- so that they sum to exactly what was paid. Locks: node_epochs (one settlement at a time), then the
-- ledger accounts. Returns a summary as jsonb.
CREATE FUNCTION node_settle_epoch(p_epoch integer, p_starts_at timestamptz, p_ends_at timestamptz, p_dividend_bps integer, p_now timestamptz)
RETURNS jsonb
LANGUAGE plpgsql
SET work_mem = '256MB'
SET jit = off
AS $$
DECLARE
  v_started timestamptz := clock_timestamp();
  v_last integer;
  v_pool_id bigint;
  v_pool numeric;
  v_fees_nadi_id bigint;
  v_fees_nadi numeric;
  v_fees_usdt_id bigint;
  v_fees_usdt numeric;
  v_inflow_nadi numeric;
  v_inflow_usdt numeric;
  v_split_nadi numeric;
  v_split_usdt numeric;
  v_wanted numeric;
  v_payable numeric;
  v_weight numeric;
  v_holders integer;
  v_bonus numeric;
  v_paid_nadi numeric;
  v_paid_usdt numeric;
  v_flow_id bigint;
  v_journal integer := 0;
  v_earnings integer;
  v_duration integer;
  -- The fees' credits of the epoch, read through the partial index ledger_transfers_fees_idx: the
  -- account id is a literal in the statement, so that the planner sees it is one of the indexed two.
  c_inflow constant text := 'SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE credit_account_id = %s AND created_at >= $1 AND created_at < $2';
BEGIN
  IF p_epoch IS NULL OR p_epoch < 0 OR p_starts_at IS NULL OR p_ends_at IS NULL OR p_ends_at <= p_starts_at OR p_now IS NULL OR p_now < p_ends_at
     OR p_dividend_bps IS NULL OR p_dividend_bps NOT BETWEEN 0 AND 10000 THEN
    RAISE EXCEPTION 'node settlement of epoch %: invalid input', p_epoch USING ERRCODE = 'NS003';
  END IF;
  LOCK TABLE node_epochs IN SHARE ROW EXCLUSIVE MODE;
  IF EXISTS (SELECT 1 FROM node_epochs WHERE epoch = p_epoch) THEN
    RAISE EXCEPTION 'node epoch % is settled already', p_epoch USING ERRCODE = 'NS001';
  END IF;
  SELECT max(epoch) INTO v_last FROM node_epochs;
  IF (v_last IS NOT NULL AND p_epoch <> v_last + 1) OR NOT EXISTS (SELECT 1 FROM mining_epochs WHERE epoch = p_epoch) THEN
    RAISE EXCEPTION 'node epoch % cannot settle before epoch % and its mining settlement', p_epoch, coalesce(v_last + 1, p_epoch) USING ERRCODE = 'NS002';
  END IF;

  SELECT id, available INTO v_pool_id, v_pool FROM ledger_accounts WHERE user_id IS NULL AND kind = 'node_pool' AND asset = 'NADI';
  SELECT id, available INTO v_fees_nadi_id, v_fees_nadi FROM ledger_accounts WHERE user_id IS NULL AND kind = 'fees' AND asset = 'NADI';
  SELECT id, available INTO v_fees_usdt_id, v_fees_usdt FROM ledger_accounts WHERE user_id IS NULL AND kind = 'fees' AND asset = 'USDT';
  IF v_pool_id IS NULL OR v_fees_nadi_id IS NULL OR v_fees_usdt_id IS NULL THEN
    RAISE EXCEPTION 'the node_pool and fees accounts must exist' USING ERRCODE = 'NL003';
  END IF;
  EXECUTE format(c_inflow, v_fees_nadi_id) INTO v_inflow_nadi USING p_starts_at, p_ends_at;
  EXECUTE format(c_inflow, v_fees_usdt_id) INTO v_inflow_usdt USING p_starts_at, p_ends_at;

  -- 1. The nodes held at the epoch's end (each holder's oldest first), and per holder the highest
  --    rate, the weight and the bonus wanted.
  CREATE TEMP TABLE node_settle_holdings ON COMMIT DROP AS
  SELECT h.id, h.user_id, t.machine_rate_bps AS rate, t.withdraw_rate::numeric AS weight,
         row_number() OVER (PARTITION BY h.user_id ORDER BY h.created_at, h.id) AS age
    FROM user_nodes h JOIN node_tiers t ON t.id = h.tier_id
   WHERE h.created_at < p_ends_at;
  CREATE TEMP TABLE node_settle_users ON COMMIT DROP AS
  WITH held AS (
    SELECT user_id, max(rate) AS rate, sum(weight) AS weight FROM node_settle_holdings GROUP BY user_id
  )
  SELECT h.user_id, h.weight, coalesce(div((r.device_income + r.destroy_income + r.power_income) * h.rate, 10000), 0) AS wanted
    FROM held h LEFT JOIN mining_results r ON r.epoch = p_epoch AND r.user_id = h.user_id;
  SELECT coalesce(sum(wanted), 0), coalesce(sum(weight), 0), count(*) INTO v_wanted, v_weight, v_holders FROM node_settle_users;

  -- 2. What is paid: the bonus (all, or pro rata of the pool), the dividends by weight.
  v_payable := least(v_wanted, greatest(v_pool, 0));
  v_split_nadi := CASE WHEN v_weight > 0 THEN least(div(v_inflow_nadi * p_dividend_bps, 10000), greatest(v_fees_nadi, 0)) ELSE 0 END;
  v_split_usdt := CASE WHEN v_weight > 0 THEN least(div(v_inflow_usdt * p_dividend_bps, 10000), greatest(v_fees_usdt, 0)) ELSE 0 END;
  CREATE TEMP TABLE node_settle_pay ON COMMIT DROP AS
  SELECT user_id, weight,
         CASE WHEN v_wanted <= v_payable THEN wanted ELSE div(wanted * v_payable, v_wanted) END AS bonus,
         CASE WHEN v_weight > 0 THEN div(v_split_nadi * weight, v_weight) ELSE 0 END AS dividend_nadi,
         CASE WHEN v_weight > 0 THEN div(v_split_usdt * weight, v_weight) ELSE 0 END AS dividend_usdt
    FROM node_settle_users;
  SELECT coalesce(sum(bonus), 0), coalesce(sum(dividend_nadi), 0), coalesce(sum(dividend_usdt), 0)
    INTO v_bonus, v_paid_nadi, v_paid_usdt FROM node_settle_pay;
  IF v_bonus > v_payable OR v_paid_nadi > v_split_nadi OR v_paid_usdt > v_split_usdt THEN
    RAISE EXCEPTION 'node epoch % would pay more than it may', p_epoch USING ERRCODE = 'NS004';
  END IF;

  -- 3. Each node's part of its holder's amounts: by weight, the remainder to the oldest node.
  INSERT INTO node_earnings (epoch, holding_id, user_id, mining_income, dividend_nadi, dividend_usdt)
  WITH parts AS (
    SELECT h.id, h.user_id, h.age, p.bonus, p.dividend_nadi, p.dividend_usdt,
           CASE WHEN p.weight > 0 THEN div(p.bonus * h.weight, p.weight) ELSE 0 END AS b,
           CASE WHEN p.weight > 0 THEN div(p.dividend_nadi * h.weight, p.weight) ELSE 0 END AS dn,
           CASE WHEN p.weight > 0 THEN div(p.dividend_usdt * h.weight, p.weight) ELSE 0 END AS du
      FROM node_settle_holdings h JOIN node_settle_pay p ON p.user_id = h.user_id
     WHERE p.bonus > 0 OR p.dividend_nadi > 0 OR p.dividend_usdt > 0
  ), exact AS (
    SELECT id, user_id,
           b + CASE WHEN age = 1 THEN bonus - sum(b) OVER u ELSE 0 END AS mining_income,
           dn + CASE WHEN age = 1 THEN dividend_nadi - sum(dn) OVER u ELSE 0 END AS dividend_nadi,
           du + CASE WHEN age = 1 THEN dividend_usdt - sum(du) OVER u ELSE 0 END AS dividend_usdt
      FROM parts
    WINDOW u AS (PARTITION BY user_id)
  )
  SELECT p_epoch, id, user_id, mining_income, dividend_nadi, dividend_usdt FROM exact
   WHERE mining_income > 0 OR dividend_nadi > 0 OR dividend_usdt > 0
   ORDER BY id;
  GET DIAGNOSTICS v_earnings = ROW_COUNT;

  -- 4. The ledger: one flow, up to three legs per holder (bonus, NADI and USDT dividends) to their
  --    fund accounts. Nothing paid: no flow.
  IF v_bonus > 0 OR v_paid_nadi > 0 OR v_paid_usdt > 0 THEN
    INSERT INTO ledger_flows (idempotency_key, user_id, type, params_hash, created_at)
    VALUES ('node:epoch:' || p_epoch, NULL, 'node_mining_income',
            md5(concat_ws(':', p_epoch, p_dividend_bps, v_inflow_nadi, v_inflow_usdt, v_wanted, v_payable, v_weight)), p_now)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id INTO v_flow_id;
    IF v_flow_id IS NULL THEN
      RAISE EXCEPTION 'ledger flow key node:epoch:% was used before', p_epoch USING ERRCODE = 'NL001';
    END IF;
    PERFORM ledger_legs_prepare();
    INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
    SELECT l.ord, v_flow_id, l.type, l.asset, l.amount, l.debit_id, 'available', coalesce(a.id, 0), 'available', NULL
      FROM (
        SELECT p.user_id, p.user_id::bigint * 4 + k.n AS ord, k.type, k.asset, k.amount, k.debit_id
          FROM node_settle_pay p
          CROSS JOIN LATERAL (VALUES (1, 'node_mining_income', 'NADI', p.bonus, v_pool_id),
                                     (2, 'node_fee_dividend', 'NADI', p.dividend_nadi, v_fees_nadi_id),
                                     (3, 'node_fee_dividend', 'USDT', p.dividend_usdt, v_fees_usdt_id)) AS k(n, type, asset, amount, debit_id)
         WHERE k.amount > 0
         ORDER BY p.user_id, k.n
      ) l
      LEFT JOIN LATERAL (SELECT id FROM ledger_accounts WHERE user_id = l.user_id AND kind = 'fund' AND asset = l.asset LIMIT 1) a ON true;
    v_journal := ledger_post_legs(p_now);
    IF (SELECT available FROM ledger_accounts WHERE id = v_pool_id) < 0 THEN
      RAISE EXCEPTION 'the node pool would go below zero' USING ERRCODE = 'NS004';
    END IF;
  END IF;

  -- 5. The epoch's row.
  v_duration := (extract(epoch FROM clock_timestamp() - v_started) * 1000)::integer;
  INSERT INTO node_epochs (epoch, fees_nadi, fees_usdt, dividend_nadi, dividend_usdt, bonus_paid, weight_total, holders, flow_id, settled_at)
  VALUES (p_epoch, v_inflow_nadi, v_inflow_usdt, v_paid_nadi, v_paid_usdt, v_bonus, v_weight, v_holders, v_flow_id, p_now);

  DROP TABLE node_settle_pay;
  DROP TABLE node_settle_users;
  DROP TABLE node_settle_holdings;
  RETURN jsonb_build_object(
    'epoch', p_epoch, 'flow_id', v_flow_id, 'fees_nadi', v_inflow_nadi::text, 'fees_usdt', v_inflow_usdt::text,
    'wanted', v_wanted::text, 'payable', v_payable::text, 'bonus', v_bonus::text, 'dividend_nadi', v_paid_nadi::text,
    'dividend_usdt', v_paid_usdt::text, 'weight_total', v_weight::text, 'holders', v_holders, 'earnings', v_earnings,
    'journal', v_journal, 'duration_ms', v_duration);
END;
$$;
