-- Nodes in an epoch's computation (docs/nodes-and-savings.md, "Settlement"; docs/settlement.md),
-- set-based, in the run's first transaction, which locks no user's accounts: the node mining income
-- (node_pool, `node_mining_income`) and the node fee dividend (fees, per asset, `node_fee_dividend`) of
-- every holder, split over their nodes (node_settle_stage, the node_earnings rows the run's chunks
-- post user by user, node_settle_chunk); the ledger legs take what is paid from the node pool and the
-- fees accounts to the settlement account (flow `node:epoch:<n>`). settleEpoch
-- (modules/mining/settlement/settle.ts) calls it after pledge_settle_epoch (it reads the epoch's mining
-- stage), in the same transaction; node_settle_finish writes the node_epochs row when the last chunk has
-- posted. Errors as in mining_settle_epoch: NS001 settled already, NS002 not the next epoch (or its
-- mining epoch is not computed), NS003 bad input, NS004 a pool would pay more than it may; NL00x from the ledger.
--
-- Computes the node rewards of epoch p_epoch [p_starts_at, p_ends_at), after its mining part, for
-- every node bought before the epoch's end (a holder's nodes together):
--   mining income  the highest machine_rate (bps) of the holder's nodes × the holder's mining income of
--                  the epoch (device + destroy + power income, before vesting), rounded down, from the
--                  node pool; a pool holding less pays each ⌊wanted × pool ÷ Σ wanted⌋.
--   fee dividend   per asset, ⌊what the fees account was credited in [start, end) × p_dividend_bps ÷ 10⁴⌋
--                  (at most what it holds), split by weight (the tiers' withdraw_rate, a holder's nodes
--                  added), ⌊dividend × weight ÷ Σ weights⌋ per holder; the dust stays in the fees account.
-- Each holder's amounts are split over their nodes by weight, the remainder to the oldest, so that
-- they sum to exactly what is paid. Locks: node_epochs (one settlement at a time), then at the very
-- end the node pool, the fees accounts and the settlement accounts for the legs (the fees accounts
-- only grow between the read of what they hold and the legs: every trade credits them, only this
-- debits them). Returns a summary as jsonb.
CREATE OR REPLACE FUNCTION node_settle_epoch(p_epoch integer, p_starts_at timestamptz, p_ends_at timestamptz, p_dividend_bps integer, p_now timestamptz)
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
  v_clearing_nadi_id bigint;
  v_clearing_usdt_id bigint;
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
  -- The stage of the epochs before (settled: an epoch computes after the one before has posted). Rows,
  -- not TRUNCATE: a reader of the stage (the audit) never waits for, nor deadlocks with, the computation.
  DELETE FROM node_settle_stage WHERE epoch < p_epoch;
  SELECT max(epoch) INTO v_last FROM node_epochs;
  IF (v_last IS NOT NULL AND p_epoch <> v_last + 1) OR NOT EXISTS (SELECT 1 FROM mining_epochs WHERE epoch = p_epoch) THEN
    RAISE EXCEPTION 'node epoch % cannot settle before epoch % and its mining settlement', p_epoch, coalesce(v_last + 1, p_epoch) USING ERRCODE = 'NS002';
  END IF;

  SELECT id, available INTO v_pool_id, v_pool FROM ledger_accounts WHERE user_id IS NULL AND kind = 'node_pool' AND asset = 'NADI';
  SELECT id, available INTO v_fees_nadi_id, v_fees_nadi FROM ledger_accounts WHERE user_id IS NULL AND kind = 'fees' AND asset = 'NADI';
  SELECT id, available INTO v_fees_usdt_id, v_fees_usdt FROM ledger_accounts WHERE user_id IS NULL AND kind = 'fees' AND asset = 'USDT';
  SELECT id INTO v_clearing_nadi_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'settlement' AND asset = 'NADI';
  SELECT id INTO v_clearing_usdt_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'settlement' AND asset = 'USDT';
  IF v_pool_id IS NULL OR v_fees_nadi_id IS NULL OR v_fees_usdt_id IS NULL OR v_clearing_nadi_id IS NULL OR v_clearing_usdt_id IS NULL THEN
    RAISE EXCEPTION 'the node_pool, fees and settlement accounts must exist' USING ERRCODE = 'NL003';
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
    FROM held h LEFT JOIN mining_settle_stage r ON r.epoch = p_epoch AND r.user_id = h.user_id;
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
  INSERT INTO node_settle_stage (epoch, holding_id, user_id, mining_income, dividend_nadi, dividend_usdt)
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

  -- 4. The ledger: one flow, a leg per pool and asset to the settlement accounts. Nothing paid: no flow.
  IF v_bonus > 0 OR v_paid_nadi > 0 OR v_paid_usdt > 0 THEN
    v_flow_id := ledger_open_flow('node:epoch:' || p_epoch, NULL, 'node_mining_income',
      json_build_object('epoch', p_epoch, 'dividendBps', p_dividend_bps, 'feesNadi', v_inflow_nadi::text, 'feesUsdt', v_inflow_usdt::text,
        'wanted', v_wanted::text, 'payable', v_payable::text, 'weight', v_weight::text), p_now);
    PERFORM ledger_legs_prepare();
    INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
    SELECT k.n, v_flow_id, k.type, k.asset, k.amount, k.debit_id, 'available', k.credit_id, 'available', jsonb_build_object('epoch', p_epoch)
      FROM (VALUES (1, 'node_mining_income', 'NADI', v_bonus, v_pool_id, v_clearing_nadi_id),
                   (2, 'node_fee_dividend', 'NADI', v_paid_nadi, v_fees_nadi_id, v_clearing_nadi_id),
                   (3, 'node_fee_dividend', 'USDT', v_paid_usdt, v_fees_usdt_id, v_clearing_usdt_id)) AS k(n, type, asset, amount, debit_id, credit_id)
     WHERE k.amount > 0;
    v_journal := ledger_post_legs(p_now);
    IF (SELECT available FROM ledger_accounts WHERE id = v_pool_id) < 0 THEN
      RAISE EXCEPTION 'the node pool would go below zero' USING ERRCODE = 'NS004';
    END IF;
  END IF;
  v_duration := (extract(epoch FROM clock_timestamp() - v_started) * 1000)::integer;
  -- Statistics of the stage for the chunks' plans (they read it by epoch and user range).
  ANALYZE node_settle_stage;
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
