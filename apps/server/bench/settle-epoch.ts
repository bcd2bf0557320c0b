// `npm run bench:settle-epoch -- --users 100000,300000,1000000`: one epoch's settlement on PostgreSQL
// for N users (docs/settlement.md), every fifth of them mining (devices with and without the uptime,
// destroy miners, trials; src/test/settlement-population.ts), every one holding a node (one in ten two)
// and three savings positions (flexible, locked 30 with a thirtieth ending each epoch, joint or node):
// at 100,000 users 100,000 node holders and 300,000 positions; all of them in one invite tree ten levels
// deep (fan-out 5, 5, 5, 4, 4, 3, 3, then 2; seedSyntheticTeam) whose upper users bought enough to be
// V1–V5, one in a hundred buying again after epoch 0's end. Seeded set-based into a fresh database on
// BENCH_DATABASE_URL's server. Times settleEpoch as the job calls it (the computation, then every chunk,
// then the finish) for epoch 0 (every vesting row new) and epoch 1 (a steady state: every vesting row
// releases and takes a tranche), and compares it with a bare INSERT … SELECT of the rows it wrote
// (rolled back): the journal rows of all its flows, mining_results, power_log, node_earnings,
// pledge_interest_lines and team_rewards; ratio = bare insert time / settlement time (goal ≥ 0.5).
// The probe: while each epoch settles, PROBE_WORKERS (default 4) connections each move one base unit
// between two random users' fund accounts through the ledger (runFlow, as a user's transfer does),
// then wait 10 ms, and time every move; the same probe runs for PROBE_IDLE_SECONDS (default 5) on the
// idle database just before. Printed: the moves' p50 / p99 / max on both, and the extra wait (goal:
// p99 + 100 ms, max + 1 s). The ledger audit runs on the result. A failed audit, a probe move that
// failed or an epoch with no rows ends the run with "FAILED" and a non-zero exit. `--smoke`: 300 users
// (apps/server/bench/benches.test.ts runs it in `npm test`; its figures mean nothing).
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { miningDefaults } from '@nadi/economy/economy';
import { openDatabase } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { auditLedger, runFlow, transfer, userAccount } from '../src/modules/ledger/index.ts';
import { settleEpoch, uptimeBeatsNeeded } from '../src/modules/mining/index.ts';
import { creditSyntheticFees, fundEveryone, seedSyntheticPopulation, seedSyntheticRewards, seedSyntheticTeam } from '../src/test/settlement-population.ts';
import { isSmoke, Problems } from './smoke.ts';
import { adminQuery, databaseUrl } from './pg-admin.ts';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** BENCH_DATABASE_NAME: another name lets a long run go on beside the test suite's smoke run of this bench. */
const databaseName = process.env.BENCH_DATABASE_NAME ?? 'nadi_bench_settle_epoch';
const usersArg = process.argv.indexOf('--users');
const problems = new Problems();
const sizes = (usersArg >= 0 ? (process.argv[usersArg + 1] ?? '') : isSmoke ? '300' : '100000')
  .split(',')
  .map((n) => Number(n.replace(/_/g, '')))
  .filter((n) => Number.isInteger(n) && n > 0);
if (sizes.length === 0) throw new Error('usage: npm run bench:settle-epoch -- --users 100000[,300000,...]');
const settings = { epochSeconds: 86_400, heartbeatSeconds: 60 };
const genesis = new Date('2026-11-22T00:00:00.000Z');

const seconds = (ms: number) => (ms / 1000).toFixed(2);

