-- Records every change of a ranked key of team_week_performance in team_rank_moves, in the writer's
-- transaction, so that the ranking's marks plus the moves not yet folded give one's own rank exactly
-- (docs/team.md "Ranking"). A key is ranked while its amount is above zero; null stands for "not
-- ranked" (no row, or an amount at or below zero). Changes that leave the amount as it was record
-- nothing. Whoever writes the table (a purchase, a folding job, a fix by hand) needs nothing more;
-- TRUNCATE is not seen, so the table is never truncated while marks exist (the job's next rebuild
-- would correct it).
CREATE OR REPLACE FUNCTION team_rank_moves_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.week = NEW.week AND OLD.user_id = NEW.user_id THEN
    IF OLD.amount IS DISTINCT FROM NEW.amount AND (OLD.amount > 0 OR NEW.amount > 0) THEN
      INSERT INTO team_rank_moves (week, user_id, old_amount, new_amount)
      VALUES (NEW.week, NEW.user_id, CASE WHEN OLD.amount > 0 THEN OLD.amount END, CASE WHEN NEW.amount > 0 THEN NEW.amount END);
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.amount > 0 THEN
    INSERT INTO team_rank_moves (week, user_id, old_amount, new_amount) VALUES (OLD.week, OLD.user_id, OLD.amount, NULL);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.amount > 0 THEN
    INSERT INTO team_rank_moves (week, user_id, old_amount, new_amount) VALUES (NEW.week, NEW.user_id, NULL, NEW.amount);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- The trigger is (re)made here, after the function it runs (a fresh database gets this file after
-- every versioned migration).
CREATE OR REPLACE TRIGGER team_week_performance_rank_moves
  AFTER INSERT OR UPDATE OR DELETE ON team_week_performance
  FOR EACH ROW EXECUTE FUNCTION team_rank_moves_record();
