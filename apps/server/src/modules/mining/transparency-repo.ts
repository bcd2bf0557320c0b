// What the proofs of reserves and rewards read of mining (docs/transparency.md): every user's vesting in
// the caller's snapshot, an epoch's mining income per user, one user's income history, and the settled
// epochs with their emission. transparency/ calls these through mining/index.ts.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** Each user's mining income locked or released and not yet claimed (what the system account `vesting` holds for them). */
export async function vestingByUserIn(tx: Tx): Promise<{ user_id: number; amount: string }[]> {
  return rowsOf<{ user_id: number; amount: string }>(
    await tx.execute(sql`select user_id, (locked + claimable)::text as amount from mining_vesting where locked + claimable > 0`),
  );
}

/** Each user's mining income of one epoch (immediate + locked: what the mining pool paid them), those above zero. */
export async function miningIncomeOfEpoch(db: Db | Tx, epoch: number): Promise<{ user_id: number; amount: string }[]> {
  return rowsOf<{ user_id: number; amount: string }>(
    await db.execute(sql`select user_id, (immediate + locked)::text as amount from mining_results where epoch = ${epoch} and immediate + locked > 0`),
  );
}

/** A user's mining income (immediate, locked) summed over epochs `from`..`to` (both included). */
export async function userMiningIncomeOfEpochs(db: Db | Tx, userId: number, from: number, to: number): Promise<{ immediate: bigint; locked: bigint }> {
  const row = rowsOf<{ immediate: string; locked: string }>(
    await db.execute(sql`select coalesce(sum(immediate), 0)::text as immediate, coalesce(sum(locked), 0)::text as locked from mining_results
                          where user_id = ${userId} and epoch between ${from} and ${to}`),
  )[0];
  return { immediate: BigInt(row?.immediate ?? '0'), locked: BigInt(row?.locked ?? '0') };
}

/** The epoch being posted (computed, not settled yet: its users are paid chunk by chunk), or null. */
export async function postingEpoch(db: Db | Tx): Promise<number | null> {
  const row = rowsOf<{ epoch: number | null }>(await db.execute(sql`select min(epoch) as epoch from mining_epochs where settled_at is null`))[0];
  return row?.epoch === null || row?.epoch === undefined ? null : Number(row.epoch);
}

/** The settled epochs' numbers, oldest first. */
export async function settledEpochNumbers(db: Db | Tx): Promise<number[]> {
  return rowsOf<{ epoch: number }>(await db.execute(sql`select epoch from mining_epochs where settled_at is not null order by epoch`)).map((r) =>
    Number(r.epoch),
  );
}

/** The latest `limit` settled epochs, oldest first: their end, emission (the schedule) and what the mining pool paid. */
export async function settledEpochEmissions(db: Db | Tx, limit: number) {
  return rowsOf<{ epoch: number; ends_at: Date | string; emission: string; paid: string }>(
    await db.execute(sql`select * from (select epoch, ends_at, emission::text as emission, paid::text as paid from mining_epochs
                                         where settled_at is not null order by epoch desc limit ${limit}) e order by epoch`),
  );
}
