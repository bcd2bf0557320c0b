// The sign_ins table (migration 0017): one row per user and day (epoch), primary key (user_id, day).
// Every read names the user and walks that key; a user's history holds at most one row a day.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

export interface SignInRow {
  day: number;
  cycleDay: number;
  /** What was paid (less than the cycle day's award when the pool ran short). */
  award: bigint;
  createdAt: Date;
}

/** A user's latest sign-in and the number of consecutive days signed up to it, itself included. */
export interface RunEnd extends SignInRow {
  streak: number;
}

interface RawSignIn {
  day: number | string;
  cycle_day: number | string;
  award: string;
  created_at: Date | string;
}

function toRow(r: RawSignIn): SignInRow {
  return { day: Number(r.day), cycleDay: Number(r.cycle_day), award: BigInt(r.award), createdAt: new Date(r.created_at) };
}

/**
 * The user's latest sign-in on or before `day` with the run of consecutive days it ends (null before
 * any). Days are unique per user, so walking back from the latest, the k-th row belongs to the run
 * exactly while its day is the latest day − (k − 1): one pass over the user's rows in key order.
 */
export async function readRunEnd(db: Db | Tx, userId: number, day: number): Promise<RunEnd | null> {
  const rows = rowsOf<RawSignIn & { streak: number | string }>(
    await db.execute(sql`
      with mine as (
        select day, cycle_day, award, created_at, row_number() over (order by day desc) as position
          from sign_ins
         where user_id = ${userId} and day <= ${day}
      )
      select m.day, m.cycle_day, m.award::text as award, m.created_at,
             (select count(*) from mine r where r.day + r.position = m.day + 1)::int as streak
        from mine m
       where m.position = 1`),
  );
  const row = rows[0];
  return row ? { ...toRow(row), streak: Number(row.streak) } : null;
}

/** Everything the user was ever paid for signing in. */
export async function readTotalAwarded(db: Db | Tx, userId: number): Promise<bigint> {
  const rows = rowsOf<{ total: string }>(await db.execute(sql`select coalesce(sum(award), 0)::text as total from sign_ins where user_id = ${userId}`));
  return BigInt(rows[0]?.total ?? '0');
}

/**
 * Writes the day's row unless the user has one: the primary key decides, so of any number of parallel
 * requests (on any number of instances) exactly one inserts; the others wait for it and insert
 * nothing (or insert, if it rolled back). Answers whether this one inserted.
 */
export async function insertSignIn(tx: Tx, userId: number, row: SignInRow): Promise<boolean> {
  const rows = rowsOf<{ day: number }>(
    await tx.execute(sql`
      insert into sign_ins (user_id, day, cycle_day, award, created_at)
      values (${userId}, ${row.day}, ${row.cycleDay}, ${row.award.toString()}::numeric, ${row.createdAt})
      on conflict (user_id, day) do nothing
      returning day`),
  );
  return rows.length > 0;
}

/** What the day's sign-in paid and the flow that paid it (none when nothing was paid). */
export async function recordPayment(tx: Tx, userId: number, day: number, award: bigint, flowId: number | null): Promise<void> {
  await tx.execute(sql`update sign_ins set award = ${award.toString()}::numeric, flow_id = ${flowId} where user_id = ${userId} and day = ${day}`);
}

/** The user's sign-ins, newest first, and how many there are. */
export async function listSignIns(db: Db, userId: number, offset: number, limit: number): Promise<{ rows: SignInRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.execute(sql`
      select day, cycle_day, award::text as award, created_at
        from sign_ins
       where user_id = ${userId}
       order by day desc
       limit ${limit} offset ${offset}`),
    db.execute(sql`select count(*)::int as total from sign_ins where user_id = ${userId}`),
  ]);
  return { rows: rowsOf<RawSignIn>(rows).map(toRow), total: Number(rowsOf<{ total: number }>(count)[0]?.total ?? 0) };
}