interface Latencies {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

interface Run {
  users: number;
  miners: number;
  holdings: number;
  positions: number;
  epoch: number;
  /** The whole settlement, its computation, and the chunks. */
  settleMs: number;
  computeMs: number;
  chunks: number;
  /** Rows written (journal, results, power log, earnings, interest lines, team lines) and their bare insert. */
  rows: number;
  bareMs: number;
  idle: Latencies;
  during: Latencies;
  depth: number;
  /** Each chunk's transaction (ms), and where the chunks' time went in all (ms per phase). */
  chunk: Latencies;
  phases: Record<string, number>;
}

/** A copy of some rows, inserted bare into their table again: materialized first, then one timed INSERT … SELECT, rolled back. */
interface BareRows {
  table: string;
  columns: string;
  /** Selects the rows (columns in order), changed where a key would collide. */
  select: string;
}

const journalColumns =
  'flow_id, type, asset, amount, debit_account_id, debit_part, credit_account_id, credit_part, debit_available_after, debit_frozen_after, debit_version, credit_available_after, credit_frozen_after, credit_version, memo, created_at';
/** The journal rows of every flow of epoch `epoch`'s settlement (its computation's four and its chunks'). */
const journalOf = (epoch: number): BareRows => ({
  table: 'ledger_transfers',
  columns: journalColumns,
  select: `select ${journalColumns} from ledger_transfers where flow_id in (select id from ledger_flows where idempotency_key in
             ('mining:epoch:${epoch}', 'pledge:epoch:${epoch}', 'node:epoch:${epoch}', 'team:epoch:${epoch}') or idempotency_key like 'settle:epoch:${epoch}:chunk:%')`,
});

/** The time of inserting the same rows bare (best of two), all parts in one transaction. */
async function bareInsertMs(parts: BareRows[]): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, databaseName) });
  await client.connect();
  let best = Number.POSITIVE_INFINITY;
  try {
    for (let round = 0; round < 2; round += 1) {
      await client.query('begin');
      for (const [i, part] of parts.entries()) await client.query(`create temp table bare_${i} on commit drop as ${part.select}`);
      const t0 = performance.now();
      for (const [i, part] of parts.entries()) await client.query(`insert into ${part.table} (${part.columns}) select * from bare_${i}`);
      best = Math.min(best, performance.now() - t0);
      await client.query('rollback');
    }
  } finally {
    await client.end();
  }
  return best;
}

const countOf = async (db: Awaited<ReturnType<typeof openDatabase>>['db'], query: ReturnType<typeof sql>) =>
  Number(rowsOf<{ n: number }>(await db.execute(query))[0]?.n ?? 0);

