// The weekly ranking (docs/team.md "Ranking"): team performance added in a week, highest first, ties
// by user id (who joined first), so the order is stable between reads. Read from
// team_week_performance through its index (week, amount desc nulls last, user_id): the order by
// names the same nulls order, or the planner sorts the whole week instead of reading the index.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { addressesOf } from '../user/index.ts';

export interface RankingRow {
  rank: number;
  userId: number;
  address: string;
  amount: bigint;
  mePerformance: bigint;
  teamPerformance: bigint;
  activeDirects: number;
}

export interface Ranking {
  list: RankingRow[];
  /** The user's own place; null when nothing was added to their team this week. */
  me: { rank: number | null; amount: bigint };
}

/** The top `limit` of `week`: only amounts above zero rank. */
export async function readRankingTop(db: Db | Tx, week: number, limit = 100): Promise<RankingRow[]> {
  const top = rowsOf<{ user_id: number; amount: string; me: string | null; team: string | null; active: number | null }>(
    await db.execute(sql`
      select w.user_id, w.amount::text as amount, p.me_performance::text as me, p.team_performance::text as team, p.active_directs as active
        from (select user_id, amount from team_week_performance where week = ${week} and amount > 0 order by amount desc nulls last, user_id limit ${limit}) w
        left join user_performance p on p.user_id = w.user_id
       order by w.amount desc nulls last, w.user_id`),
  );
  const addresses = await addressesOf(
    db,
    top.map((r) => Number(r.user_id)),
  );
  return top.map((r, i) => ({
    rank: i + 1,
    userId: Number(r.user_id),
    address: addresses.get(Number(r.user_id)) ?? '',
    amount: BigInt(r.amount),
    mePerformance: BigInt(r.me ?? '0'),
    teamPerformance: BigInt(r.team ?? '0'),
    activeDirects: Number(r.active ?? 0),
  }));
}

interface Mark {
  amount: bigint;
  userId: number;
  /** Ranked rows at or ahead of the mark's key, as of the job's last fold. */
  rank: number;
}

/**
 * The last mark strictly ahead of the key (amount, userId): the one with the same amount and the
 * largest smaller id, else the one with the smallest larger amount (and the largest id). Two probes
 * of team_rank_marks_key_idx, each one index range.
 */
async function markAhead(tx: Tx, week: number, amount: bigint, userId: number): Promise<Mark | null> {
  const x = sql`${amount.toString()}::numeric`;
  const row = rowsOf<{ amount: string; user_id: number; rank: number }>(
    await tx.execute(sql`
      select amount::text as amount, user_id, rank from (
        (select mark, amount, user_id, rank from team_rank_marks where week = ${week} and amount = ${x} and user_id < ${userId}
          order by user_id desc limit 1)
        union all
        (select mark, amount, user_id, rank from team_rank_marks where week = ${week} and amount > ${x}
          order by amount asc nulls first, user_id desc limit 1)) m
       order by mark desc limit 1`),
  )[0];
  return row ? { amount: BigInt(row.amount), userId: Number(row.user_id), rank: Number(row.rank) } : null;
}

/**
 * The rows strictly between `mark` (or the top, when null) and the key (amount, userId), counted on
 * the ranking index, as one, two or three ranges; and how the moves not yet folded change the
 * mark's rank (each move counts +1 if its new key is at or ahead of the mark, −1 if its old one was).
 */
async function aheadFromMark(tx: Tx, week: number, mark: Mark | null, amount: bigint, userId: number): Promise<number> {
  const x = sql`${amount.toString()}::numeric`;
  const count = (where: ReturnType<typeof sql>) => sql`(select count(*) from team_week_performance where week = ${week} and ${where})::int`;
  const sameAmountAhead = count(sql`amount = ${x} and user_id < ${userId}`);
  if (!mark) return countOf(tx, sql`select ${count(sql`amount > ${x}`)} + ${sameAmountAhead} as n`);
  const m = sql`${mark.amount.toString()}::numeric`;
  const between =
    mark.amount === amount
      ? count(sql`amount = ${x} and user_id > ${mark.userId} and user_id < ${userId}`)
      : sql`${count(sql`amount = ${m} and user_id > ${mark.userId}`)} + ${count(sql`amount < ${m} and amount > ${x}`)} + ${sameAmountAhead}`;
  const atOrAhead = (a: string) => sql`case when ${sql.raw(a)} > ${m} or (${sql.raw(a)} = ${m} and user_id <= ${mark.userId}) then 1 else 0 end`;
  const moved = sql`(select coalesce(sum(${atOrAhead('new_amount')} - ${atOrAhead('old_amount')}), 0) from team_rank_moves where week = ${week})::int`;
  return mark.rank + (await countOf(tx, sql`select ${between} + ${moved} as n`));
}

async function countOf(tx: Tx, query: ReturnType<typeof sql>): Promise<number> {
  return Number(rowsOf<{ n: number }>(await tx.execute(query))[0]?.n ?? 0);
}

/**
 * The user's own place in `week` (rank null when their amount is not above zero): 1 + the rows ahead
 * (a larger amount, or the same and a smaller id), counted as the mark just ahead of the user's key
 * (its rank, corrected by the moves since the last fold) plus the rows between it and the user. In
 * one snapshot (`tx` is a repeatable-read transaction), so the marks, the moves and the rows agree.
 */
async function ownRankIn(tx: Tx, week: number, userId: number): Promise<Ranking['me']> {
  const mine = rowsOf<{ amount: string }>(
    await tx.execute(sql`select amount::text as amount from team_week_performance where week = ${week} and user_id = ${userId}`),
  )[0];
  const amount = BigInt(mine?.amount ?? '0');
  if (amount <= 0n) return { rank: null, amount };
  const mark = await markAhead(tx, week, amount, userId);
  return { rank: (await aheadFromMark(tx, week, mark, amount, userId)) + 1, amount };
}

const snapshot = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

/** The user's own place in `week`, exact (see ownRankIn). */
export async function readOwnRank(db: Db, week: number, userId: number): Promise<Ranking['me']> {
  return db.transaction((tx) => ownRankIn(tx, week, userId), snapshot);
}

/**
 * The top `limit` of `week` and the user's own rank, in one repeatable-read snapshot: the list and
 * the rank agree (a user in the list has its place there as rank), exact as of that snapshot.
 */
export async function readRanking(db: Db, week: number, userId: number, limit = 100): Promise<Ranking> {
  return db.transaction(async (tx) => {
    const list = await readRankingTop(tx, week, limit);
    const inTop = list.find((r) => r.userId === userId);
    if (inTop) return { list, me: { rank: inTop.rank, amount: inTop.amount } };
    return { list, me: await ownRankIn(tx, week, userId) };
  }, snapshot);
}
