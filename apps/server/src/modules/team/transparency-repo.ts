// What the proofs of rewards read of the team (docs/transparency.md): an epoch's team rewards per user
// (the settlement's lines, paid from the referral pool; the purchase-time lines carry a `ref` and are
// paid at purchase, outside any epoch). transparency/ calls these through team/index.ts.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** Each user's team rewards of one epoch's settlement, those above zero. */
export async function teamIncomeOfEpoch(db: Db | Tx, epoch: number): Promise<{ user_id: number; amount: string }[]> {
  return rowsOf<{ user_id: number; amount: string }>(
    await db.execute(sql`select user_id, sum(amount)::text as amount from team_rewards where epoch = ${epoch} and ref is null
                          group by user_id having sum(amount) > 0`),
  );
}

/** A user's team rewards of one epoch's settlement. */
export async function userTeamIncomeOfEpoch(db: Db | Tx, userId: number, epoch: number): Promise<bigint> {
  const row = rowsOf<{ amount: string }>(
    await db.execute(sql`select coalesce(sum(amount), 0)::text as amount from team_rewards where user_id = ${userId} and epoch = ${epoch} and ref is null`),
  )[0];
  return BigInt(row?.amount ?? '0');
}
