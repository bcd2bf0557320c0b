// What the operator console reads of savings (docs/operator.md "Console API"); operator/service.ts
// calls these through pledge/index.ts.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { sqlList } from '../../db/sql-list.ts';

/** A user's latest savings positions. */
export async function userPledgePositions(db: Db, userId: number, limit: number) {
  return rowsOf<{ id: number; product_id: number; amount: string; status: string; created_at: Date | string }>(
    await db.execute(
      sql`select id, product_id, amount::text as amount, status::text as status, created_at from pledge_positions where user_id = ${userId} order by id desc limit ${limit}`,
    ),
  );
}

/** The savings interest paid in each of some epochs (absent: not settled). */
export async function pledgeEpochsPaid(db: Db, epochs: number[]) {
  if (epochs.length === 0) return [];
  return rowsOf<{ epoch: number; savings_paid: string }>(
    await db.execute(sql`select epoch, interest_paid::text as savings_paid from pledge_epochs where epoch in (${sqlList(epochs)})`),
  );
}
