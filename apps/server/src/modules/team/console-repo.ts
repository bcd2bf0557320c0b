// What the operator console reads of the team (docs/operator.md "Console API"); operator/service.ts
// calls these through team/index.ts.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { sqlList } from '../../db/sql-list.ts';

/** A user's performance aggregates (undefined before their first change). */
export async function performanceRow(db: Db, userId: number) {
  return rowsOf<{ me_performance: string; team_performance: string; direct_count: number; team_size: number }>(
    await db.execute(
      sql`select me_performance::text as me_performance, team_performance::text as team_performance, direct_count, team_size from user_performance where user_id = ${userId}`,
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
