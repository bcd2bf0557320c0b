-- The last step of an epoch's computation (docs/team.md, "Rewards"; docs/settlement.md): what the team
-- lines staged by team_settle_epoch are paid. All of it, or each line ⌊wanted × pool ÷ Σ wanted⌋ when
-- the referral pool holds less; one leg takes the total from the referral pool to the settlement
-- account (flow `team:epoch:<n>`), from which the chunks pay each user. The device direct reward takes
-- from the referral pool at purchase time too, so the pool is locked from the read of what it holds to
-- the commit: settleEpoch calls this last, right before the computation commits. Errors: NS004 the
-- pool would pay more than it may; NL00x from the ledger. Returns what was paid, as jsonb.
CREATE OR REPLACE FUNCTION team_settle_pay(p_epoch integer, p_now timestamptz)
RETURNS jsonb
LANGUAGE plpgsql
SET jit = off
AS $$
DECLARE
  v_pool_id bigint;
  v_pool numeric;
  v_clearing_id bigint;
  v_wanted numeric;
  v_payable numeric;
  v_paid numeric;
  v_share numeric;
  v_community numeric;
  v_power numeric;
  v_flow_id bigint;
  v_journal integer := 0;
BEGIN
  SELECT coalesce(sum(wanted), 0) INTO v_wanted FROM team_settle_stage WHERE epoch = p_epoch;
  SELECT id, available INTO v_pool_id, v_pool FROM ledger_accounts WHERE user_id IS NULL AND kind = 'referral_pool' AND asset = 'NADI' FOR UPDATE;
  SELECT id INTO v_clearing_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'settlement' AND asset = 'NADI';
  IF v_pool_id IS NULL OR v_clearing_id IS NULL THEN
    RAISE EXCEPTION 'the referral_pool and settlement accounts must exist' USING ERRCODE = 'NL003';
  END IF;
  v_payable := least(v_wanted, greatest(v_pool, 0));
  IF v_wanted > v_payable THEN
    UPDATE team_settle_stage SET amount = div(wanted * v_payable, v_wanted) WHERE epoch = p_epoch;
  END IF;
  SELECT coalesce(sum(amount), 0), coalesce(sum(amount) FILTER (WHERE k = 1), 0), coalesce(sum(amount) FILTER (WHERE k = 2), 0),
         coalesce(sum(amount) FILTER (WHERE k = 3), 0)
    INTO v_paid, v_share, v_community, v_power FROM team_settle_stage WHERE epoch = p_epoch;
  IF v_paid > v_payable OR EXISTS (SELECT 1 FROM team_settle_stage WHERE epoch = p_epoch AND (amount < 0 OR amount > wanted)) THEN
    RAISE EXCEPTION 'team epoch % would pay % of a payable %', p_epoch, v_paid, v_payable USING ERRCODE = 'NS004';
  END IF;
  IF v_paid > 0 THEN
    v_flow_id := ledger_open_flow('team:epoch:' || p_epoch, NULL, 'share_income',
      json_build_object('epoch', p_epoch, 'wanted', v_wanted::text, 'payable', v_payable::text), p_now);
    PERFORM ledger_legs_prepare();
    INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
    VALUES (0, v_flow_id, 'share_income', 'NADI', v_paid, v_pool_id, 'available', v_clearing_id, 'available', jsonb_build_object('epoch', p_epoch));
    v_journal := ledger_post_legs(p_now);
    IF (SELECT available FROM ledger_accounts WHERE id = v_pool_id) < 0 THEN
      RAISE EXCEPTION 'the referral pool would go below zero' USING ERRCODE = 'NS004';
    END IF;
  END IF;
  RETURN jsonb_build_object(
    'flow_id', v_flow_id, 'wanted', v_wanted::text, 'payable', v_payable::text, 'paid', v_paid::text,
    'share_income', v_share::text, 'community_power_income', v_community::text, 'power_level_income', v_power::text, 'journal', v_journal);
END;
$$;
