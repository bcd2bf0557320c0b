// What the proofs of rewards read of nodes (docs/transparency.md): an epoch's node mining income per
// user, from the node pool. The fee dividends come from the fees accounts, not a reward pool, and are
// not in a rewards tree. transparency/ calls these through node/index.ts.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** Each user's node mining income of one epoch (summed over their nodes), those above zero. */
export async function nodeIncomeOfEpoch(db: Db | Tx, epoch: number): Promise<{ user_id: number; amount: string }[]> {
  return rowsOf<{ user_id: number; amount: string }>(
    await db.execute(sql`select user_id, sum(mining_income)::text as amount from node_earnings where epoch = ${epoch}
                          group by user_id having sum(mining_income) > 0`),
  );
}

/** A user's node mining income of one epoch. */
export async function userNodeIncomeOfEpoch(db: Db | Tx, userId: number, epoch: number): Promise<bigint> {
  const row = rowsOf<{ amount: string }>(
    await db.execute(sql`select coalesce(sum(mining_income), 0)::text as amount from node_earnings where user_id = ${userId} and epoch = ${epoch}`),
  )[0];
  return BigInt(row?.amount ?? '0');
}
