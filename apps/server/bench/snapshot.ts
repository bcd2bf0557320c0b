// `npm run bench:snapshot -- --users 1000000`: a liabilities snapshot for N users on PostgreSQL
// (docs/transparency.md), its tree, the proofs served from it and the whole-tree check the
// independent verifier makes. Seeded set-based into a fresh database on BENCH_DATABASE_URL's server:
// N users, each with a NADI fund balance (a different amount per user) and one in three with USDT in
// the trade account. Measured, each goal from issue 32:
// - takeSnapshot as the job and the operator call it (the consistent read of every source, salts,
//   the random split and shuffle, the leaves, the tree, the chunks written): goal ≤ 60 s at 1,000,000;
// - the first proof (the instance loads the tree into its cache), then PROOFS random users' balance
//   proofs as the route serves them (the tree path, the salt, the user's expected figures from their
//   own history): goal p99 ≤ 5 ms;
// - the verifier's work: every stored leaf read back and the whole tree rebuilt and checked for
//   negative sums (packages/proof checkTree), its root compared with the snapshot's: goal ≤ 60 s.
// Each proof sampled is checked with verifyProof against the snapshot's root and the user's expected
// figures; a proof that fails, a root that differs, or totals that differ from the ledger end the run
// with "FAILED" and a non-zero exit. `--smoke`: 300 users (apps/server/bench/benches.test.ts runs it
// in `npm test`; its figures mean nothing).
import { sql } from 'drizzle-orm';
import { checkTree, verifyProof } from '@nadi/proof/proof';
import { nodeBytes, toHex } from '@nadi/proof/tree';
import { loadSettings } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { LocalBus } from '../src/lib/event-bus.ts';
import type { AppDeps } from '../src/deps.ts';
import { balanceProofOf, takeSnapshot, treeChunks, TreeCache } from '../src/modules/transparency/index.ts';
import { createUsers, fundEveryone } from '../src/test/settlement-population.ts';
import { prng } from '../src/test/prng.ts';
import { productionBenchEnv } from './settings.ts';
import { isSmoke, Problems } from './smoke.ts';
import { adminQuery, databaseUrl } from './pg-admin.ts';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const databaseName = process.env.BENCH_DATABASE_NAME ?? 'nadi_bench_snapshot';
const usersArg = process.argv.indexOf('--users');
const users = Number((usersArg >= 0 ? process.argv[usersArg + 1] : isSmoke ? '300' : '100000')?.replace(/_/g, ''));
if (!Number.isInteger(users) || users < 1) throw new Error('usage: npm run bench:snapshot -- --users 1000000');
const proofsSampled = Number(process.env.PROOFS ?? (isSmoke ? 50 : 2_000));
const problems = new Problems();
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const quiet = { error: () => {}, info: () => {}, warn: () => {} };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

/** A different fund NADI amount per user (a data adjustment on top of fundEveryone) and trade USDT for one in three. */
async function seedBalances(db: Db): Promise<void> {
  await fundEveryone(db, 10n ** 18n, 'bench-snapshot-funds');
  await db.transaction(async (tx) => {
    const flow = rowsOf<{ id: string }>(
      await tx.execute(sql`select ledger_open_flow('bench-snapshot-usdt', null, 'data_adjustment', '{}'::json, now())::text as id`),
    )[0]?.id;
    await tx.execute(sql`select ledger_legs_prepare()`);
    await tx.execute(sql`
      insert into ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part, memo)
      select a.user_id, ${flow}::bigint, 'data_adjustment', 'USDT', (a.user_id % 997 + 1)::numeric * 1000000000000000,
             (select id from ledger_accounts where user_id is null and kind = 'treasury' and asset = 'USDT'), 'available', a.id, 'available', null
        from ledger_accounts a where a.user_id is not null and a.kind = 'trade' and a.asset = 'USDT' and a.user_id % 3 = 0`);
    await tx.execute(sql`select ledger_post_legs(now())`);
  });
}

async function ledgerTotals(db: Db): Promise<{ NADI: bigint; USDT: bigint }> {
  const rows = rowsOf<{ asset: 'NADI' | 'USDT'; total: string }>(
    await db.execute(sql`select asset, sum(available + frozen)::text as total from ledger_accounts
                          where user_id is not null and kind in ('fund', 'trade') group by asset`),
  );
  const of = (asset: string) => BigInt(rows.find((r) => r.asset === asset)?.total ?? '0');
  return { NADI: of('NADI'), USDT: of('USDT') };
}

