-- What the settlement accounts owe, per asset (docs/settlement.md): everything the computation of the
-- run being posted staged for its users, less what its posted chunks paid out. The ledger audit checks
-- each settlement account holds exactly this (zero when no run is posting).
CREATE OR REPLACE FUNCTION settlement_owed()
RETURNS TABLE (asset text, amount numeric)
LANGUAGE sql STABLE AS $$
  WITH run AS (
    SELECT epoch FROM settlement_runs WHERE status = 'posting'
  ), owed AS (
    SELECT s.immediate + s.locked AS nadi, 0::numeric AS usdt FROM mining_settle_stage s JOIN run ON s.epoch = run.epoch
    UNION ALL SELECT o.nadi, o.usdt FROM run CROSS JOIN LATERAL pledge_settle_owed(run.epoch) o
    UNION ALL SELECT o.nadi, o.usdt FROM run CROSS JOIN LATERAL node_settle_owed(run.epoch) o
    UNION ALL SELECT o.nadi, o.usdt FROM run CROSS JOIN LATERAL team_settle_owed(run.epoch) o
  ), paid AS (
    SELECT coalesce(sum(c.nadi), 0) AS nadi, coalesce(sum(c.usdt), 0) AS usdt
      FROM settlement_chunks c JOIN run ON c.epoch = run.epoch WHERE c.posted_at IS NOT NULL
  ), total AS (
    SELECT coalesce(sum(nadi), 0) AS nadi, coalesce(sum(usdt), 0) AS usdt FROM owed
  )
  SELECT 'NADI', total.nadi - paid.nadi FROM total, paid
  UNION ALL
  SELECT 'USDT', total.usdt - paid.usdt FROM total, paid
$$;
