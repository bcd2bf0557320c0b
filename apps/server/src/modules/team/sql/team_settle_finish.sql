-- The team part's epoch row (docs/settlement.md), written by settlement_finish when the run's last chunk
-- has posted, from the summaries of team_settle_epoch and team_settle_pay.
CREATE OR REPLACE FUNCTION team_settle_finish(p_epoch integer, p_summary jsonb, p_now timestamptz)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO team_epochs (epoch, wanted, payable, paid, lines, flow_id, settled_at)
  VALUES (p_epoch, (p_summary->>'wanted')::numeric, (p_summary->>'payable')::numeric, (p_summary->>'paid')::numeric,
          (p_summary->>'lines')::integer, (p_summary->>'flow_id')::bigint, p_now);
END;
$$;
