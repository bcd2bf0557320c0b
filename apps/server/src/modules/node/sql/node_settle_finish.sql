-- The node part's epoch row (docs/settlement.md), written by settlement_finish when the run's last chunk
-- has posted, from the summary node_settle_epoch returned at the computation.
CREATE OR REPLACE FUNCTION node_settle_finish(p_epoch integer, p_summary jsonb, p_now timestamptz)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO node_epochs (epoch, fees_nadi, fees_usdt, dividend_nadi, dividend_usdt, bonus_paid, weight_total, holders, flow_id, settled_at)
  VALUES (p_epoch, (p_summary->>'fees_nadi')::numeric, (p_summary->>'fees_usdt')::numeric, (p_summary->>'dividend_nadi')::numeric,
          (p_summary->>'dividend_usdt')::numeric, (p_summary->>'bonus')::numeric, (p_summary->>'weight_total')::numeric,
          (p_summary->>'holders')::integer, (p_summary->>'flow_id')::bigint, p_now);
END;
$$;
