// The invite tree's aggregates (docs/team.md "Aggregates") against a recomputation from scratch:
// every user's own and team performance, direct, active direct and team counts, and every ranking
// week's amounts, recomputed with plain SQL from performance_events, users.referrer_id and the
// closure table (itself recomputed from users.referrer_id). Users are registered through the
// registration's own insert (insertUserWithAncestors), in batched transactions, not SIWE sign-ins.
import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { levelOf, teamDefaults, weekOf } from '@nadi/economy/team';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { insertUserWithAncestors } from '../user/index.ts';
import { readTeamFigures } from './figures.ts';
import { insertSyntheticTree } from '../../test/synthetic-tree.ts';
import { noDrift, teamDrift } from '../../test/team-drift.ts';
import { addPerformance, foldPerformance, performanceKinds } from './performance.ts';
import { prng } from '../../test/prng.ts';

const isPostgres = process.env.TEST_DB === 'postgres';
const unit = 10n ** 18n;
const dayMs = 86_400_000;
const start = Date.parse('2026-11-02T00:00:00.000Z');
/** The first test's random tree and purchases (refunds among them). */
const userCount = 2_000;
const purchaseCount = 3_000;

let t: TestApp;
let rootId: number;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
  rootId = Number(rowsOf<{ id: number }>(await db().execute(sql`select id from users where referrer_id is null order by id limit 1`))[0]?.id);
});
afterAll(async () => {
  await t?.close();
});

/** A small seeded generator, so a failing run can be replayed. */

const run = randomBytes(4).toString('hex');
let registered = 0;

/** Registers one user under `referrerId`; answers its id. */
async function register(tx: Tx, referrerId: number): Promise<number> {
  registered += 1;
  const user = await insertUserWithAncestors(tx, {
    address: `0x${run}${registered.toString(16).padStart(32, '0')}`,
    inviteCode: `T${run}${registered}`,
    referrerId,
    name: `member ${registered}`,
  });
  if (!user) throw new Error('registration failed');
  return user.id;
}

/** Runs `count` steps in transactions of `batch` steps each. */
async function inBatches(count: number, batch: number, step: (tx: Tx, i: number) => Promise<void>): Promise<void> {
  for (let from = 0; from < count; from += batch) {
    await db().transaction(async (tx) => {
      for (let i = from; i < Math.min(count, from + batch); i += 1) await step(tx, i);
    });
  }
}

interface Purchase {
  userId: number;
  ref: string;
  usdt: bigint;
  at: Date;
}

function purchase(tx: Tx, p: Purchase, kind: (typeof performanceKinds)[number] = 'device'): Promise<boolean> {
  return addPerformance(tx, { userId: p.userId, kind, ref: p.ref, usdt: p.usdt, at: p.at });
}

