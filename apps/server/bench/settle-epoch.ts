// `npm run bench:settle-epoch -- --users 100000,300000`: one epoch's settlement on PostgreSQL for N
// users, every fifth of them mining (devices with and without the uptime, destroy miners, trials;
// src/test/settlement-population.ts), every one holding a node (one in ten two) and three savings
// positions (flexible, locked 30 with a thirtieth ending each epoch, joint or node): at 100,000 users 100,000 node holders
// and 300,000 positions; all of them in one invite tree ten levels deep (fan-out 5, 5, 5, 4, 4, 3, 3,
// then 2; seedSyntheticTeam) whose upper users bought enough to be V1–V5, one in a
// hundred buying again after epoch 0's end. Seeded set-based into a fresh database on
// BENCH_DATABASE_URL's server. Times settleEpoch (as the job calls it: mining_settle_epoch,
// pledge_settle_epoch, node_settle_epoch and team_settle_epoch in one transaction) for epoch 0 (every
// vesting row new) and epoch 1 (a steady state: every vesting row releases and takes a tranche), with
// each function's own time and the rows it wrote, and compares each part with a bare INSERT … SELECT
// of the rows it must write (rolled back): the journal rows of its flow, and node_earnings /
// pledge_interest_lines / team_rewards rows; ratio = bare insert time / settlement time (goal ≥ 0.5).
// The team part's phases (levels, paths, lines, ledger, rows) are printed too. The ledger audit runs
// on the result. A part that wrote no rows (a ratio computed from nothing) or a failed audit ends the
// run with "FAILED" and a non-zero exit. `--smoke`: 300 users (apps/server/bench/benches.test.ts
// runs it in `npm test`; its figures mean nothing).
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { miningDefaults } from '@nadi/economy/economy';
import { openDatabase } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { auditLedger } from '../src/modules/ledger/index.ts';
import { settleEpoch, uptimeBeatsNeeded } from '../src/modules/mining/index.ts';
import { creditSyntheticFees, seedSyntheticPopulation, seedSyntheticRewards, seedSyntheticTeam } from '../src/test/settlement-population.ts';
import { isSmoke, Problems } from './smoke.ts';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const databaseName = 'nadi_bench_settle_epoch';
const usersArg = process.argv.indexOf('--users');
const problems = new Problems();
const sizes = (usersArg >= 0 ? (process.argv[usersArg + 1] ?? '') : isSmoke ? '300' : '100000')
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

interface Part {
  ms: number;
  bareMs: number;
  journal: number;
  /** node_earnings or pledge_interest_lines rows (mining: mining_results). */
  rows: number;
}

interface Run {
  users: number;
  miners: number;
  holdings: number;
  positions: number;
  epoch: number;
  settleMs: number;
  mining: Part;
  pledge: Part & { releases: number };
  node: Part;
  team: Part & { leveled: number; earners: number; closureRows: number; depth: number; phases: Record<string, number> };
  vesting: number;
  changes: number;
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
const journalOf = (flowId: number | null): BareRows => ({
  table: 'ledger_transfers',
  columns: journalColumns,
  select: `select ${journalColumns} from ledger_transfers where flow_id = ${flowId ?? 0}`,
});

/** The time of inserting the same rows bare (best of two), all parts in one transaction. */
async function bareInsertMs(parts: BareRows[]): Promise<number> {
  const client = new pg.Client({ connectionString: urlFor(databaseName) });
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

async function runOnce(users: number): Promise<Run[]> {
  await admin(`drop database if exists ${databaseName} with (force)`);
  await admin(`create database ${databaseName}`);
  const database = await openDatabase({ url: urlFor(databaseName), dataDir: null, poolSizeMax: 2 });
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
      const started = performance.now();
      const outcome = await settleEpoch({ db, settings, now: () => new Date(genesis.getTime() + (epoch + 1) * settings.epochSeconds * 1000 + 5000) }, epoch);
      const settleMs = performance.now() - started;
      if (outcome.status !== 'settled') throw new Error(`epoch ${epoch} was settled already`);
      const s = outcome.settlement;
      for (const [part, rows] of Object.entries({ mining: s.journal, savings: s.pledge.journal, nodes: s.node.journal, team: s.team.journal })) {
        problems.samples(rows, `${part} journal rows in epoch ${epoch} at ${users} users`);
      }
      const vesting = await countOf(db, sql`select count(*)::int as n from mining_vesting where updated_epoch = ${epoch}`);
      const earnings = await countOf(db, sql`select count(*)::int as n from node_earnings where epoch = ${epoch}`);
      const lines = await countOf(db, sql`select count(*)::int as n from pledge_interest_lines where epoch = ${epoch}`);
      const teamLines = await countOf(db, sql`select count(*)::int as n from team_rewards where epoch = ${epoch} and ref is null`);
      const shifted = (table: string, columns: string) => ({
        table,
        columns,
        select: `select epoch + 1000000, ${columns.split(', ').slice(1).join(', ')} from ${table} where epoch = ${epoch}`,
      });
      runs.push({
        ...{ users, miners, holdings: rewards.holdings, positions: rewards.positions, epoch, settleMs },
        mining: { ms: s.durationMs, bareMs: await bareInsertMs([journalOf(s.flowId)]), journal: s.journal, rows: s.results },
        pledge: {
          ...{ ms: s.pledge.durationMs, journal: s.pledge.journal, rows: lines, releases: s.pledge.releases },
          bareMs: await bareInsertMs([journalOf(s.pledge.flowId), shifted('pledge_interest_lines', 'epoch, position_id, user_id, amount')]),
        },
        node: {
          ...{ ms: s.node.durationMs, journal: s.node.journal, rows: earnings },
          bareMs: await bareInsertMs([
            journalOf(s.node.flowId),
            shifted('node_earnings', 'epoch, holding_id, user_id, mining_income, dividend_nadi, dividend_usdt'),
          ]),
        },
        team: {
          ...{ ms: s.team.durationMs, journal: s.team.journal, rows: teamLines, leveled: s.team.leveled, earners: s.team.earners },
          ...{ closureRows: tree.closureRows, depth: tree.depth, phases: s.team.phasesMs },
          bareMs: await bareInsertMs([
            journalOf(s.team.flowId),
            shifted(
              'team_rewards',
              'epoch, user_id, kind, source_user_id, source_depth, source_amount, rate_bps, lower_numerator, wanted, amount, ref, flow_id, created_at',
            ),
          ]),
        },
        ...{ vesting, changes: s.minerChanges },
      });
    }
    const report = await auditLedger(db);
    if (!report.isOk) throw new Error(`ledger audit failed:\n${report.problems.join('\n')}`);
    return runs;
  } finally {
    await database.close();
  }
}

