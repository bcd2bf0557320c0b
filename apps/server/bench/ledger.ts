// `npm run bench:ledger`: ledger transfers per second on PostgreSQL at 1, 8 and 32 concurrent
// clients, side by side with pgbench's builtin tpcb-like script on the same server and client
// counts. Each side gets its own fresh database on BENCH_DATABASE_URL's server.
//   BENCH_SECONDS (default 10) per run, BENCH_CLIENTS (default "1,8,32"), BENCH_USERS (1000).
// The transfers go through the wallet's own transferBetweenAccounts with the deps the app builds
// (main.ts: settings, database, clock, event bus), so a new dependency of the service shows here as
// a type error, not a crash. A failed transfer, an empty run or a failed audit ends the run with
// "FAILED" and a non-zero exit. `--smoke`: 1 s runs at 1 and 2 clients, 20 users, pgbench scale 1
// (apps/server/bench/benches.test.ts runs it in `npm test`; its figures mean nothing).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { loadSettings, type AppSettings } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import type { AppDeps } from '../src/deps.ts';
import { LocalBus } from '../src/lib/event-bus.ts';
import { insertUserWithAncestors } from '../src/modules/user/index.ts';
import { auditLedger, createUserAccounts, runFlow } from '../src/modules/ledger/index.ts';
import { transferBetweenAccounts } from '../src/modules/wallet/index.ts';
import { isSmoke, Problems, smokeDefaults } from './smoke.ts';
import { databaseUrl } from './pg-admin.ts';

smokeDefaults({ BENCH_SECONDS: '1', BENCH_CLIENTS: '1,2', BENCH_USERS: '20' });
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const clientCounts = (process.env.BENCH_CLIENTS ?? '1,8,32').split(',').map(Number);
const userCount = Number(process.env.BENCH_USERS ?? 1_000);
const pgbenchScale = isSmoke ? 1 : 32;
const problems = new Problems();
const one = 10n ** 18n;

async function recreate(database: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`drop database if exists ${database} with (force)`);
  await client.query(`create database ${database}`);
  await client.end();
}

async function setupLedger(poolSize: number): Promise<Database> {
  const database = await openDatabase({ url: databaseUrl(serverUrl, 'nadi_bench_ledger'), dataDir: null, poolSizeMax: poolSize });
  return database;
}

async function seedUsers(db: Database['db']): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < userCount; i += 1) {
    const id = await db.transaction(async (tx) => {
      const row = await insertUserWithAncestors(tx, {
        address: `0x${i.toString(16).padStart(40, '0')}`,
        inviteCode: `B${i.toString().padStart(7, '0')}`,
        referrerId: null,
        name: `bench-${i}`,
      });
      if (!row) throw new Error('insert failed');
      await createUserAccounts(tx, row.id);
      return row.id;
    });
    await runFlow(db, {
      idempotencyKey: `bench-fund:${id}`,
      userId: id,
      type: 'data_adjustment',
      params: { id },
      legs: (['fund', 'trade'] as const).map((kind) => ({
        type: 'data_adjustment' as const,
        debit: { userId: null, kind: 'treasury' as const, asset: 'USDT' as const },
        credit: { userId: id, kind, asset: 'USDT' as const },
        amount: 1_000_000n * one,
      })),
      result: () => null,
    });
    ids.push(id);
  }
  return ids;
}

/** The deps the app gives its modules (main.ts), on the bench's database; no chain. */
function appDeps(settings: AppSettings, database: Database): AppDeps {
  const chain = { verifyMessage: async () => false };
  return { settings, db: database.db, dbKind: database.kind, chain, now: () => new Date(), events: new LocalBus() };
}

/** `clients` workers each posting transfers back to back for the given time; answers transfers/s. */
async function runLedger(settings: AppSettings, clients: number, users: number[]): Promise<number> {
  const database = await setupLedger(clients);
  const deps = appDeps(settings, database);
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async (w: number) => {
    let i = w;
    while (performance.now() < deadline) {
      const user = users[(i * 7919) % users.length] as number;
      i += clients;
      const toTrade = (i & 1) === 0;
      await transferBetweenAccounts(deps, user, randomUUID(), {
        asset: 'USDT',
        from: toTrade ? 'fund' : 'trade',
        to: toTrade ? 'trade' : 'fund',
        amount: toTrade ? 2n * one : one,
      });
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, (_, w) => worker(w)));
  const elapsed = (performance.now() - started) / 1000;
  await database.close();
  problems.samples(done, `transfers at ${clients} clients`);
  return done / elapsed;
}

function runPgbench(clients: number): number {
  const url = new URL(databaseUrl(serverUrl, 'nadi_bench_pgbench'));
  const args = [
    '-h',
    url.hostname,
    '-p',
    url.port || '5432',
    '-U',
    url.username || 'postgres',
    '-n',
    '-b',
    'tpcb-like',
    '-c',
    String(clients),
    '-j',
    String(Math.min(clients, 2)),
    '-T',
    String(seconds),
    'nadi_bench_pgbench',
  ];
  const out = execFileSync('pgbench', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const match = /tps = ([0-9.]+) \(without initial connection time\)/.exec(out);
  if (!match?.[1]) throw new Error(`could not read pgbench output:\n${out}`);
  return Number(match[1]);
}

async function main(): Promise<void> {
  const settings = loadSettings({ DATABASE_URL: databaseUrl(serverUrl, 'nadi_bench_ledger') });
  console.info(`bench:ledger on ${new URL(serverUrl).host}, ${seconds} s per run, Node ${process.version}${isSmoke ? ' (smoke run)' : ''}`);
  await recreate('nadi_bench_ledger');
  const setup = await setupLedger(4);
  const users = await seedUsers(setup.db);
  await setup.close();
  await recreate('nadi_bench_pgbench');
  const url = new URL(databaseUrl(serverUrl, 'nadi_bench_pgbench'));
  execFileSync(
    'pgbench',
    ['-h', url.hostname, '-p', url.port || '5432', '-U', url.username || 'postgres', '-i', '-q', '-s', String(pgbenchScale), 'nadi_bench_pgbench'],
    { stdio: 'ignore' },
  );
  const rows: string[] = [];
  for (const clients of clientCounts) {
    const ledger = await runLedger(settings, clients, users);
    const bench = runPgbench(clients);
    problems.check(bench > 0, `pgbench at ${clients} clients: no transactions`);
    const line = `| ${clients} | ${ledger.toFixed(0)} | ${bench.toFixed(0)} | ${(ledger / bench).toFixed(2)}× |`;
    rows.push(line);
    console.info(
      `clients ${clients}: ledger ${ledger.toFixed(0)} transfers/s, pgbench tpcb-like ${bench.toFixed(0)} tps, ratio ${(ledger / bench).toFixed(2)}`,
    );
  }
  const check = await setupLedger(2);
  const report = await auditLedger(check.db);
  const transfers = await check.db.execute(sql`select count(*)::int as n from ledger_transfers`);
  await check.close();
  console.info(`\n| clients | ledger transfers/s | pgbench tpcb-like tps | ratio |\n|---|---|---|---|\n${rows.join('\n')}`);
  console.info(`audit after the runs: ${report.isOk ? 'OK' : report.problems.join('; ')} (${JSON.stringify((transfers as { rows: unknown[] }).rows[0])})`);
  problems.check(report.isOk, `ledger audit: ${report.problems.join('; ')}`);
  problems.finish('bench:ledger');
}

await main();
