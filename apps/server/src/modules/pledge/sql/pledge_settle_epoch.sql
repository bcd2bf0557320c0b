-- Savings in an epoch's computation (docs/nodes-and-savings.md, "Settlement"; docs/settlement.md),
-- set-based, in the run's first transaction, which locks no user's accounts: the interest of every
-- earning position (pledge_settle_interest_stage) and the locked positions released at the epoch's end
-- (pledge_settle_release_stage), which the run's chunks post user by user (pledge_settle_chunk); one
-- ledger leg takes the interest paid from the savings pool to the settlement account (flow
-- `pledge:epoch:<n>`). settleEpoch (modules/mining/settlement/settle.ts) calls it after
-- mining_settle_epoch, in the same transaction; pledge_settle_finish writes the pledge_epochs row when
-- the last chunk has posted. Errors: NS001 settled already, NS002 not the next epoch (or its mining
-- epoch is not computed), NS003 bad input, NS004 the pool would pay more than it may; NL00x from the ledger.
--
-- Computes the savings of epoch p_epoch [p_starts_at, p_ends_at), after its mining part:
--   interest  for every position that was active over the whole epoch (start_epoch ≤ n ≤ end_epoch,
--             and not redeemed before the epoch ended): ⌊amount × rate ppm ÷ 10⁶⌋, or for joint
--             savings ⌊budget × amount ÷ the product's earning total⌋; a savings pool holding less
--             than that pays each position ⌊wanted × pool ÷ Σ wanted⌋.
--   releases  active positions whose last epoch is n (or earlier, never released); only the
--             settlement releases a locked position, so they stay active until their chunk posts.
-- Locks: pledge_epochs (one settlement at a time), then at the very end the savings pool and the
-- settlement account for its one leg.
CREATE OR REPLACE FUNCTION pledge_settle_epoch(p_epoch integer, p_starts_at timestamptz, p_ends_at timestamptz, p_now timestamptz)
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
  v_clearing_id bigint;
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
  -- The stage of the epochs before (settled: an epoch computes after the one before has posted). Rows,
  -- not TRUNCATE: a reader of the stage (the audit) never waits for, nor deadlocks with, the computation.
  DELETE FROM pledge_settle_interest_stage WHERE epoch < p_epoch;
  DELETE FROM pledge_settle_release_stage WHERE epoch < p_epoch;
  -- In order after the first (the first is whichever epoch settles first once savings exist), and
  -- never before the epoch's mining settlement.
  SELECT max(epoch) INTO v_last FROM pledge_epochs;
  IF (v_last IS NOT NULL AND p_epoch <> v_last + 1) OR NOT EXISTS (SELECT 1 FROM mining_epochs WHERE epoch = p_epoch) THEN
    RAISE EXCEPTION 'savings epoch % cannot settle before epoch % and its mining settlement', p_epoch, coalesce(v_last + 1, p_epoch) USING ERRCODE = 'NS002';
  END IF;

  -- Only settlements take from the savings pool, so what it holds now is what this one may pay.
  SELECT id, available INTO v_pool_id, v_pool FROM ledger_accounts WHERE user_id IS NULL AND kind = 'savings_pool' AND asset = 'NADI';
  SELECT id INTO v_clearing_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'settlement' AND asset = 'NADI';
  IF v_pool_id IS NULL OR v_clearing_id IS NULL THEN
    RAISE EXCEPTION 'the savings_pool and settlement accounts must exist' USING ERRCODE = 'NL003';
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

  -- 2. Releases: locked positions whose last epoch this is.
  INSERT INTO pledge_settle_release_stage (epoch, position_id, user_id, product_id, amount, miner_id)
  SELECT p_epoch, id, user_id, product_id, amount, miner_id FROM pledge_positions WHERE status = 'active' AND end_epoch <= p_epoch ORDER BY id;
  SELECT coalesce(sum(amount), 0), count(*) INTO v_released, v_releases FROM pledge_settle_release_stage WHERE epoch = p_epoch;
  -- 3. The interest of each position, for its user's chunk.
  INSERT INTO pledge_settle_interest_stage (epoch, position_id, user_id, paid)
  SELECT p_epoch, id, user_id, paid FROM pledge_settle_interest WHERE paid > 0 ORDER BY id;
  -- 4. The ledger: one flow, one leg: the interest paid leaves the savings pool for the settlement
  --    account. Nothing paid: no flow (releases move pledged → fund in the chunks).
  IF v_paid > 0 THEN
    v_flow_id := ledger_open_flow('pledge:epoch:' || p_epoch, NULL, 'savings_income',
      json_build_object('epoch', p_epoch, 'wanted', v_wanted::text, 'payable', v_payable::text, 'paid', v_paid::text,
        'released', v_released::text, 'positions', v_positions), p_now);
    PERFORM ledger_legs_prepare();
    INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
    VALUES (0, v_flow_id, 'savings_income', 'NADI', v_paid, v_pool_id, 'available', v_clearing_id, 'available', jsonb_build_object('epoch', p_epoch));
    v_journal := ledger_post_legs(p_now);
    IF (SELECT available FROM ledger_accounts WHERE id = v_pool_id) < 0 THEN
      RAISE EXCEPTION 'the savings pool would go below zero' USING ERRCODE = 'NS004';
    END IF;
  END IF;
  v_duration := (extract(epoch FROM clock_timestamp() - v_started) * 1000)::integer;
  -- Statistics of the stage for the chunks' plans (they read it by epoch and user range).
  ANALYZE pledge_settle_interest_stage, pledge_settle_release_stage;
  DROP TABLE pledge_settle_interest;
  RETURN jsonb_build_object(
    'epoch', p_epoch, 'flow_id', v_flow_id, 'wanted', v_wanted::text, 'payable', v_payable::text, 'paid', v_paid::text,
    'positions', v_positions, 'released', v_released::text, 'releases', v_releases, 'journal', v_journal, 'duration_ms', v_duration);
END;
$$;
