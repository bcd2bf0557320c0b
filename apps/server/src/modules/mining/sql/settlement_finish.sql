-- Marks an epoch settled once every chunk has posted (docs/settlement.md): the settlement accounts must
-- be empty again (the chunks paid out exactly what the computation put in), then each part's epoch row
-- (pledge_epochs, node_epochs, team_epochs, from the run's summary) and mining_epochs.settled_at are
-- written, and the run is `settled`. Returns NULL while a chunk is still to post or when the run was
-- finished before; else its figures. Errors: NS004 the settlement accounts do not hold what they should.
CREATE OR REPLACE FUNCTION settlement_finish(p_epoch integer, p_now timestamptz)
RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_run settlement_runs%ROWTYPE;
  v_left numeric;
BEGIN
  SELECT * INTO v_run FROM settlement_runs WHERE epoch = p_epoch FOR UPDATE;
  IF NOT FOUND OR v_run.status <> 'posting' OR EXISTS (SELECT 1 FROM settlement_chunks WHERE epoch = p_epoch AND posted_at IS NULL) THEN
    RETURN NULL;
  END IF;
  SELECT coalesce(sum(abs(available) + abs(frozen)), 0) INTO v_left FROM ledger_accounts WHERE user_id IS NULL AND kind = 'settlement';
  IF v_left <> 0 THEN
    RAISE EXCEPTION 'epoch %: the settlement accounts hold % after the last chunk', p_epoch, v_left USING ERRCODE = 'NS004';
  END IF;
  PERFORM pledge_settle_finish(p_epoch, v_run.summary->'pledge', p_now);
  PERFORM node_settle_finish(p_epoch, v_run.summary->'node', p_now);
  PERFORM team_settle_finish(p_epoch, v_run.summary->'team', p_now);
  UPDATE mining_epochs SET settled_at = p_now WHERE epoch = p_epoch;
  UPDATE settlement_runs SET status = 'settled', settled_at = p_now WHERE epoch = p_epoch;
  RETURN jsonb_build_object('epoch', p_epoch, 'chunks', v_run.chunks, 'users', v_run.users);
END;
$$;
