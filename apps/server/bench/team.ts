// `npm run bench:team -- --users 1000000 --purchases 100000 --clients 16`: the invite tree's
// aggregates on PostgreSQL (docs/team.md "Aggregates", docs/benchmarks.md "Team").
// A fresh database on TEST_DATABASE_URL's server (default postgres://root@127.0.0.1:5432/test),
// dropped at the end (--keep 1 leaves it). The tree, built set-based (src/test/synthetic-tree.ts):
// a random tree where half the users join under a uniformly chosen earlier user and half under the
// referrer of one (a few large teams, many small), a line of --depth users under the root, and
// --deep users in a random tree under the line's last (each of them 1,000 levels down or more).
// Then --purchases purchases by --buyers random users with --clients concurrent clients, each one
// transaction with the store payment's writes (see `purchase`) and (a) addPerformance or (b) only
// the performance event row, (a) and (b) alternating in --rounds rounds. Then --reads team reads
// (readTeamFigures + levelOf) of random users and --reads ranking reads (readRanking: a tenth for
// users in the top 100, most for users far below, some with nothing this week). Latencies in
// hdr-histogram-js. Smaller runs: --users 200000 --deep 1000 --purchases 10000 --buyers 10000.
// `--ranked 100000,300000,1000000`: the ranking alone (no tree, no purchases): that many users with an
// amount this week, seeded set-based size after size, and the ranking's reads at each (rankingOnly).
// An operation with no sample (a ratio computed from nothing) ends the run with "FAILED" and a
// non-zero exit. `--smoke`: 400 users, 40 purchases, 20 reads, then the ranking-only run at 1,000
// users with a mark every 10 ranks (apps/server/bench/benches.test.ts runs it in `npm test`; its
// figures mean nothing); flags given beside it still win.
import { cpus, totalmem } from 'node:os';
import { build } from 'hdr-histogram-js';
import { sql } from 'drizzle-orm';
import { levelOf, teamDefaults, weekOf } from '@nadi/economy/team';
import { openDatabase, type Database, type Tx } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { fee, lockAvailable, postFlow, runFlow, systemAccount, transfer, userAccount } from '../src/modules/ledger/index.ts';
import {
  addPerformance,
  foldPerformance,
  buildRankMarks,
  readOwnRank,
  readRanking,
  readRankingTop,
  readTeamFigures,
  rankMarkEvery,
  recordPurchaseReward,
  runRankRound,
} from '../src/modules/team/index.ts';
import { insertSyntheticTree } from '../src/test/synthetic-tree.ts';
import { isSmoke, Problems } from './smoke.ts';
import { prng } from '../src/test/prng.ts';
import { adminQuery, databaseUrl } from './pg-admin.ts';

type Db = Database['db'];

