// What the operator dashboard reads of deposits and withdrawals (docs/operator.md "Console API");
// operator/service.ts calls these through onchain/index.ts.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** Credited deposits per UTC day and asset since a time. */
export async function depositsByDay(db: Db, since: Date) {
  return rowsOf<{ day: string; asset: string; total: string }>(
    await db.execute(
      sql`select to_char(credited_at at time zone 'UTC', 'YYYY-MM-DD') as day, asset, sum(amount)::text as total from deposits where status = 'credited' and credited_at >= ${since} group by 1, 2`,
    ),
  );
}

/** Completed withdrawals per UTC day and asset since a time. */
export async function withdrawalsByDay(db: Db, since: Date) {
  return rowsOf<{ day: string; asset: string; total: string }>(
    await db.execute(
      sql`select to_char(completed_at at time zone 'UTC', 'YYYY-MM-DD') as day, asset, sum(amount)::text as total from withdrawals where status = 2 and completed_at >= ${since} group by 1, 2`,
    ),
  );
}

/** How many withdrawals wait for review. */
export async function pendingWithdrawalCount(db: Db): Promise<number> {
  return Number(rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from withdrawals where status = 0`))[0]?.n ?? 0);
}
