-- The team rewards in the epoch settlement (docs/team.md, "Rewards"): the storage setting they need.
-- The functions this migration once defined (team_settle_epoch) live in their modules' sql/
-- folders, one file each, applied after the migrations whenever a file changes
-- (apps/server/src/db/functions.ts, docs/sql.md). The migration stays, without them, so that the
-- journal (meta/_journal.json) and databases that ran it stay as they are.

-- Every settlement adds to the totals of every user it pays (columns no index covers): pages kept half
-- empty leave room for the new version on the same page, so the update is HOT and writes no index
-- entry (as migration 0016 does for pledge_positions).
ALTER TABLE team_reward_totals SET (fillfactor = 50);
