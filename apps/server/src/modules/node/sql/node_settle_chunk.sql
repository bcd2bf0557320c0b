-- One chunk of an epoch's node payouts (docs/settlement.md), for the users p_lo..p_hi of the stage
-- node_settle_epoch wrote; settlement_post_chunk calls it in the chunk's transaction:
--   'legs'   up to three legs per holder, settlement → fund: the node mining income (NADI) and the fee
--            dividends (NADI, USDT), each the sum over the holder's nodes;
--   'apply'  after the ledger: the holders' node_earnings rows.
CREATE OR REPLACE FUNCTION node_settle_chunk(p_epoch integer, p_lo integer, p_hi integer, p_phase text, p_flow_id bigint, p_now timestamptz)
RETURNS void
LANGUAGE plpgsql
SET jit = off
AS $$
DECLARE
  v_clearing_nadi_id bigint;
  v_clearing_usdt_id bigint;
BEGIN
  IF p_phase = 'legs' THEN
    SELECT id INTO v_clearing_nadi_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'settlement' AND asset = 'NADI';
    SELECT id INTO v_clearing_usdt_id FROM ledger_accounts WHERE user_id IS NULL AND kind = 'settlement' AND asset = 'USDT';
    INSERT INTO ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
    SELECT l.ord, p_flow_id, l.type, l.asset, l.amount, l.debit_id, 'available', coalesce(a.id, 0), 'available', NULL
      FROM (
        SELECT p.user_id, p.user_id::bigint * 16 + k.n AS ord, k.type, k.asset, k.amount, k.debit_id
          FROM (SELECT user_id, sum(mining_income) AS bonus, sum(dividend_nadi) AS dividend_nadi, sum(dividend_usdt) AS dividend_usdt
                  FROM node_settle_stage WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi GROUP BY user_id) p
          CROSS JOIN LATERAL (VALUES (4, 'node_mining_income', 'NADI', p.bonus, v_clearing_nadi_id),
                                     (5, 'node_fee_dividend', 'NADI', p.dividend_nadi, v_clearing_nadi_id),
                                     (6, 'node_fee_dividend', 'USDT', p.dividend_usdt, v_clearing_usdt_id)) AS k(n, type, asset, amount, debit_id)
         WHERE k.amount > 0
      ) l
      LEFT JOIN LATERAL (SELECT id FROM ledger_accounts WHERE user_id = l.user_id AND kind = 'fund' AND asset = l.asset LIMIT 1) a ON true;
    RETURN;
  END IF;
  IF p_phase <> 'apply' THEN
    RAISE EXCEPTION 'node_settle_chunk: unknown phase %', p_phase USING ERRCODE = 'NS003';
  END IF;
  INSERT INTO node_earnings (epoch, holding_id, user_id, mining_income, dividend_nadi, dividend_usdt)
  SELECT epoch, holding_id, user_id, mining_income, dividend_nadi, dividend_usdt FROM node_settle_stage
   WHERE epoch = p_epoch AND user_id BETWEEN p_lo AND p_hi ORDER BY holding_id;
END;
$$;