/** `--ranked 100000,300000,1000000`: the ranking reads alone, at each size in turn (see `rankingOnly`). */
function sizes(name: string, fallback: number[]): number[] {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const values = (process.argv[i + 1] ?? '').split(',').map((v) => Number(v.replace(/_/g, '')));
  if (values.some((v) => !Number.isInteger(v) || v <= 0) || values.some((v, k) => k > 0 && v <= (values[k - 1] as number)))
    throw new Error(`--${name} needs whole numbers, ascending, comma-separated`);
  return values;
}

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number((process.argv[i + 1] ?? '').replace(/_/g, '')) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} needs a whole number`);
  return value;
}

const options = {
  users: flag('users', isSmoke ? 400 : 1_000_000),
  depth: flag('depth', isSmoke ? 20 : 1_000),
  deep: flag('deep', isSmoke ? 20 : 5_000),
  purchases: flag('purchases', isSmoke ? 40 : 100_000),
  clients: flag('clients', isSmoke ? 2 : 16),
  buyers: flag('buyers', isSmoke ? 20 : 50_000),
  reads: flag('reads', isSmoke ? 20 : 10_000),
  rounds: flag('rounds', isSmoke ? 2 : 10),
  /** 0: purchases without the payment's flow and reward line (see `purchase`). */
  flow: flag('flow', 1),
  seed: flag('seed', 18),
  /** 1: leave the database for a look afterwards (the next run drops it). */
  keep: flag('keep', 0),
  /** Changes of ranked users' amounts between the ranking-only run's reads and the job's fold. */
  moves: flag('moves', isSmoke ? 20 : 3_000),
  /** A rank mark every this many ranks (the smoke run: small, so that its few users have marks). */
  markEvery: flag('mark-every', isSmoke ? 10 : rankMarkEvery),
  /** Ranked users for the ranking-only run (no tree, no purchases); empty: the full run. */
  ranked: sizes('ranked', []),
};
if (options.users < options.depth + options.deep + 1) throw new Error('--users must exceed --depth + --deep');
const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const databaseName = 'nadi_bench_team';
const problems = new Problems();
const unit = 10n ** 18n;
/** Every purchase falls in one ranking week (a Wednesday noon, a millisecond apart). */
const at0 = Date.parse('2026-11-25T12:00:00.000Z');
const week = weekOf(new Date(at0));

const random = prng(options.seed);
const below = (n: number) => Math.floor(random() * n);

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** The referrers of the bench's tree (synthetic-tree.ts's `parents`): random, then the line, then the deep subtree. */
function treeParents(): number[] {
  const random1 = options.users - options.depth - options.deep;
  const parents: number[] = [-1];
  for (let i = 1; i < random1; i += 1) {
    const j = below(i);
    parents.push(random() < 0.5 ? j : (parents[j] as number));
  }
  for (let i = 0; i < options.depth; i += 1) parents.push(i === 0 ? -1 : parents.length - 1);
  const bottom = parents.length - 1;
  for (let i = 0; i < options.deep; i += 1) parents.push(i === 0 ? bottom : bottom + 1 + below(i));
  return parents;
}

interface Buyer {
  id: number;
  /** Every synthetic user has one (the root does not buy). */
  referrerId: number;
}

/** The root, the tree, fund accounts holding plenty of USDT for the buyers, NADI fund accounts for their referrers and a full referral pool. */
async function seed(db: Db): Promise<{ rootId: number; ids: number[]; buyers: Buyer[]; deepFrom: number }> {
  const rootId = Number(
    rowsOf<{ id: number }>(
      await db.execute(sql`insert into users (address, invite_code, name) values ('0x0000000000000000000000000000000000000001', 'ROOT', 'root') returning id`),
    )[0]?.id,
  );
  const ids = await insertSyntheticTree(db, { rootId, parents: treeParents(), at: new Date(at0 - 86_400_000) });
  const picked = [...new Set(Array.from({ length: Math.min(options.buyers, ids.length) }, () => ids[below(ids.length)] as number))];
  const buyers = rowsOf<{ id: number; referrer_id: number }>(
    await db.execute(sql`select id, referrer_id from users where id = any(${`{${picked.join(',')}}`}::int[]) order by id`),
  ).map((r) => ({ id: Number(r.id), referrerId: Number(r.referrer_id) }));
  await db.execute(sql`
    insert into ledger_accounts (user_id, kind, asset, is_system)
    select id, 'fund', 'USDT', false from unnest(${`{${buyers.map((b) => b.id).join(',')}}`}::int[]) id
    union
    select id, 'fund', 'NADI', false from unnest(${`{${buyers.map((b) => b.referrerId).join(',')}}`}::int[]) id
    on conflict do nothing`);
  const funds = (from: number) =>
    buyers
      .slice(from, from + 16)
      .map((b) => transfer('data_adjustment', systemAccount('treasury', 'USDT'), userAccount(b.id, 'fund', 'USDT'), 10_000_000n * unit));
  for (let from = 0; from < buyers.length; from += 16) {
    await runFlow(db, { idempotencyKey: `bench-fund:${from}`, userId: null, type: 'data_adjustment', params: { from }, legs: funds(from), result: () => null });
  }
  const poolLeg = transfer('data_adjustment', systemAccount('treasury', 'NADI'), referralPool, 10n ** 12n * unit);
  await runFlow(db, { idempotencyKey: 'bench-pool', userId: null, type: 'data_adjustment', params: {}, legs: [poolLeg], result: () => null });
  await db.execute(sql`vacuum analyze`);
  // The line's lower half and the subtree under it: more than depth / 2 levels down.
  const deepFrom = ids[options.users - 1 - options.depth - options.deep + Math.floor(options.depth / 2)] as number;
  return { rootId, ids, buyers, deepFrom };
}

interface Latencies {
  count: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Latencies (µs) of one kind of operation, over one or more timed runs, and the time they took. */
interface Run {
  histogram: ReturnType<typeof build>;
  elapsedMs: number;
}

const newRun = (): Run => ({ histogram: build({ lowestDiscernibleValue: 1, highestTrackableValue: 600e6, numberOfSignificantValueDigits: 3 }), elapsedMs: 0 });

function figuresOf(run: Run): Latencies {
  const h = run.histogram;
  return {
    count: h.totalCount,
    perSecond: (h.totalCount * 1000) / run.elapsedMs,
    p50Ms: h.getValueAtPercentile(50) / 1000,
    p99Ms: h.getValueAtPercentile(99) / 1000,
    maxMs: h.maxValue / 1000,
  };
}

/**
 * Runs `count` operations with `clients` workers, each taking the next index, into `run` (and the
 * latencies of the operations `isSlow` picks into `slow` too, timed in the same run).
 */
async function timed(run: Run, count: number, clients: number, operation: (i: number) => Promise<void>, slow?: { run: Run; isSlow: (i: number) => boolean }) {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const started = performance.now();
      await operation(i);
      const us = Math.max(1, Math.round((performance.now() - started) * 1000));
      run.histogram.recordValue(us);
      if (slow?.isSlow(i)) slow.run.histogram.recordValue(us);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, worker));
  run.elapsedMs += performance.now() - started;
  if (slow) slow.run.elapsedMs += performance.now() - started;
}

interface Purchase {
  buyer: Buyer;
  usdt: bigint;
}

const referralPool = systemAccount('referral_pool', 'NADI');

/** The store payment's writes: the flow (its accounts locked: the referral pool first, as rewardOf does) and the reward's line. */
async function payment(tx: Tx, p: Purchase, ref: string, at: Date): Promise<void> {
  const reward = (p.usdt / 10n) * 2n;
  await lockAvailable(tx, referralPool);
  const treasury = systemAccount('treasury', 'USDT');
  const legs = [
    transfer('balance_buy_node_device', userAccount(p.buyer.id, 'fund', 'USDT'), treasury, p.usdt),
    fee('balance_buy_node_device', treasury, p.usdt / 5n),
    transfer('device_direct_reward', referralPool, userAccount(p.buyer.referrerId, 'fund', 'NADI'), reward),
  ];
  const { flowId } = await postFlow(tx, { idempotencyKey: ref, userId: p.buyer.id, type: 'balance_buy_node_device', params: {}, legs, result: () => null });
  const line = { userId: p.buyer.referrerId, sourceUserId: p.buyer.id, sourceUsdt: p.usdt, rateBps: 1_000n, wanted: reward, amount: reward };
  await recordPurchaseReward(tx, { ...line, ref, flowId, epoch: 0, at });
}

/**
 * One purchase transaction, with the writes of the store's payment (store/payment.ts payOrder): one
 * ledger flow (the price from the buyer's fund account to the treasury, the 20 % margin on to the
 * fees account, 10 % of the price in NADI at 0.5 from the referral pool to the referrer) and the
 * reward's line; then (a) addPerformance, or (b) only the performance event row. Not included: the
 * order's own row, its stock and its quote, which a store payment also writes and reads. With
 * --flow 0, neither the flow nor the line: the aggregates (or the event row) alone, where the root's
 * row is the only row every purchase writes.
 */
async function purchase(db: Db, mode: 'a' | 'b', i: number, p: Purchase): Promise<void> {
  const at = new Date(at0 + i);
  const ref = `bench:${mode}:${i}`;
  await db.transaction(async (tx) => {
    if (options.flow === 1) await payment(tx, p, ref, at);
    if (mode === 'a') await addPerformance(tx, { userId: p.buyer.id, kind: 'device', ref, usdt: p.usdt, at });
    else
      await tx.execute(
        sql`insert into performance_events (user_id, kind, ref, usdt, created_at) values (${p.buyer.id}, 'device', ${ref}, ${p.usdt.toString()}::numeric, ${at})`,
      );
  });
}

/** (a) and (b) alternating in --rounds rounds (a b, b a, a b, …), so both see the same database as it grows and the same neighbours on the machine. */
async function purchases(db: Db, buyers: Buyer[], deepFrom: number) {
  const plan: Purchase[] = Array.from({ length: options.purchases }, () => ({
    buyer: buyers[below(buyers.length)] as Buyer,
    usdt: BigInt(10 + below(2_000)) * unit,
  }));
  const runs = { a: newRun(), b: newRun(), deep: newRun() };
  const size = Math.ceil(plan.length / options.rounds);
  for (let round = 0; round < options.rounds; round += 1) {
    const slice = plan.slice(round * size, (round + 1) * size);
    for (const mode of round % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
      const deep = mode === 'a' ? { run: runs.deep, isSlow: (i: number) => (slice[i] as Purchase).buyer.id >= deepFrom } : undefined;
      await timed(runs[mode], slice.length, options.clients, (i) => purchase(db, mode, round * size + i, slice[i] as Purchase), deep);
    }
    console.info(`  round ${round + 1} of ${options.rounds}: ${runs.a.histogram.totalCount} + ${runs.b.histogram.totalCount} purchases`);
  }
  return { a: figuresOf(runs.a), b: figuresOf(runs.b), deep: figuresOf(runs.deep), addedUsdt: plan.reduce((sum, p) => sum + p.usdt, 0n) };
}

/** Team reads and ranking reads of random users. */
/** Team reads and ranking reads of random users, with one client and with --clients. */
async function reads(db: Db, ids: number[]) {
  const top = (await readRanking(db, week, ids[0] as number)).list.map((r) => r.userId);
  const ranked = Number(
    rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from team_week_performance where week = ${week} and amount > 0`))[0]?.n,
  );
  const far = rowsOf<{ user_id: number }>(
    await db.execute(sql`select user_id from team_week_performance where week = ${week} and amount > 0 order by random() limit ${options.reads}`),
  ).map((r) => Number(r.user_id));
  const whom = Array.from({ length: options.reads }, (_, i) => {
    const r = random();
    if (r < 0.1 && top.length > 0) return top[below(top.length)] as number;
    if (r < 0.9 && far.length > 0) return far[i % far.length] as number;
    return ids[below(ids.length)] as number;
  });
  const runs = { team: [newRun(), newRun()], ranking: [newRun(), newRun()] };
  for (const [k, clients] of [1, options.clients].entries()) {
    await timed(runs.team[k] as Run, options.reads, clients, async () => {
      const figures = await readTeamFigures(db, ids[below(ids.length)] as number);
      levelOf(figures.teamPerformance, figures.activeDirects, teamDefaults);
    });
    await timed(runs.ranking[k] as Run, options.reads, clients, async (i) => {
      await readRanking(db, week, whom[i] as number);
    });
  }
  return { team: runs.team.map(figuresOf), ranking: runs.ranking.map(figuresOf), ranked };
}

