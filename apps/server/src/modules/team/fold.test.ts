// Deferred folding of purchases into the invite tree's aggregates (docs/team.md "Aggregates"):
// exact reads before the fold, exactly-once folding (a rolled-back fold and a second fold add
// nothing twice), and concurrent purchases across a deep tree equal to a recomputation.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { insertSyntheticTree } from '../../test/synthetic-tree.ts';
import { noDrift, teamDrift } from '../../test/team-drift.ts';
import { readTeamFigures } from './figures.ts';
import { addPerformance, foldBatch, foldPerformance } from './performance.ts';

let t: TestApp;
let rootId: number;
const db = () => t.database.db;
const run = randomBytes(4).toString('hex');
const at = new Date('2026-11-25T12:00:00.000Z');

beforeAll(async () => {
  t = await createTestApp();
  rootId = Number(rowsOf<{ id: number }>(await db().execute(sql`select id from users where referrer_id is null order by id limit 1`))[0]?.id);
});
afterAll(async () => {
  await t?.close();
});

const pendingCount = async () => Number(rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from performance_pending`))[0]?.n);

/** A line of `depth` users under the root, and a small random team under its last. */
async function deepTree(depth: number, below: number): Promise<number[]> {
  const parents = [...Array.from({ length: depth }, (_, i) => i - 1), ...Array.from({ length: below }, (_, i) => depth - 1 + Math.floor((i * 7) % (i + 1)))];
  return insertSyntheticTree(db(), { rootId, parents, at });
}

describe('folding purchases into the aggregates', () => {
  it('reads are exact before the fold; a rolled-back fold and a second fold add nothing twice', async () => {
    const [top, middle, buyer] = await deepTree(3, 0);
    const before = await readTeamFigures(db(), top!);
    await db().transaction((tx) => addPerformance(tx, { userId: buyer!, kind: 'node', ref: `fold:${run}:1`, usdt: 300n, at }));
    // A retry of the same source adds nothing, pending or not.
    expect(await db().transaction((tx) => addPerformance(tx, { userId: buyer!, kind: 'node', ref: `fold:${run}:1`, usdt: 300n, at }))).toBe(false);
    const live = { top: await readTeamFigures(db(), top!), middle: await readTeamFigures(db(), middle!) };
    expect(live.top.teamPerformance - before.teamPerformance).toBe(300n);
    expect(live.middle).toMatchObject({ teamPerformance: 300n, activeDirects: 1, directs: 1 });
    expect(await pendingCount()).toBeGreaterThan(0);

    // A fold that fails after its statement (a crash before the commit) leaves everything pending.
    await expect(
      db().transaction(async (tx) => {
        expect(await foldBatch(tx)).toBeGreaterThan(0);
        throw new Error('crash mid-fold');
      }),
    ).rejects.toThrow('crash mid-fold');
    expect(await readTeamFigures(db(), middle!)).toEqual(live.middle);
    expect(await pendingCount()).toBeGreaterThan(0);

    expect(await foldPerformance(db())).toBeGreaterThan(0);
    expect(await foldPerformance(db())).toBe(0);
    expect(await pendingCount()).toBe(0);
    expect(await readTeamFigures(db(), top!)).toEqual(live.top);
    expect(await readTeamFigures(db(), middle!)).toEqual(live.middle);
    expect(await teamDrift(db())).toEqual(noDrift);

    // A refund folded in another batch: active directs drop back, team performance too.
    await db().transaction((tx) => addPerformance(tx, { userId: buyer!, kind: 'node', ref: `fold:${run}:1:refund`, usdt: -300n, at }));
    expect(await readTeamFigures(db(), middle!)).toMatchObject({ teamPerformance: 0n, activeDirects: 0 });
    await foldPerformance(db(), 1);
    expect(await readTeamFigures(db(), middle!)).toMatchObject({ teamPerformance: 0n, activeDirects: 0 });
    expect(await teamDrift(db())).toEqual(noDrift);
  });

  it('concurrent purchases across a deep tree, folded while they run, equal a recomputation', async () => {
    const users = await deepTree(200, 300);
    const folds: Promise<number>[] = [];
    const buys = Array.from({ length: 400 }, (_, i) => {
      const userId = users[(i * 7919) % users.length]!;
      if (i % 50 === 0) folds.push(foldPerformance(db(), 25));
      return db().transaction((tx) => addPerformance(tx, { userId, kind: 'node', ref: `fold:${run}:deep:${i}`, usdt: BigInt(1 + (i % 13)) * 10n ** 18n, at }));
    });
    const outcomes = await Promise.allSettled([...buys, ...folds]);
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    // Exact before the last fold (readers add what is pending), and after it.
    const top = await readTeamFigures(db(), users[0]!);
    await foldPerformance(db());
    expect(await readTeamFigures(db(), users[0]!)).toEqual(top);
    expect(await teamDrift(db())).toEqual(noDrift);
  }, 120_000);
});
