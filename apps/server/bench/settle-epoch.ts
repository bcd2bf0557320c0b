// `npm run bench:settle-epoch -- --users 100000,300000`: one mining epoch's settlement on PostgreSQL
// for N users, every fifth of them mining (devices with and without the uptime, destroy miners,
// trials; population.ts), seeded set-based into a fresh database on BENCH_DATABASE_URL's server.
// Times `mining_settle_epoch` (through settleEpoch, as the job calls it) for epoch 0 (every vesting
// row new) and epoch 1 (a steady state: every vesting row releases and takes a tranche), counts the rows it wrote,
// and compares it with a bare INSERT … SELECT of as many journal rows into ledger_transfers (same
// table, same indexes, rolled back): ratio = bare insert time / settlement time (goal ≥ 0.5).
// The ledger audit runs on the result.
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { miningDefaults } from '@nadi/economy/economy';
import { openDatabase } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { auditLedger } from '../src/modules/ledger/index.ts';
import { settleEpoch, uptimeBeatsNeeded } from '../src/modules/mining/index.ts';
import { seedSyntheticPopulation } from '../src/modules/mining/settlement/population.ts';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const databaseName = 'nadi_bench_settle_epoch';
const usersArg = process.argv.indexOf('--users');
const sizes = (usersArg >= 0 ? (process.argv[usersArg + 1] ?? '') : '100000')
  .split(',')
  .map((n) => Number(n.replace(/_/g, '')))
  .filter((n) => Number.isInteger(n) && n > 0);
if (sizes.length === 0) throw new Error('usage: npm run bench:settle-epoch -- --users 100000[,300000,...]');
const settings = { epochSeconds: 86_400, heartbeatSeconds: 60 };
const genesis = new Date('2026-11-22T00:00:00.000Z');

function urlFor(database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

interface Run {
  users: number;
  miners: number;
  epoch: number;
  settleMs: number;
  sqlMs: number;
  bareMs: number;
  journal: number;
  results: number;
  vesting: number;
  changes: number;
}

/** The same journal rows as the flow's again, bare: materialized first, then one timed INSERT … SELECT, rolled back (best of two). */
async function bareInsertMs(flowId: number | null): Promise<number> {
  const client = new pg.Client({ connectionString: urlFor(databaseName) });
  await client.connect();
  let best = Number.POSITIVE_INFINITY;
  try {
    for (let round = 0; round < 2; round += 1) {
      await client.query('begin');
      await client.query(`create temp table bare on commit drop as select * from ledger_transfers where flow_id = $1`, [flowId]);
      const t0 = performance.now();
      await client.query(`
        insert into ledger_transfers (flow_id, type, asset, amount, debit_account_id, debit_part, credit_account_id, credit_part,
          debit_available_after, debit_frozen_after, debit_version, credit_available_after, credit_frozen_after, credit_version, memo, created_at)
        select flow_id, type, asset, amount, debit_account_id, debit_part, credit_account_id, credit_part,
               debit_available_after, debit_frozen_after, debit_version, credit_available_after, credit_frozen_after, credit_version, memo, created_at
          from bare`);
      best = Math.min(best, performance.now() - t0);
      await client.query('rollback');
    }
  } finally {
    await client.end();
  }
  return best;
}

async function runOnce(users: number): Promise<Run[]> {
  await admin(`drop database if exists ${databaseName} with (force)`);
  await admin(`create database ${databaseName}`);
  const database = await openDatabase({ url: urlFor(databaseName), dataDir: null, poolSizeMax: 2 });
  const { db } = database;
  try {
    await db.execute(sql`insert into app_settings (key, value) values ('mining_genesis', ${JSON.stringify(genesis.toISOString())}::jsonb),
                                                                        ('nadi_reference_price', '"0.5"'::jsonb)`);
    const seedStarted = performance.now();
    const miners = await seedSyntheticPopulation(db, {
      users,
      epoch: 0,
      createdAt: new Date(genesis.getTime() + 1000),
      beatsNeeded: uptimeBeatsNeeded({ ...miningDefaults, ...settings }),
    });
    await db.execute(sql`vacuum analyze`);
    console.info(`  seeded ${users} users and ${miners} miners in ${seconds(performance.now() - seedStarted)} s`);

    const runs: Run[] = [];
    for (const epoch of [0, 1]) {
      // Epoch 1 is a steady-state epoch: the devices beat as in epoch 0, every vesting row releases.
      if (epoch === 1)
        await db.execute(
          sql`insert into device_uptime (device_id, epoch, beats, last_beat_at) select device_id, 1, beats, last_beat_at from device_uptime where epoch = 0`,
        );
      const started = performance.now();
      const outcome = await settleEpoch({ db, settings, now: () => new Date(genesis.getTime() + (epoch + 1) * settings.epochSeconds * 1000 + 5000) }, epoch);
      const settleMs = performance.now() - started;
      if (outcome.status !== 'settled') throw new Error(`epoch ${epoch} was settled already`);
      const s = outcome.settlement;
      const vesting = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from mining_vesting where updated_epoch = ${epoch}`))[0]?.n ?? 0;
      runs.push({
        users,
        miners,
        epoch,
        settleMs,
        sqlMs: s.durationMs,
        bareMs: await bareInsertMs(s.flowId),
        journal: s.journal,
        results: s.results,
        vesting: Number(vesting),
        changes: s.minerChanges,
      });
    }
    const report = await auditLedger(db);
    if (!report.isOk) throw new Error(`ledger audit failed:\n${report.problems.join('\n')}`);
    return runs;
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  console.info(`bench:settle-epoch on ${new URL(serverUrl).host}, Node ${process.version}`);
  const runs: Run[] = [];
  for (const users of sizes) {
    console.info(`${users} users:`);
    for (const run of await runOnce(users)) {
      runs.push(run);
      console.info(
        `  epoch ${run.epoch}: settlement ${seconds(run.settleMs)} s (function ${seconds(run.sqlMs)} s): ${run.journal} journal rows, ${run.results} results, ` +
          `${run.vesting} vesting rows written, ${run.changes} miner changes; bare insert of ${run.journal} journal rows ${seconds(run.bareMs)} s, ratio ${(run.bareMs / run.settleMs).toFixed(2)}`,
      );
    }
    console.info('  audit OK');
  }
  console.info(
    '\n| users | miners | epoch | settlement s | journal rows | results | vesting rows | bare insert s | ratio | µs per user |\n|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of runs) {
    console.info(
      `| ${r.users} | ${r.miners} | ${r.epoch} | ${seconds(r.settleMs)} | ${r.journal} | ${r.results} | ${r.vesting} | ${seconds(r.bareMs)} | ${(r.bareMs / r.settleMs).toFixed(2)} | ${((r.settleMs * 1000) / r.users).toFixed(1)} |`,
    );
  }
  await admin(`drop database if exists ${databaseName} with (force)`);
}

await main();