const ratio = (p: Part) => (p.bareMs / p.ms).toFixed(2);

async function main(): Promise<void> {
  console.info(`bench:settle-epoch on ${new URL(serverUrl).host}, Node ${process.version}`);
  const runs: Run[] = [];
  for (const users of sizes) {
    console.info(`${users} users:`);
    for (const run of await runOnce(users)) {
      runs.push(run);
      const { mining, pledge, node, team } = run;
      console.info(
        `  epoch ${run.epoch}: settlement ${seconds(run.settleMs)} s; mining ${seconds(mining.ms)} s (${mining.journal} journal rows, ${mining.rows} results, ` +
          `${run.vesting} vesting rows, ${run.changes} miner changes; bare ${seconds(mining.bareMs)} s, ratio ${ratio(mining)}); ` +
          `savings ${seconds(pledge.ms)} s (${pledge.journal} journal rows, ${pledge.rows} interest lines, ${pledge.releases} releases; bare ${seconds(pledge.bareMs)} s, ratio ${ratio(pledge)}); ` +
          `nodes ${seconds(node.ms)} s (${node.journal} journal rows, ${node.rows} earnings rows; bare ${seconds(node.bareMs)} s, ratio ${ratio(node)}); ` +
          `team ${seconds(team.ms)} s (${team.earners} earners, ${team.leveled} users V1+, ${team.journal} journal rows, ${team.rows} lines; ` +
          `bare ${seconds(team.bareMs)} s, ratio ${ratio(team)}; ${Object.entries(team.phases)
            .map(([k, v]) => `${k} ${v} ms`)
            .join(', ')})`,
      );
    }
    console.info('  audit OK');
  }
  console.info(
    '\n| users | nodes | positions | epoch | settlement s | mining s (journal rows, ratio) | savings s (journal + lines, ratio) | nodes s (journal + earnings, ratio) | team s (journal + lines, ratio) | total ratio | µs per user |\n|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of runs) {
    const bare = r.mining.bareMs + r.pledge.bareMs + r.node.bareMs + r.team.bareMs;
    console.info(
      `| ${r.users} | ${r.holdings} | ${r.positions} | ${r.epoch} | ${seconds(r.settleMs)} | ${seconds(r.mining.ms)} (${r.mining.journal}, ${ratio(r.mining)}) | ` +
        `${seconds(r.pledge.ms)} (${r.pledge.journal} + ${r.pledge.rows}, ${ratio(r.pledge)}) | ${seconds(r.node.ms)} (${r.node.journal} + ${r.node.rows}, ${ratio(r.node)}) | ` +
        `${seconds(r.team.ms)} (${r.team.journal} + ${r.team.rows}, ${ratio(r.team)}) | ` +
        `${(bare / r.settleMs).toFixed(2)} | ${((r.settleMs * 1000) / r.users).toFixed(1)} |`,
    );
  }
  await admin(`drop database if exists ${databaseName} with (force)`);
  problems.finish('bench:settle-epoch');
}

await main();
