-- The savings part's epoch row (docs/settlement.md), written by settlement_finish when the run's last
-- chunk has posted, from the summary pledge_settle_epoch returned at the computation.
CREATE OR REPLACE FUNCTION pledge_settle_finish(p_epoch integer, p_summary jsonb, p_now timestamptz)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO pledge_epochs (epoch, interest_paid, released, positions, flow_id, settled_at)
  VALUES (p_epoch, (p_summary->>'paid')::numeric, (p_summary->>'released')::numeric, (p_summary->>'positions')::integer,
          (p_summary->>'flow_id')::bigint, p_now);
END;
$$;
