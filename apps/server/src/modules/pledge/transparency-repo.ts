// What the proofs of reserves and rewards read of savings (docs/transparency.md): every user's pledged
// principal and unclaimed interest in the caller's snapshot, an epoch's interest per user, and one
// user's interest history. transparency/ calls these through pledge/index.ts.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** Each user's principal in active savings positions (what the system account `pledged` holds for them). */
export async function pledgedByUserIn(tx: Tx): Promise<{ user_id: number; amount: string }[]> {
  return rowsOf<{ user_id: number; amount: string }>(
    await tx.execute(sql`select user_id, sum(amount)::text as amount from pledge_positions where status = 'active' group by user_id`),
  );
}

/** Each user's savings interest accrued and not claimed yet (what `savings_interest` holds for them). */
export async function interestClaimableByUserIn(tx: Tx): Promise<{ user_id: number; amount: string }[]> {
  return rowsOf<{ user_id: number; amount: string }>(await tx.execute(sql`select user_id, claimable::text as amount from pledge_interest where claimable > 0`));
}

/** Each user's savings interest of one settled epoch (their pledge_interest_lines), those above zero. */
export async function interestOfEpoch(db: Db | Tx, epoch: number): Promise<{ user_id: number; amount: string }[]> {
  return rowsOf<{ user_id: number; amount: string }>(
    await db.execute(sql`select user_id, sum(amount)::text as amount from pledge_interest_lines where epoch = ${epoch}
                          group by user_id having sum(amount) > 0`),
  );
}

/** A user's savings interest lines summed over epochs `from`..`to` (both included). */
export async function userInterestOfEpochs(db: Db | Tx, userId: number, from: number, to: number): Promise<bigint> {
  const row = rowsOf<{ amount: string }>(
    await db.execute(sql`select coalesce(sum(amount), 0)::text as amount from pledge_interest_lines
                          where user_id = ${userId} and epoch between ${from} and ${to}`),
  )[0];
  return BigInt(row?.amount ?? '0');
}
