// One's own rank through the week's marks (docs/team.md "Ranking") against a brute-force ranking of
// the week's rows sorted here: random amounts with many ties, zero and negative weeks, rows added,
// changed and deleted between folds, reads with moves not yet folded, rebuilds, a writer committing
// while a fold runs (PostgreSQL), and neighbouring weeks. Marks every few ranks, so that a few
// hundred users cross many of them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { buildRankMarks, foldRankMoves, runRankRound } from './rank-marks.ts';
import { readOwnRank, readRanking } from './ranking.ts';
import { prng } from '../../test/prng.ts';

const isPostgres = process.env.TEST_DB === 'postgres';
const unit = 10n ** 18n;
const now = new Date('2026-11-25T12:00:00.000Z');
const every = 7;

let t: TestApp;
const db = () => t.database.db;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const random = prng(30);
const below = (n: number) => Math.floor(random() * n);
/** Amounts from a few values (ties), zero and negative ones (not ranked) and a spread. */
const amount = () => {
  const r = random();
  if (r < 0.4) return BigInt([5, 20, 100][below(3)] as number) * unit;
  if (r < 0.45) return 0n;
  if (r < 0.5) return -BigInt(1 + below(50)) * unit;
  return BigInt(1 + below(300)) * unit + BigInt(below(3)) * (unit / 2n);
};

/** Weeks far from the clock's, one per test, so that nothing else writes them. */
let nextWeek = 90_000;
/** User ids of their own (team_week_performance has no foreign key): the ranking reads only its rows. */
let nextUser = 5_000_000;

const write = (week: number, userId: number, a: bigint) =>
  db().execute(sql`
    insert into team_week_performance (week, user_id, amount, updated_at) values (${week}, ${userId}, ${a.toString()}::numeric, ${now})
    on conflict (week, user_id) do update set amount = excluded.amount, updated_at = excluded.updated_at`);

/** The brute force: every row of the week above zero, highest first, ties by the lower id; each user's rank. */
async function expectedRanks(week: number): Promise<Map<number, number>> {
  const rows = rowsOf<{ user_id: number; amount: string }>(
    await db().execute(sql`select user_id, amount::text as amount from team_week_performance where week = ${week}`),
  )
    .map((r) => ({ id: Number(r.user_id), amount: BigInt(r.amount) }))
    .filter((r) => r.amount > 0n)
    .sort((x, y) => (x.amount === y.amount ? x.id - y.id : x.amount > y.amount ? -1 : 1));
  return new Map(rows.map((r, i) => [r.id, i + 1]));
}

/** Every user's own rank (ranked or not) equals the brute force's. */
async function expectExact(week: number, users: number[]): Promise<void> {
  const expected = await expectedRanks(week);
  const got = new Map<number, number | null>();
  for (const id of users) got.set(id, (await readOwnRank(db(), week, id)).rank);
  expect(got).toEqual(new Map(users.map((id) => [id, expected.get(id) ?? null])));
}

async function marksOf(week: number): Promise<number> {
  return Number(rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from team_rank_marks where week = ${week}`))[0]?.n);
}
async function movesOf(week: number): Promise<number> {
  return Number(rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from team_rank_moves where week = ${week}`))[0]?.n);
}

/** `count` random changes: new users, new amounts (some to zero or below), deletes. */
async function churn(week: number, users: number[], count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const r = random();
    if (r < 0.2) {
      const id = nextUser++;
      users.push(id);
      await write(week, id, amount());
    } else if (r < 0.3) await db().execute(sql`delete from team_week_performance where week = ${week} and user_id = ${users[below(users.length)] as number}`);
    else await write(week, users[below(users.length)] as number, amount());
  }
}