/**
 * The ranking-only run's users, up to `total` (more each size, the earlier ones kept): users rows,
 * empty figures and this week's amount, set-based. Amounts, a deterministic function of the id: 30 %
 * on one of three device prices (100, 500, 1,000 USDT: large ties), 1 % at zero (not ranked), the
 * rest 10 + 2,000,000 × r⁴ USDT (many small amounts, ties among them, a long tail).
 */
async function seedRanked(db: Db, total: number): Promise<number[]> {
  const from = Number(rowsOf<{ n: number }>(await db.execute(sql`select coalesce(max(id), 0)::int as n from users`))[0]?.n) + 1;
  await db.execute(sql`
    insert into users (address, invite_code, name)
    select '0x' || lpad(to_hex(g), 40, '0'), 'RK' || g, 'ranked ' || g from generate_series(${from}::int, ${total}::int) g`);
  await db.execute(sql`insert into user_performance (user_id) select id from users where id >= ${from}::int on conflict do nothing`);
  await db.execute(sql`
    insert into team_week_performance (week, user_id, amount, updated_at)
    select ${week}::int, id,
           (case when r1 < 0.3 then (array[100, 500, 1000])[1 + id % 3]
                 when r1 < 0.31 then 0
                 else 10 + floor(2000000 * r2 ^ 4) end)::numeric * ${unit.toString()}::numeric,
           ${new Date(at0)}::timestamptz
      from (select id, ((id::int8 * 2654435761) % 4294967296) / 4294967296.0 as r1,
                       ((id::int8 * 40503 + 12345) % 65521) / 65521.0 as r2
              from users where id >= ${from}::int) u`);
  await db.execute(sql`vacuum analyze team_week_performance`);
  await db.execute(sql`analyze users`);
  return rowsOf<{ id: number }>(await db.execute(sql`select id from users order by id`)).map((r) => Number(r.id));
}