/** Every difference between the aggregates (folded first, `batchMax` events a batch) and their recomputation from scratch. */
async function drift(batchMax?: number) {
  await foldPerformance(db(), batchMax);
  return teamDrift(db());
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** The executed plans of every statement `read` runs: what it scanned and how many rows each step read. */
async function plansOf(read: (db: Db) => Promise<unknown>): Promise<PlanNode[][]> {
  const statements: SQL[] = [];
  const recorder = { execute: (query: SQL) => (statements.push(query), db().execute(query)) } as unknown as Db;
  await read(recorder);
  const plans: PlanNode[][] = [];
  for (const statement of statements) {
    const row = rowsOf<{ 'QUERY PLAN': unknown }>(await db().execute(sql`explain (analyze, format json) ${statement}`))[0];
    const json = typeof row?.['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row?.['QUERY PLAN'];
    plans.push(nodesOf((json as { Plan: PlanNode }[])[0]!.Plan));
  }
  return plans;
}

describe('team aggregates', () => {
  // The property holds at any size; these sizes keep every kind of step many times over (deep chains,
  // refunds back to zero, replays, six weeks, several fold batches). 10,000 users and 10,500 purchases
  // took 85 s on PGlite and 51 s on PostgreSQL, the suite's slowest file.
  it(`after ${purchaseCount.toLocaleString('en')} random purchases (and refunds) in a ${userCount.toLocaleString('en')}-user random tree, every aggregate equals its recomputation`, async () => {
    const seed = 18;
    const random = prng(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    // A random recursive tree, with three in ten joining under one of the three newest members (chains).
    const members: number[] = [rootId];
    await inBatches(userCount, 250, async (tx) => {
      const referrer = random() < 0.3 ? (members[members.length - 1 - Math.floor(random() * Math.min(3, members.length))] as number) : pick(members);
      members.push(await register(tx, referrer));
    });

    // Some buyers buy often (a refund then rarely brings them back to zero), most once or twice.
    const whales = Array.from({ length: 50 }, () => pick(members));
    const bought: Purchase[] = [];
    const mine = new Map<number, bigint>();
    let backToZero = 0;
    let replays = 0;
    await inBatches(purchaseCount, 250, async (tx, i) => {
      const refundable = bought.length > 0 && random() < 1 / 21;
      if (refundable) {
        const index = Math.floor(random() * bought.length);
        const p = bought[index] as Purchase;
        bought[index] = bought[bought.length - 1] as Purchase;
        bought.pop();
        const at = new Date(p.at.getTime() + Math.floor(random() * 10 * dayMs));
        expect(await purchase(tx, { userId: p.userId, ref: `${p.ref}:refund`, usdt: -p.usdt, at })).toBe(true);
        const left = (mine.get(p.userId) ?? 0n) - p.usdt;
        mine.set(p.userId, left);
        if (left === 0n) backToZero += 1;
        return;
      }
      const p: Purchase = {
        userId: random() < 0.3 ? pick(whales) : pick(members),
        ref: `test:${run}:${i}`,
        usdt: BigInt(1 + Math.floor(random() * 3_000)) * unit + BigInt(Math.floor(random() * 1_000_000)),
        at: new Date(start + Math.floor(random() * 35 * dayMs)),
      };
      expect(await purchase(tx, p, pick(performanceKinds))).toBe(true);
      if (random() < 0.02) {
        // A retried call of the same source changes nothing.
        expect(await purchase(tx, { ...p, usdt: p.usdt * 2n })).toBe(false);
        replays += 1;
      }
      bought.push(p);
      mine.set(p.userId, (mine.get(p.userId) ?? 0n) + p.usdt);
    });

    // Folded in batches of 1,000: several batches, as 10,500 pending purchases make with the job's 5,000.
    expect(await drift(1_000)).toEqual(noDrift);
    // Not a vacuous match: the tree, the counts and the weeks are all populated, and refunds took
    // buyers back to zero (an active direct lost).
    const shape = rowsOf<{ closure: number; depth: number; active: number; weeks: number; events: number }>(
      await db().execute(sql`
        select (select count(*) from user_ancestors)::int as closure, (select max(depth) from user_ancestors)::int as depth,
               (select count(*) from user_performance where active_directs > 0)::int as active,
               (select count(distinct week) from team_week_performance)::int as weeks, (select count(*) from performance_events)::int as events`),
    )[0];
    // (Seed 18 gives 17,376 closure rows, depth 19, 830 active, 7 weeks, 70 back to zero, 54 replays.)
    expect(shape?.closure).toBeGreaterThan(15_000);
    expect(shape?.depth).toBeGreaterThan(15);
    expect(shape?.active).toBeGreaterThan(500);
    expect(shape?.weeks).toBeGreaterThanOrEqual(6);
    expect(shape?.events).toBe(purchaseCount);
    expect(backToZero).toBeGreaterThan(30);
    expect(replays).toBeGreaterThan(30);
    // About 40 s on PGlite on a loaded machine (3,000 purchases, one at a time).
  }, 240_000);

  it('a line of 1,000: a registration and a purchase at depth 1,000 reach all 1,000 ancestors; a read stays one row', async () => {
    // 999 users in a line under the root, written set-based as registrations would leave them.
    const chain = [rootId, ...(await insertSyntheticTree(db(), { rootId, parents: Array.from({ length: 999 }, (_, i) => i - 1), at: new Date(start) }))];
    const at = new Date('2026-11-25T12:00:00.000Z');
    const week = weekOf(at);
    const ancestors = sql`(select ancestor_id from user_ancestors where user_id = ${chain.at(-1)!}::int union all select ${chain.at(-1)!}::int)`;
    const figures = async () =>
      rowsOf<{ user_id: number; team: string; size: number; directs: number; active: number; week: string }>(
        await db().execute(sql`
          select a.id as user_id, coalesce(p.team_performance, 0)::text as team, coalesce(p.team_size, 0) as size,
                 coalesce(p.direct_count, 0) as directs, coalesce(p.active_directs, 0) as active, coalesce(w.amount, 0)::text as week
            from ${ancestors} a (id) left join user_performance p on p.user_id = a.id
                 left join team_week_performance w on w.user_id = a.id and w.week = ${week}
           order by a.id`),
      );
    const before = await figures();
    expect(before).toHaveLength(1_000);

    const bottom = await db().transaction((tx) => register(tx, chain.at(-1)!));
    await db().transaction((tx) => purchase(tx, { userId: bottom, ref: `test:${run}:deep`, usdt: 700n * unit, at }));
    // Exact before the fold (the pending purchase is added by the reader), and the same once folded.
    expect((await readTeamFigures(db(), chain[1]!)).teamPerformance - BigInt(before[1]!.team)).toBe(700n * unit);
    expect(await foldPerformance(db())).toBe(1);
    const after = await figures();
    const changed = after.map((row, i) => ({
      team: BigInt(row.team) - BigInt(before[i]!.team),
      size: row.size - before[i]!.size,
      week: BigInt(row.week) - BigInt(before[i]!.week),
    }));
    expect(changed).toEqual(Array.from({ length: 1_000 }, () => ({ team: 700n * unit, size: 1, week: 700n * unit })));
    const parent = after.find((row) => row.user_id === chain.at(-1));
    expect(parent).toMatchObject({ directs: 1, active: 1, size: 1 });
    const top = await readTeamFigures(db(), chain[1]!);
    expect(top).toMatchObject({ directs: 1, teamSize: 999 });
    expect(levelOf(top.teamPerformance, top.activeDirects, teamDefaults)).toBe(0);

    // Reading the top's figures is one index lookup of one row, whatever lies below, plus a pass over
    // the pending purchases (none left after the fold).
    const plans = await plansOf((reader) => readTeamFigures(reader, chain[1]!));
    expect(plans).toHaveLength(1);
    const scans = plans[0]!.filter((node) => node['Relation Name'] !== undefined);
    expect(scans.filter((node) => node['Relation Name'] === 'user_performance').map((node) => [node['Node Type'], node['Actual Rows']])).toEqual([
      ['Index Scan', 1],
    ]);
    expect(scans.filter((node) => node['Relation Name'] !== 'user_performance').map((node) => [node['Relation Name'], node['Actual Rows']])).toEqual(
      scans.filter((node) => node['Relation Name'] !== 'user_performance').map((node) => [node['Relation Name'], 0]),
    );
    expect(await drift()).toEqual(noDrift);
  }, 120_000);

  it('purchases and registrations at once in one subtree: none deadlocks and the totals are exact', async () => {
    const random = prng(7);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const top = await db().transaction((tx) => register(tx, rootId));
    const team: number[] = [top];
    await inBatches(40, 40, async (tx) => {
      team.push(await register(tx, pick(team)));
    });
    const before = await readTeamFigures(db(), top);
    const done: Purchase[] = [];
    let added = 0n;
    let joined = 0;
    for (let round = 0; round < (isPostgres ? 5 : 2); round += 1) {
      const refunds = done.splice(0, 10);
      const steps = Array.from({ length: 100 }, (_, i) => {
        const refund = refunds[i];
        if (refund) return { refund };
        if (random() < 0.4) return { referrer: pick(team) };
        const usdt = BigInt(1 + Math.floor(random() * 500)) * unit;
        return { buy: { userId: pick(team.slice(1)), ref: `test:${run}:par:${round}:${i}`, usdt, at: new Date(start + Math.floor(random() * 14 * dayMs)) } };
      });
      const outcomes = await Promise.allSettled(
        steps.map((step) =>
          db().transaction(async (tx) => {
            if (step.refund) return purchase(tx, { ...step.refund, ref: `${step.refund.ref}:refund`, usdt: -step.refund.usdt });
            if (step.buy) return purchase(tx, step.buy);
            return team.push(await register(tx, step.referrer));
          }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
      for (const step of steps) {
        if (step.refund) added -= step.refund.usdt;
        if (step.referrer) joined += 1;
        if (step.buy) {
          added += step.buy.usdt;
          done.push(step.buy);
        }
      }
    }
    const after = await readTeamFigures(db(), top);
    expect(after.teamSize - before.teamSize).toBe(joined);
    expect(after.teamPerformance - before.teamPerformance).toBe(added);
    expect(joined).toBeGreaterThan(50);
    expect(await drift()).toEqual(noDrift);
  }, 120_000);
});