describe('own rank through the marks', () => {
  it('equals the brute force on random data with ties, before and after marks, with moves pending, folded and rebuilt', async () => {
    const week = nextWeek++;
    const users = Array.from({ length: 200 }, () => nextUser++);
    for (const id of users) await write(week, id, amount());
    await expectExact(week, users);

    expect(await buildRankMarks(db(), week, now, every)).toBe((await expectedRanks(week)).size);
    expect(await marksOf(week)).toBe(Math.floor((await expectedRanks(week)).size / every));
    expect(await movesOf(week)).toBe(0);
    await expectExact(week, users);

    for (let round = 0; round < 3; round += 1) {
      await churn(week, users, 50);
      expect(await movesOf(week)).toBeGreaterThan(0);
      await expectExact(week, users);
      const folded = await foldRankMoves(db(), week, now);
      expect(folded?.moves).toBeGreaterThan(0);
      expect(await movesOf(week)).toBe(0);
      await expectExact(week, users);
    }
    // Classes grew past a small bound: the round rebuilds, and the ranks stay.
    await churn(week, users, 40);
    const round = await runRankRound(db(), week, now, every, every * 2);
    expect(round).toMatchObject({ week, isBuilt: true });
    await expectExact(week, users);
  });

  it('a ranked user has its place in the list as its rank, and an unranked one none', async () => {
    const week = nextWeek++;
    const users = Array.from({ length: 150 }, () => nextUser++);
    for (const id of users) await write(week, id, BigInt(1 + below(4)) * unit);
    const idle = nextUser++;
    const refunded = nextUser++;
    await write(week, idle, 0n);
    await write(week, refunded, -3n * unit);
    await buildRankMarks(db(), week, now, every);
    await churn(week, users, 30);
    const expected = await expectedRanks(week);
    for (const id of [...users.slice(0, 40), idle, refunded]) {
      const ranking = await readRanking(db(), week, id, 100);
      expect(ranking.list.map((r) => [r.userId, r.rank])).toEqual([...expected].filter(([, rank]) => rank <= 100).map(([userId, rank]) => [userId, rank]));
      expect(ranking.me.rank).toBe(expected.get(id) ?? null);
      const inList = ranking.list.find((r) => r.userId === id);
      if (inList) expect(ranking.me.rank).toBe(inList.rank);
    }
    expect((await readOwnRank(db(), week, idle)).rank).toBeNull();
    expect(await readOwnRank(db(), week, refunded)).toEqual({ rank: null, amount: -3n * unit });
    expect(await readOwnRank(db(), week, nextUser++)).toEqual({ rank: null, amount: 0n });
  });

  it('weeks are apart: a week boundary, the next week marked, the last week read exact without marks', async () => {
    const week = nextWeek++;
    const next = nextWeek++;
    const users = Array.from({ length: 120 }, () => nextUser++);
    for (const id of users) {
      await write(week, id, amount());
      if (random() < 0.6) await write(next, id, amount());
    }
    await runRankRound(db(), week, now, every, every * 4);
    expect(await marksOf(week)).toBeGreaterThan(0);
    await churn(next, users, 40);
    await expectExact(week, users);
    await expectExact(next, users);
    // The clock reaches the next week: its marks are built, the last week's go with their moves.
    await churn(week, users, 20);
    await runRankRound(db(), next, now, every, every * 4);
    expect([await marksOf(week), await movesOf(week), (await marksOf(next)) > 0]).toEqual([0, 0, true]);
    await churn(week, users, 20);
    await churn(next, users, 20);
    await expectExact(week, users);
    await expectExact(next, users);
  });

  it.runIf(isPostgres)('a change committed while a fold runs is folded later, never lost or counted twice', async () => {
    const week = nextWeek++;
    const users = Array.from({ length: 100 }, () => nextUser++);
    for (const id of users) await write(week, id, amount());
    await buildRankMarks(db(), week, now, every);
    await churn(week, users, 20);
    // A writer holds an uncommitted change (and its move) across a fold and commits after it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const isWritten = new Promise<void>((resolve) => (written = resolve));
    const writer = db().transaction(async (tx) => {
      await tx.execute(
        sql`update team_week_performance set amount = amount + ${(500n * unit).toString()}::numeric where week = ${week} and user_id = ${users[3] as number}`,
      );
      await tx.execute(
        sql`insert into team_week_performance (week, user_id, amount, updated_at) values (${week}, ${nextUser++}, ${(77n * unit).toString()}::numeric, ${now})`,
      );
      written();
      await held;
    });
    await isWritten;
    await foldRankMoves(db(), week, now);
    release();
    await writer;
    expect(await movesOf(week)).toBe(2);
    await expectExact(week, users);
    await foldRankMoves(db(), week, now);
    expect(await movesOf(week)).toBe(0);
    await expectExact(week, users);
  });
});
