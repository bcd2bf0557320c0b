// Backup and restore rehearsal (docs/operations.md "Back up and restore", docs/benchmarks.md): seeds
// a database of --users users (100,000 by default) the way the settlement bench does (miners, nodes,
// savings positions, a team tree, money in every fund account, two settled epochs), then runs the
// operator's own commands on it: `npm run db:backup`, and `npm run db:restore` once per --jobs value
// into a fresh database each. Prints what each command printed and its wall time; the restore's
// time plus its audit is the RTO of this size on this machine. Everything lives in databases named
// nadi_backup_rehearsal_* on SERVER_URL (default postgres://postgres@127.0.0.1:5432/postgres),
// dropped at the end unless --keep.
//   sh scripts/node.sh scripts/backup-rehearsal.ts [--users 100000] [--jobs 1,2] [--keep]
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { miningDefaults } from '@nadi/economy/economy';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { rowsOf } from '../apps/server/src/db/rows.ts';
import { settleEpoch, uptimeBeatsNeeded } from '../apps/server/src/modules/mining/index.ts';
import { adminQuery, databaseUrl } from '../apps/server/bench/pg-admin.ts';
import {
  creditSyntheticFees,
  fundEveryone,
  seedSyntheticPopulation,
  seedSyntheticRewards,
  seedSyntheticTeam,
} from '../apps/server/src/test/settlement-population.ts';

const { values } = parseArgs({
  options: { users: { type: 'string', default: '100000' }, jobs: { type: 'string', default: '1,2' }, keep: { type: 'boolean', default: false } },
});
const users = Number(values.users);
const jobsList = values.jobs.split(',').map(Number);
const serverUrl = process.env.SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const root = join(import.meta.dirname, '..');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const source = 'nadi_backup_rehearsal_source';
const targets = jobsList.map((j) => `nadi_backup_rehearsal_restored_j${j}`);
const dumpFile = join(tmpdir(), `nadi-backup-rehearsal-${process.pid}.dump`);
const settings = { epochSeconds: 86_400, heartbeatSeconds: 60 };
const genesis = new Date('2026-11-22T00:00:00.000Z');

/** `npm run <name> -- args` as npm starts it, its output passed through; answers exit code and seconds. */
function npmRun(name: string, args: string[]): Promise<{ code: number | null; seconds: number }> {
  const [command, ...scriptArgs] = (scripts[name] ?? '').split(' ');
  if (!command) throw new Error(`package.json has no script ${name}`);
  const started = performance.now();
  const child = spawn(command, [...scriptArgs, ...args], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, seconds: (performance.now() - started) / 1000 })));
}

const s = (ms: number) => (ms / 1000).toFixed(1);

for (const name of [source, ...targets]) await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
await adminQuery(serverUrl, `create database ${source}`);
let failed = false;
try {
  const database = await openDatabase({ url: databaseUrl(serverUrl, source), dataDir: null, poolSizeMax: 2 });
  try {
    const { db } = database;
    const seedStarted = performance.now();
    await db.execute(sql`insert into app_settings (key, value) values ('mining_genesis', ${JSON.stringify(genesis.toISOString())}::jsonb),
                                                                        ('nadi_reference_price', '"0.5"'::jsonb)`);
    const createdAt = new Date(genesis.getTime() + 1000);
    await seedSyntheticPopulation(db, { users, epoch: 0, createdAt, beatsNeeded: uptimeBeatsNeeded({ ...miningDefaults, ...settings }) });
    const ids = rowsOf<{ first: number; last: number }>(await db.execute(sql`select min(id) as first, max(id) as last from users`))[0];
    const [first, last] = [Number(ids?.first), Number(ids?.last)];
    await seedSyntheticRewards(db, { first, last, holders: users, positions: users, epoch: 0, createdAt });
    await creditSyntheticFees(db, BigInt(users), new Date(genesis.getTime() + settings.epochSeconds * 1000 + 1000));
    await seedSyntheticTeam(db, {
      first,
      last,
      fanouts: [5, 5, 5, 4, 4, 3, 3, 2],
      boughtAt: createdAt,
      lateAt: new Date(genesis.getTime() + settings.epochSeconds * 1000 + 2000),
    });
    await fundEveryone(db, 10n ** 18n, 'rehearsal-funds');
    // Statistics before settling, as the settlement bench does: without them the team part's plan takes minutes.
    await db.execute(sql`vacuum analyze`);
    for (const epoch of [0, 1]) {
      if (epoch === 1)
        await db.execute(
          sql`insert into device_uptime (device_id, epoch, beats, last_beat_at) select device_id, 1, beats, last_beat_at from device_uptime where epoch = 0`,
        );
      await settleEpoch({ db, settings, now: () => new Date(genesis.getTime() + (epoch + 1) * settings.epochSeconds * 1000 + 5000) }, epoch);
    }
    await db.execute(sql`vacuum analyze`);
    const size = rowsOf<{ users: number; accounts: number; flows: number; transfers: number; bytes: string }>(
      await db.execute(sql`select (select count(*)::int from users) as users, (select count(*)::int from ledger_accounts) as accounts,
                                  (select count(*)::int from ledger_flows) as flows, (select count(*)::int from ledger_transfers) as transfers,
                                  pg_size_pretty(pg_database_size(current_database())) as bytes`),
    )[0];
    console.info(
      `seeded in ${s(performance.now() - seedStarted)} s: ${size?.users} users, ${size?.accounts} ledger accounts, ${size?.flows} flows, ` +
        `${size?.transfers} journal rows; database ${size?.bytes}`,
    );
  } finally {
    await database.close();
  }

  console.info(`\n$ npm run db:backup -- --database-url ${databaseUrl(serverUrl, source)} --out ${dumpFile}`);
  const backup = await npmRun('db:backup', ['--database-url', databaseUrl(serverUrl, source), '--out', dumpFile]);
  console.info(`(wall time with Node's start: ${backup.seconds.toFixed(1)} s)`);
  failed ||= backup.code !== 0;
  for (const [i, jobs] of jobsList.entries()) {
    const target = databaseUrl(serverUrl, targets[i] as string);
    console.info(`\n$ npm run db:restore -- --from ${dumpFile} --database-url ${target} --jobs ${jobs}`);
    const restore = await npmRun('db:restore', ['--from', dumpFile, '--database-url', target, '--jobs', String(jobs)]);
    console.info(`(wall time with Node's start: ${restore.seconds.toFixed(1)} s)`);
    failed ||= restore.code !== 0;
  }
} finally {
  rmSync(dumpFile, { force: true });
  if (!values.keep) for (const name of [source, ...targets]) await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
}
console.info(failed ? '\nFAILED: a command exited non-zero' : '\nOK: backup and every restore passed (each restore ran the ledger audit)');
process.exitCode = failed ? 1 : 0;