/** The old own rank, the peer of readOwnRank: every row ahead counted, two ranges of the ranking index. */
async function ownRankByCount(db: Db, userId: number): Promise<number | null> {
  const row = rowsOf<{ n: number | null }>(
    await db.execute(sql`
      with me as (select amount from team_week_performance where week = ${week} and user_id = ${userId} and amount > 0)
      select (select count(*) from team_week_performance t, me where t.week = ${week} and t.amount > me.amount)::int
           + (select count(*) from team_week_performance t, me where t.week = ${week} and t.amount = me.amount and t.user_id < ${userId})::int + 1 as n
        from me`),
  )[0];
  return row ? Number(row.n) : null;
}

/** `count` random ranked users' amounts raised by 1 to 1,000 USDT in one statement: as many moves for the marks to fold. */
async function move(db: Db, count: number): Promise<void> {
  await db.execute(sql`
    update team_week_performance set amount = amount + (1 + floor(random() * 1000))::numeric * ${unit.toString()}::numeric
     where week = ${week} and user_id in (select user_id from team_week_performance where week = ${week} and amount > 0 order by random() limit ${count})`);
}

/**
 * `--ranked a,b,c`: for each size in turn, the users (seedRanked) and the week's marks built
 * (buildRankMarks), then --reads reads of (e) the top 100 (readRankingTop), (f) one's own rank
 * (readOwnRank: a tenth for users in the top 100, nine tenths for random users, of whom 1 % are not
 * ranked) beside its peer (f0) the old count of everyone ahead, and (g) both as the route reads them
 * (readRanking), with one client and with --clients. Then --moves changes of random users' amounts,
 * own rank read again with them not yet folded (h), and the job's round that folds them (timed).
 */
