// A user's team figures in one row read (docs/team.md "Aggregates"): own and team performance, the
// direct, active direct and team counts, kept by registrations and purchases, plus the purchases
// not folded yet (team/performance.ts foldPerformance), so the figures are exact at every moment.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { pendingActiveOf, pendingTeamOf } from './performance.ts';

export interface TeamFigures {
  mePerformance: bigint;
  teamPerformance: bigint;
  /** Direct referrals; those of them who have bought something; everyone below. */
  directs: number;
  activeDirects: number;
  teamSize: number;
}

export const noFigures: TeamFigures = { mePerformance: 0n, teamPerformance: 0n, directs: 0, activeDirects: 0, teamSize: 0 };

export async function readTeamFigures(db: Db | Tx, userId: number): Promise<TeamFigures> {
  const rows = rowsOf<{ me: string; team: string; directs: number; active: number; size: number }>(
    await db.execute(sql`
      select p.me_performance::text as me, (p.team_performance + ${pendingTeamOf(sql`p.user_id`)})::text as team, p.direct_count as directs,
             p.active_directs + ${pendingActiveOf(sql`p.user_id`)} as active, p.team_size as size
        from user_performance p where p.user_id = ${userId}`),
  );
  const row = rows[0];
  if (!row) return noFigures;
  return {
    mePerformance: BigInt(row.me),
    teamPerformance: BigInt(row.team),
    directs: Number(row.directs),
    activeDirects: Number(row.active),
    teamSize: Number(row.size),
  };
}
