// What the operator console reads of the team (docs/operator.md "Console API"); operator/service.ts
// calls these through team/index.ts.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { sqlList } from '../../db/sql-list.ts';
import { pendingTeamOf } from './performance.ts';

/** A user's performance aggregates (undefined before their first change). */
export async function performanceRow(db: Db, userId: number) {
  return rowsOf<{ me_performance: string; team_performance: string; direct_count: number; team_size: number }>(
    await db.execute(
      sql`select p.me_performance::text as me_performance, (p.team_performance + ${pendingTeamOf(sql`p.user_id`)})::text as team_performance, p.direct_count, p.team_size
            from user_performance p where p.user_id = ${userId}`,
    ),
  )[0];
}

/** What the team settlement paid in each of some epochs (absent: not settled). */
export async function teamEpochsPaid(db: Db, epochs: number[]) {
  if (epochs.length === 0) return [];
  return rowsOf<{ epoch: number; team_paid: string }>(
    await db.execute(sql`select epoch, paid::text as team_paid from team_epochs where epoch in (${sqlList(epochs)})`),
  );
}