async function main(): Promise<void> {
  await adminQuery(serverUrl, `drop database if exists ${databaseName} with (force)`);
  await adminQuery(serverUrl, `create database ${databaseName}`);
  const url = databaseUrl(serverUrl, databaseName);
  // The pool a server opens (20 connections): a proof's reads go out in one parallel wave, as they do there.
  const database = await openDatabase({ url, dataDir: null });
  const { db } = database;
  try {
    const seedStarted = performance.now();
    await createUsers(db, users);
    await seedBalances(db);
    await db.execute(sql`vacuum analyze`);
    console.info(`bench:snapshot: ${users} users seeded in ${seconds(performance.now() - seedStarted)} s`);

    // No chain: the reserves are a handful of RPC reads beside this (captureReserves answers zero).
    const settings = {
      ...loadSettings({ ...productionBenchEnv(url), ENCRYPTION: 'off', LOG_LEVEL: 'warn' }),
      nadiAddress: null,
    };
    const deps: AppDeps = {
      settings,
      db,
      dbKind: 'postgres',
      chain: { verifyMessage: async () => false },
      now: () => new Date(),
      events: new LocalBus(),
    };

    const snapStarted = performance.now();
    const outcome = await takeSnapshot(deps, 'operator', null);
    const snapshotMs = performance.now() - snapStarted;
    if (outcome.status !== 'taken') throw new Error(`the snapshot was not taken: ${JSON.stringify(outcome)}`);
    const snapshotId = outcome.snapshotId;
    console.info(`bench:snapshot: snapshot and tree of ${users} users in ${seconds(snapshotMs)} s`);
    const tree = rowsOf<{ root_hash: string; root_sums: string[]; leaf_count: number }>(
      await db.execute(sql`select root_hash, root_sums::text[] as root_sums, leaf_count from proof_trees where scope = ${`snapshot:${snapshotId}`}`),
    )[0];
    if (!tree) throw new Error('no tree stored');
    const totals = await ledgerTotals(db);
    problems.check(
      BigInt(tree.root_sums[0]!) === totals.NADI && BigInt(tree.root_sums[1]!) === totals.USDT,
      `root sums ${tree.root_sums.join(', ')} differ from the ledger's ${totals.NADI}, ${totals.USDT}`,
    );

    // Proofs as the route serves them: the first loads the tree into the instance's cache.
    const cache = new TreeCache(db, quiet);
    const ids = rowsOf<{ id: number }>(await db.execute(sql`select id from users order by id`)).map((r) => Number(r.id));
    const random = prng(42);
    const loadStarted = performance.now();
    await balanceProofOf(deps, cache, ids[0]!, snapshotId);
    const firstProofMs = performance.now() - loadStarted;
    console.info(`bench:snapshot: first proof (the tree loaded into the cache) in ${seconds(firstProofMs)} s`);
    const times: number[] = [];
    let failed = 0;
    for (let i = 0; i < proofsSampled; i += 1) {
      const userId = ids[Math.floor(random() * ids.length)]!;
      const started = performance.now();
      const answer = await balanceProofOf(deps, cache, userId, snapshotId);
      times.push(performance.now() - started);
      const result = verifyProof(answer.proof, { userId, expectedSums: answer.expected.map((s) => BigInt(s)), publishedRoot: tree.root_hash });
      if (!result.ok) failed += 1;
    }
    problems.samples(times.length, 'proofs');
    problems.check(failed === 0, `${failed} of ${proofsSampled} proofs did not verify`);
    times.sort((a, b) => a - b);

    // The verifier's work: every leaf read back, the whole tree rebuilt and looked at.
    const verifyStarted = performance.now();
    const size = nodeBytes(2);
    const leaves = new Uint8Array(tree.leaf_count * size);
    for await (const chunk of treeChunks(db, `snapshot:${snapshotId}`)) leaves.set(chunk.leaves, chunk.firstLeaf * size);
    const check = checkTree(leaves, 2);
    const verifyMs = performance.now() - verifyStarted;
    problems.check(toHex(check.root.hash) === tree.root_hash, `the rebuilt root ${toHex(check.root.hash)} is not the stored ${tree.root_hash}`);
    problems.check(check.negative === null, `a negative sum at ${JSON.stringify(check.negative)}`);

    const p99 = percentile(times, 99);
    console.info('');
    console.info(`| users | leaves | snapshot s | first proof s | proof p50 ms | proof p99 ms | verify s |`);
    console.info(`|---|---|---|---|---|---|---|`);
    console.info(
      `| ${users} | ${tree.leaf_count} | ${seconds(snapshotMs)} | ${seconds(firstProofMs)} | ${percentile(times, 50).toFixed(2)} | ${p99.toFixed(2)} | ${seconds(verifyMs)} |`,
    );
    if (!isSmoke) {
      const verdict = (isMet: boolean) => (isMet ? 'met' : 'NOT met');
      console.info(
        `snapshot ≤ 60 s: ${verdict(snapshotMs <= 60_000)}; proof p99 ≤ 5 ms: ${verdict(p99 <= 5)}; verifier ≤ 60 s: ${verdict(verifyMs <= 60_000)}`,
      );
    }
  } finally {
    await database.close();
    await adminQuery(serverUrl, `drop database if exists ${databaseName} with (force)`);
  }
  problems.finish('bench:snapshot');
}

await main();