async function rankingOnly(db: Db, totals: number[]): Promise<void> {
  console.info(`\n| ranked users | operation | clients | count | per s | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|---|---|---|`);
  const line = (ranked: number, name: string, clients: number, r: Latencies) =>
    console.info(
      `| ${ranked} | ${name} | ${clients} | ${r.count} | ${r.perSecond.toFixed(0)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.maxMs.toFixed(1)} |`,
    );
  for (const total of totals) {
    let started = performance.now();
    const ids = await seedRanked(db, total);
    const seeded = seconds(performance.now() - started);
    started = performance.now();
    const ranked = await buildRankMarks(db, week, new Date(at0), options.markEvery);
    const built = seconds(performance.now() - started);
    const top = (await readRankingTop(db, week)).map((r) => r.userId);
    const whom = Array.from({ length: options.reads }, () => {
      const r = random();
      if (r < 0.1 && top.length > 0) return top[below(top.length)] as number;
      return ids[below(ids.length)] as number;
    });
    const reads: [string, (i: number) => Promise<unknown>][] = [
      ['(e) top 100 (readRankingTop)', () => readRankingTop(db, week)],
      ['(f0) own rank, old: count everyone ahead', (i) => ownRankByCount(db, whom[i] as number)],
      ['(f) own rank (readOwnRank)', (i) => readOwnRank(db, week, whom[i] as number)],
      ['(g) both (readRanking)', (i) => readRanking(db, week, whom[i] as number)],
    ];
    for (const [name, read] of reads) {
      for (const clients of [1, options.clients]) {
        const run = newRun();
        await timed(run, options.reads, clients, async (i) => void (await read(i)));
        problems.samples(run.histogram.totalCount, name);
        line(ranked, name, clients, figuresOf(run));
      }
    }
    for (const userId of whom.slice(0, 50)) {
      const [mine, counted] = [(await readOwnRank(db, week, userId)).rank, await ownRankByCount(db, userId)];
      problems.check(mine === counted, `user ${userId}: readOwnRank ${mine}, counted ${counted}`);
    }
    await move(db, options.moves);
    const pending = newRun();
    await timed(pending, options.reads, 1, async (i) => void (await readOwnRank(db, week, whom[i] as number)));
    line(ranked, `(h) own rank, ${options.moves} moves not folded`, 1, figuresOf(pending));
    started = performance.now();
    const round = await runRankRound(db, week, new Date(at0), options.markEvery, options.markEvery * 4);
    const folded = `${round.moves} moves folded${round.isBuilt ? ' and the marks rebuilt' : ''} in ${seconds(performance.now() - started)} s`;
    for (const userId of whom.slice(0, 50)) {
      const [mine, counted] = [(await readOwnRank(db, week, userId)).rank, await ownRankByCount(db, userId)];
      problems.check(mine === counted, `after the fold, user ${userId}: readOwnRank ${mine}, counted ${counted}`);
    }
    console.info(`  (${ids.length} users, ${ranked} ranked, seeded in ${seeded} s, marks built in ${built} s; ${folded})`);
  }
}

