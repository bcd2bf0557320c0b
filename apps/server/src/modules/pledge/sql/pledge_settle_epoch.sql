-- Savings in the epoch settlement (docs/nodes-and-savings.md, "Settlement"), set-based: savings interest
-- (savings_pool → savings_interest, one leg; pledge_interest, pledge_interest_lines, interest_total),
-- the release of locked positions at their last epoch (pledged → fund, `release_pledge_income`; their
-- miners end with power log `withdraw`), the pledge_epochs row; ledger flow `pledge:epoch:<n>`.
-- settleEpoch (modules/mining/settlement/settle.ts) calls it after mining_settle_epoch, in the same
-- transaction. Errors: NS001 settled already, NS002 not the next epoch (or its mining epoch is not
-- settled), NS003 bad input, NS004 the pool would pay more than it may; NL00x from the ledger.
--
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
    v_flow_id := ledger_open_flow('pledge:epoch:' || p_epoch, NULL, 'savings_income',
      json_build_object('epoch', p_epoch, 'wanted', v_wanted::text, 'payable', v_payable::text, 'paid', v_paid::text,
        'released', v_released::text, 'positions', v_positions), p_now);
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
