// The ranking's marks (docs/team.md "Ranking", "One's own rank"): every `rankMarkEvery`-th key of the
// week's ranking with the number of ranked rows at or ahead of it, so that one's own rank is the mark
// just ahead plus a short count, not a count of everyone ahead. Kept exact by folding the moves the
// trigger on team_week_performance records (sql/team_rank_moves_record.sql); rebuilt from the rows
// when a class (the rows between two marks) grows past `rankClassMax`. Reads are exact whatever the
// job does: the marks plus the moves not yet folded are the ranking as of the read's snapshot; the
// job only keeps the moves few and the classes short, which is what keeps a read fast.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { lockKeys } from '../../lib/leader-lock.ts';

/** A mark every this many ranks when the marks are (re)built. */
export const rankMarkEvery = 1_000;
/** Rows between two marks (or before the first, or after the last) beyond which the marks are rebuilt. */
export const rankClassMax = 4_000;
/** One writer of the marks at a time (a build, a fold), whichever instance or job runs it. */
const lock = (tx: Tx) => tx.execute(sql`select pg_advisory_xact_lock(${lockKeys.teamRankMarks})`);

/**
 * Marks `week` afresh from its rows: the moves recorded so far and the rows are read in one statement
 * (one snapshot), so every move the new marks already count is deleted with them and every later one
 * stays to be folded. Answers the rows ranked.
 */
export async function buildRankMarks(db: Db, week: number, now: Date, every = rankMarkEvery): Promise<number> {
  const ranked = await db.transaction(async (tx) => {
    await lock(tx);
    await tx.execute(sql`delete from team_rank_marks where week = ${week}`);
    const row = rowsOf<{ ranked: number }>(
      await tx.execute(sql`
        with moved as (delete from team_rank_moves where week = ${week}),
        ranked as (
          select amount, user_id, row_number() over (order by amount desc nulls last, user_id) as rank
            from team_week_performance where week = ${week} and amount > 0
        ),
        marks as (
          insert into team_rank_marks (week, mark, amount, user_id, rank)
          select ${week}, rank / ${every}, amount, user_id, rank from ranked where rank % ${every} = 0
        )
        insert into team_rank_weeks (week, ranked, built_at, folded_at) values (${week}, (select count(*) from ranked), ${now}, ${now})
        on conflict (week) do update set ranked = excluded.ranked, built_at = excluded.built_at, folded_at = excluded.folded_at
        returning ranked`),
    )[0];
    return Number(row?.ranked ?? 0);
  });
  await vacuumMoves(db);
  return ranked;
}

/**
 * A read scans team_rank_moves whole, dead rows included until a vacuum: after a fold or a build
 * deleted rows, the job vacuums it at once (a few pages, milliseconds) rather than waiting for
 * autovacuum's next turn with a second's worth of dead rows per round piling up meanwhile.
 */
async function vacuumMoves(db: Db): Promise<void> {
  await db.execute(sql`vacuum team_rank_moves`);
}

/**
 * Counts the moves recorded since the last fold into the marks of `week` and deletes them, in one
 * statement: a mark's rank changes by the moves whose new key is at or ahead of it (+1) and those
 * whose old key was (−1). A key's class is the first mark at or behind it (two index probes); a mark
 * counts the keys of its class and of every class before it, hence the running sum. Answers the moves
 * folded and the largest class after them, or null when the week has no marks row (build it first).
 */
export async function foldRankMoves(db: Db, week: number, now: Date): Promise<{ moves: number; largestClass: number } | null> {
  const folded = await db.transaction(async (tx) => {
    await lock(tx);
    const row = rowsOf<{ moves: number }>(
      await tx.execute(sql`
        with moved as (delete from team_rank_moves where week = ${week} returning user_id, old_amount, new_amount),
        keys as (
          select new_amount as amount, user_id, 1 as s from moved where new_amount is not null
          union all
          select old_amount, user_id, -1 from moved where old_amount is not null
        ),
        classed as (
          select k.s, coalesce(
            (select m.mark from team_rank_marks m where m.week = ${week} and m.amount = k.amount and m.user_id >= k.user_id order by m.user_id limit 1),
            (select m.mark from team_rank_marks m where m.week = ${week} and m.amount < k.amount order by m.amount desc nulls last, m.user_id limit 1)
          ) as mark
            from keys k
        ),
        per as (select mark, sum(s) as s from classed where mark is not null group by mark),
        shifted as (
          select m.mark, sum(coalesce(per.s, 0)) over (order by m.mark) as d
            from team_rank_marks m left join per on per.mark = m.mark where m.week = ${week}
        ),
        marks as (
          update team_rank_marks m set rank = m.rank + s.d::int from shifted s where m.week = ${week} and m.mark = s.mark and s.d <> 0
        ),
        weeks as (
          update team_rank_weeks set ranked = ranked + (select coalesce(sum(s), 0) from keys)::int, folded_at = ${now} where week = ${week}
          returning week
        )
        select (select count(*) from moved)::int as moves from weeks`),
    )[0];
    if (!row) return null;
    const sizes = rowsOf<{ largest: number }>(
      await tx.execute(sql`
        select greatest(
          (select max(rank - coalesce(before, 0)) from (select rank, lag(rank) over (order by mark) as before from team_rank_marks where week = ${week}) m),
          (select w.ranked - coalesce((select max(rank) from team_rank_marks where week = ${week}), 0) from team_rank_weeks w where w.week = ${week})
        )::int as largest`),
    )[0];
    return { moves: Number(row.moves), largestClass: Number(sizes?.largest ?? 0) };
  });
  if (folded && folded.moves > 0) await vacuumMoves(db);
  return folded;
}

/** Marks and moves of every week but `week`, deleted together (a read of such a week counts its rows, exact). */
async function dropOtherWeeks(db: Db, week: number): Promise<void> {
  await db.transaction(async (tx) => {
    await lock(tx);
    await tx.execute(sql`delete from team_rank_marks where week <> ${week}`);
    await tx.execute(sql`delete from team_rank_weeks where week <> ${week}`);
    await tx.execute(sql`delete from team_rank_moves where week <> ${week}`);
  });
}

export interface RankRound {
  week: number;
  isBuilt: boolean;
  moves: number;
}

/**
 * One round of the ranking job for `week`: the other weeks' marks go, then the week's moves are
 * folded, and its marks are (re)built when it has none yet or a class grew past `classMax` (tests
 * and the bench's smoke run mark more often than the defaults, to have marks at small sizes).
 */
export async function runRankRound(db: Db, week: number, now: Date, every = rankMarkEvery, classMax = rankClassMax): Promise<RankRound> {
  await dropOtherWeeks(db, week);
  const folded = await foldRankMoves(db, week, now);
  const isBuilt = folded === null || folded.largestClass > classMax;
  if (isBuilt) await buildRankMarks(db, week, now, every);
  return { week, isBuilt, moves: folded?.moves ?? 0 };
}
