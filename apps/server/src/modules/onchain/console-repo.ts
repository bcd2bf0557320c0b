// What the operator dashboard reads of deposits and withdrawals (docs/operator.md "Console API");
// operator/service.ts calls these through onchain/index.ts.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { WithdrawalQueue } from '../../lib/metrics.ts';

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

/**
 * The withdrawals waiting now (the server's `withdrawals_waiting` series, docs/operations.md): for
 * review (status 0, aged from the request) and approved but not broadcast yet (status 1 without
 * broadcast_at, aged from the approval). One scan of the status index's two small ranges.
 */
export async function withdrawalQueue(db: Db): Promise<WithdrawalQueue> {
  const row = rowsOf<{ review: number; approved: number; review_age: string | null; approved_age: string | null }>(
    await db.execute(sql`select count(*) filter (where status = 0)::int as review,
                                count(*) filter (where status = 1)::int as approved,
                                extract(epoch from now() - min(created_at) filter (where status = 0))::text as review_age,
                                extract(epoch from now() - min(reviewed_at) filter (where status = 1))::text as approved_age
                           from withdrawals where status in (0, 1) and broadcast_at is null`),
  )[0];
  const age = (text: string | null | undefined) => Math.max(0, Number(text ?? 0));
  return {
    review: { count: Number(row?.review ?? 0), oldestSeconds: age(row?.review_age) },
    approved: { count: Number(row?.approved ?? 0), oldestSeconds: age(row?.approved_age) },
  };
}