function latencies(samples: number[]): Latencies {
  const sorted = [...samples].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

/**
 * Users' money moves on their own connections until `until` resolves: each worker moves one base unit
 * between two random users' fund accounts (a flow locking both, as a transfer does) and waits 10 ms.
 * Answers every move's time in ms.
 */
async function probe(first: number, last: number, until: Promise<unknown>): Promise<number[]> {
  const database = await openDatabase({ url: databaseUrl(serverUrl, databaseName), dataDir: null, poolSizeMax: probeWorkers });
  const samples: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  const pick = () => first + Math.floor(Math.random() * (last - first + 1));
  try {
    await Promise.all(
      Array.from({ length: probeWorkers }, async () => {
        while (!done) {
          const [a, b] = [pick(), pick()];
          if (a === b) continue;
          const t0 = performance.now();
          try {
            await runFlow(database.db, {
              idempotencyKey: `bench-probe:${a}:${b}:${t0}:${Math.random()}`,
              userId: a,
              type: 'data_adjustment',
              params: {},
              legs: [transfer('data_adjustment', userAccount(a, 'fund', 'NADI'), userAccount(b, 'fund', 'NADI'), 1n)],
              result: () => null,
            });
            samples.push(performance.now() - t0);
          } catch (error) {
            problems.check(false, `probe move ${a} → ${b} failed: ${error instanceof Error ? error.message : String(error)}`);
          }
          await sleep(10);
        }
      }),
    );
  } finally {
    await database.close();
  }
  return samples;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const probeWorkers = Number(process.env.PROBE_WORKERS ?? 4);
/** Users per chunk (SETTLE_CHUNK_USERS; the app's default, settlementChunkUsers, when not set). */
const chunkUsers = process.env.SETTLE_CHUNK_USERS ? Number(process.env.SETTLE_CHUNK_USERS) : null;
const probeIdleMs = Number(process.env.PROBE_IDLE_SECONDS ?? (isSmoke ? 0.3 : 5)) * 1000;

async function runOnce(users: number): Promise<Run[]> {
  await adminQuery(serverUrl, `drop database if exists ${databaseName} with (force)`);
  await adminQuery(serverUrl, `create database ${databaseName}`);
  const database = await openDatabase({ url: databaseUrl(serverUrl, databaseName), dataDir: null, poolSizeMax: 2 });
  const { db } = database;
  try {
    await db.execute(sql`insert into app_settings (key, value) values ('mining_genesis', ${JSON.stringify(genesis.toISOString())}::jsonb),
                                                                        ('nadi_reference_price', '"0.5"'::jsonb)`);
    const seedStarted = performance.now();
    const createdAt = new Date(genesis.getTime() + 1000);
    const miners = await seedSyntheticPopulation(db, { users, epoch: 0, createdAt, beatsNeeded: uptimeBeatsNeeded({ ...miningDefaults, ...settings }) });
    const ids = rowsOf<{ first: number; last: number }>(await db.execute(sql`select min(id) as first, max(id) as last from users`))[0];
    const rewards = await seedSyntheticRewards(db, {
      first: Number(ids?.first),
      last: Number(ids?.last),
      holders: users,
      positions: 3 * users,
      epoch: 0,
      createdAt,
    });
    // Fees in epoch 1 too, so that both epochs pay a dividend.
    await creditSyntheticFees(db, BigInt(users), new Date(genesis.getTime() + settings.epochSeconds * 1000 + 1000));
    const tree = await seedSyntheticTeam(db, {
      ...{ first: Number(ids?.first), last: Number(ids?.last), fanouts: [5, 5, 5, 4, 4, 3, 3, 2] },
      ...{ boughtAt: createdAt, lateAt: new Date(genesis.getTime() + settings.epochSeconds * 1000 + 2000) },
    });
    await fundEveryone(db, 10n ** 18n, 'bench-funds');
    await db.execute(sql`vacuum analyze`);
    console.info(
      `  seeded ${users} users, ${miners} miners, ${rewards.holdings} nodes, ${rewards.positions} savings positions and a tree ${tree.depth} deep ` +
        `(${tree.closureRows} closure rows, ${tree.buyers} buyers) in ${seconds(performance.now() - seedStarted)} s`,
    );

    const runs: Run[] = [];
    for (const epoch of [0, 1]) {
      // Epoch 1 is a steady-state epoch: the devices beat as in epoch 0, every vesting row releases.
      if (epoch === 1)
        await db.execute(
          sql`insert into device_uptime (device_id, epoch, beats, last_beat_at) select device_id, 1, beats, last_beat_at from device_uptime where epoch = 0`,
        );
      const [first, last] = [Number(ids?.first), Number(ids?.last)];
      const idle = latencies(await probe(first, last, sleep(probeIdleMs)));
      const started = performance.now();
      let chunks = 0;
      const chunkMs: number[] = [];
      const phases: Record<string, number> = {};
      const settling = settleEpoch(
        {
          db,
          settings,
          now: () => new Date(genesis.getTime() + (epoch + 1) * settings.epochSeconds * 1000 + 5000),
          ...(chunkUsers ? { chunkUsers } : {}),
          onChunk: (c) => {
            chunks += 1;
            chunkMs.push(c.durationMs);
            for (const [k, v] of Object.entries(c.phasesMs)) phases[k] = (phases[k] ?? 0) + v;
          },
        },
        epoch,
      );
      const [outcome, probed] = await Promise.all([settling, probe(first, last, settling)]);
      const settleMs = performance.now() - started;
      if (outcome.status !== 'settled') throw new Error(`epoch ${epoch} was settled already`);
      const s = outcome.settlement;
      const shifted = (table: string, columns: string, where = `epoch = ${epoch}`) => ({
        table,
        columns,
        select: `select epoch + 1000000, ${columns.split(', ').slice(1).join(', ')} from ${table} where ${where}`,
      });
      const parts = [
        journalOf(epoch),
        shifted(
          'mining_results',
          'epoch, user_id, device_power, destroy_power, other_power, device_income, destroy_income, power_income, reduction, immediate, locked, released',
        ),
        shifted('power_log', 'epoch, user_id, type, miner_id, before, after, created_at'),
        shifted('pledge_interest_lines', 'epoch, position_id, user_id, amount'),
        shifted('node_earnings', 'epoch, holding_id, user_id, mining_income, dividend_nadi, dividend_usdt'),
        shifted(
          'team_rewards',
          'epoch, user_id, kind, source_user_id, source_depth, source_amount, rate_bps, lower_numerator, wanted, amount, ref, flow_id, created_at',
          `epoch = ${epoch} and ref is null`,
        ),
      ];
      let rows = 0;
      for (const part of parts) rows += await countOf(db, sql.raw(`select count(*)::int as n from (${part.select}) x`));
      problems.samples(rows, `rows written in epoch ${epoch} at ${users} users`);
      problems.samples(probed.length, `probe moves during epoch ${epoch} at ${users} users`);
      runs.push({
        ...{ users, miners, holdings: rewards.holdings, positions: rewards.positions, epoch, settleMs, computeMs: s.computeMs, chunks },
        ...{ rows, bareMs: await bareInsertMs(parts), idle, during: latencies(probed), depth: tree.depth },
        chunk: latencies(chunkMs),
        phases,
      });
    }
    const report = await auditLedger(db);
    if (!report.isOk) throw new Error(`ledger audit failed:\n${report.problems.join('\n')}`);
    return runs;
  } finally {
    await database.close();
  }
}

const ms = (v: number) => v.toFixed(1);

async function main(): Promise<void> {
  console.info(`bench:settle-epoch on ${new URL(serverUrl).host}, Node ${process.version}, probe ${probeWorkers} workers`);
  const runs: Run[] = [];
  for (const users of sizes) {
    console.info(`${users} users:`);
    for (const run of await runOnce(users)) {
      runs.push(run);
      console.info(
        `  epoch ${run.epoch}: settlement ${seconds(run.settleMs)} s (computation ${seconds(run.computeMs)} s, ${run.chunks} chunks ` +
          `${seconds(run.settleMs - run.computeMs)} s); ${run.rows} rows, bare insert ${seconds(run.bareMs)} s, ratio ${(run.bareMs / run.settleMs).toFixed(2)}; ` +
          `probe idle p50 ${ms(run.idle.p50)} / p99 ${ms(run.idle.p99)} / max ${ms(run.idle.max)} ms (${run.idle.n}), ` +
          `during p50 ${ms(run.during.p50)} / p99 ${ms(run.during.p99)} / max ${ms(run.during.max)} ms (${run.during.n}); ` +
          `chunk p50 ${ms(run.chunk.p50)} / p99 ${ms(run.chunk.p99)} / max ${ms(run.chunk.max)} ms (${Object.entries(run.phases)
            .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
            .join(', ')})`,
      );
    }
    console.info('  audit OK');
  }
  console.info(
    '\n| users | nodes | positions | epoch | settlement s | computation s | chunks | rows | bare s | ratio | µs per user | probe idle p50 / p99 / max ms | probe during p50 / p99 / max ms | extra p99 / max ms |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of runs) {
    console.info(
      `| ${r.users} | ${r.holdings} | ${r.positions} | ${r.epoch} | ${seconds(r.settleMs)} | ${seconds(r.computeMs)} | ${r.chunks} | ${r.rows} | ${seconds(r.bareMs)} | ` +
        `${(r.bareMs / r.settleMs).toFixed(2)} | ${((r.settleMs * 1000) / r.users).toFixed(1)} | ${ms(r.idle.p50)} / ${ms(r.idle.p99)} / ${ms(r.idle.max)} | ` +
        `${ms(r.during.p50)} / ${ms(r.during.p99)} / ${ms(r.during.max)} | ${ms(r.during.p99 - r.idle.p99)} / ${ms(r.during.max - r.idle.max)} |`,
    );
  }
  await adminQuery(serverUrl, `drop database if exists ${databaseName} with (force)`);
  problems.finish('bench:settle-epoch');
}

await main();
