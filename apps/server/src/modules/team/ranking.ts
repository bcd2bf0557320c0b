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

/** The user's own place in `week`: rank null when their amount is not above zero. */
export async function readOwnRank(db: Db | Tx, week: number, userId: number): Promise<Ranking['me']> {
  const mine = rowsOf<{ amount: string }>(
    await db.execute(sql`select amount::text as amount from team_week_performance where week = ${week} and user_id = ${userId}`),
  )[0];
  const amount = BigInt(mine?.amount ?? '0');
  if (amount <= 0n) return { rank: null, amount };
  // Everyone ahead: a larger amount, or the same amount and a smaller id: two range counts on the
  // index (an OR of the two would not be one range).
  const ahead = rowsOf<{ n: number }>(
    await db.execute(sql`
      select (select count(*) from team_week_performance where week = ${week} and amount > ${amount.toString()}::numeric)::int
           + (select count(*) from team_week_performance where week = ${week} and amount = ${amount.toString()}::numeric and user_id < ${userId})::int as n`),
  )[0];
  return { rank: Number(ahead?.n ?? 0) + 1, amount };
}

/** The top `limit` of `week` and the user's own rank. */
export async function readRanking(db: Db | Tx, week: number, userId: number, limit = 100): Promise<Ranking> {
  const list = await readRankingTop(db, week, limit);
  const inTop = list.find((r) => r.userId === userId);
  if (inTop) return { list, me: { rank: inTop.rank, amount: inTop.amount } };
  return { list, me: await readOwnRank(db, week, userId) };
}