async function machine(db: Db): Promise<string> {
  const settings = rowsOf<{ version: string; shared_buffers: string; synchronous_commit: string }>(
    await db.execute(
      sql`select version() as version, current_setting('shared_buffers') as shared_buffers, current_setting('synchronous_commit') as synchronous_commit`,
    ),
  )[0];
  return `${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GB; ${settings?.version.split(' on ')[0]}, shared_buffers ${settings?.shared_buffers}, synchronous_commit ${settings?.synchronous_commit}; Node ${process.version}`;
}

const row = (name: string, r: Latencies) =>
  `| ${name} | ${r.count} | ${r.perSecond.toFixed(0)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.maxMs.toFixed(1)} |`;

async function main(): Promise<void> {
  await adminQuery(serverUrl, `drop database if exists ${databaseName} with (force)`);
  await adminQuery(serverUrl, `create database ${databaseName}`);
  const database = await openDatabase({ url: databaseUrl(serverUrl, databaseName), dataDir: null, poolSizeMax: options.clients + 2 });
  try {
    const { db } = database;
    console.info(`bench:team on ${new URL(serverUrl).host}: ${await machine(db)}`);
    console.info(`options: ${JSON.stringify(options)}`);
    if (options.ranked.length > 0) await rankingOnly(db, options.ranked);
    else await fullRun(db);
    // The smoke run checks the ranking-only run too, on the same database.
    if (isSmoke && options.ranked.length === 0) await rankingOnly(db, [options.users + 600]);
  } finally {
    await database.close();
    if (options.keep === 0) await adminQuery(serverUrl, `drop database if exists ${databaseName} with (force)`);
  }
  problems.finish('bench:team');
}

/** The tree, the purchases and the reads (the default run). */
async function fullRun(db: Db): Promise<void> {
  let started = performance.now();
  const { rootId, ids, buyers, deepFrom } = await seed(db);
  const shape = rowsOf<{ closure: number; depth: number; size: string }>(
    await db.execute(sql`select (select count(*) from user_ancestors)::int as closure, (select max(depth) from user_ancestors)::int as depth,
                                  pg_size_pretty(pg_total_relation_size('user_ancestors')) as size`),
  )[0];
  console.info(
    `seeded ${ids.length + 1} users (${shape?.closure} closure rows, ${shape?.size}, depth up to ${shape?.depth}), ${buyers.length} buyers in ${seconds(performance.now() - started)} s`,
  );

  started = performance.now();
  const bought = await purchases(db, buyers, deepFrom);
  console.info(`purchases in ${seconds(performance.now() - started)} s`);
  const root = await readTeamFigures(db, rootId);
  if (root.teamPerformance !== bought.addedUsdt) throw new Error(`the root's team performance ${root.teamPerformance} is not the ${bought.addedUsdt} bought`);
  // (a) purchases leave their ancestors' figures pending (docs/team.md "Aggregates"); the team job
  // folds them within a second in the app: here once, timed, before the reads and the ranking.
  started = performance.now();
  const folded = await foldPerformance(db);
  console.info(`folded ${folded} pending purchases into the tree in ${seconds(performance.now() - started)} s`);
  await db.execute(sql`vacuum analyze`);
  started = performance.now();
  const round = await runRankRound(db, week, new Date(at0), options.markEvery, options.markEvery * 4);
  console.info(`ranking marks: ${round.moves} moves folded${round.isBuilt ? ', marks built' : ''} in ${seconds(performance.now() - started)} s`);
  const read = await reads(db, ids);

  console.info(`\n| operation (purchases: ${options.clients} clients) | count | per s | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|---|`);
  console.info(row('(a) purchase with aggregates', bought.a));
  console.info(row(`… of which by buyers > ${Math.floor(options.depth / 2)} levels down`, bought.deep));
  console.info(row('(b) purchase, event row only', bought.b));
  for (const [k, clients] of [1, options.clients].entries()) {
    console.info(row(`(c) team read (readTeamFigures + levelOf), ${clients} client${clients === 1 ? '' : 's'}`, read.team[k] as Latencies));
    console.info(row(`(d) ranking read (readRanking), ${clients} client${clients === 1 ? '' : 's'}`, read.ranking[k] as Latencies));
  }
  problems.samples(bought.a.count, '(a) purchases');
  problems.samples(bought.b.count, '(b) purchases');
  for (const r of [...read.team, ...read.ranking]) problems.samples(r.count, 'reads');
  console.info(`\nthroughput ratio a / b: ${(bought.a.perSecond / bought.b.perSecond).toFixed(2)} (goal ≥ 0.5); ${read.ranked} users ranked this week`);
}

await main();
