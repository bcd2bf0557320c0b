// kill -9 at every stage of a settlement (docs/settlement.md): a child process
// (src/test/settlement-kill-child.ts) settles a large epoch (miners, node holders, savings positions)
// and is killed with SIGKILL (1) inside the computation: nothing of it remains; (2) between two chunks:
// the chunks posted stay, whole; (3) inside a chunk: that chunk leaves nothing. After each kill no user
// has part of their epoch, and the ledger audit passes; settling again resumes and pays every user
// exactly once.
// PostgreSQL: the child's connection checks every 50 ms that its client is alive
// (client_connection_check_interval), so the server aborts the statement when the process dies
// instead of finishing it. PGlite: the database lives in the killed process; its files are opened
// again as the kill left them.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { miningDefaults } from '@nadi/economy/economy';
import { openDatabase, type Db } from '../../../db/client.ts';
import { rowsOf } from '../../../db/rows.ts';
import { createTestDatabase } from '../../../test/harness.ts';
import { auditLedger } from '../../ledger/index.ts';
import { seedSyntheticPopulation, seedSyntheticRewards } from '../../../test/settlement-population.ts';
import { settleEpoch, uptimeBeatsNeeded } from './settle.ts';

const isPostgres = process.env.TEST_DB === 'postgres';
const root = join(import.meta.dirname, '../../../../../..');
const childEntry = join(import.meta.dirname, '../../../test/settlement-kill-child.ts');
const appName = 'nadi-settle-kill-child';
/** Big enough that the settlement runs for a second or more on each database. */
const users = isPostgres ? 60_000 : 40_000;
/** Users per chunk: dozens of chunks. */
const chunkUsers = 1_000;
const settings = { epochSeconds: 86_400, heartbeatSeconds: 60 };
const genesis = new Date('2026-11-22T00:00:00.000Z');
const settleAt = new Date(genesis.getTime() + settings.epochSeconds * 1000 + 5_000);
const waitMaxMs = 60_000;

interface Store {
  env: Record<string, string>;
  withDb<T>(read: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function openStore(): Promise<Store> {
  if (isPostgres) {
    const database = await createTestDatabase();
    return { env: { DATABASE_URL: database.url ?? '' }, withDb: (read) => read(database.db), close: () => database.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'nadi-settle-kill-'));
  const path = join(dir, 'data');
  return {
    env: { DATA_DIR: path },
    async withDb(read) {
      const database = await openDatabase({ url: null, dataDir: path });
      try {
        return await read(database.db);
      } finally {
        await database.close();
      }
    },
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

let store: Store;
let child: ChildProcess | null = null;
beforeAll(async () => {
  store = await openStore();
});
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await store.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + waitMaxMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${waitMaxMs} ms`);
    await sleep(20);
  }
}

/** What a settlement leaves behind, summed (a half-done one would show here). */
async function footprint(db: Db) {
  const row = rowsOf<Record<string, string>>(
    await db.execute(sql`
      select (select count(*) from mining_epochs)::text as epochs,
             (select count(*) from mining_results)::text as results,
             (select count(*) from mining_vesting)::text as vesting,
             (select count(*) from power_log where epoch = 0)::text as power_log,
             (select count(*) from ledger_flows where idempotency_key like '%:epoch:%')::text as flows,
             (select available::text from ledger_accounts where user_id is null and kind = 'mining_pool') as pool,
             (select coalesce(sum(available), 0)::text from ledger_accounts where user_id is not null and kind = 'fund' and asset = 'NADI') as funds,
             (select coalesce(sum(available), 0)::text from ledger_accounts where user_id is not null and kind = 'fund' and asset = 'USDT') as funds_usdt,
             (select string_agg(kind || ':' || asset || ':' || available::text, ',' order by id) from ledger_accounts
               where user_id is null and kind in ('node_pool', 'savings_pool', 'savings_interest', 'pledged', 'fees')) as reward_accounts,
             (select count(*) from node_epochs)::text || '/' || (select count(*) from node_earnings)::text as node_rows,
             (select count(*) from pledge_epochs)::text || '/' || (select count(*) from pledge_interest_lines)::text || '/' ||
               (select count(*) from pledge_interest)::text || '/' || (select count(*) from pledge_positions where status = 'active')::text as pledge_rows,
             (select coalesce(sum(released_usdt), 0)::text || '/' || count(*) filter (where status = 2)::text from miners) as miners,
             (select coalesce(sum(power), 0)::text from user_power) as power`),
  )[0];
  return row ?? {};
}

interface Child {
  output: () => string;
  exited: Promise<void>;
}

function startChild(env: Record<string, string> = {}): Child {
  let output = '';
  child = spawn(process.execPath, [childEntry], {
    cwd: root,
    env: {
      ...process.env,
      ...store.env,
      EPOCH_SECONDS: String(settings.epochSeconds),
      HEARTBEAT_SECONDS: String(settings.heartbeatSeconds),
      SETTLE_EPOCH: '0',
      SETTLE_NOW: settleAt.toISOString(),
      CHUNK_USERS: String(chunkUsers),
      PGAPPNAME: appName,
      PGOPTIONS: '-c client_connection_check_interval=50',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const running = child;
  return { output: () => output, exited: new Promise<void>((resolve) => running.once('exit', () => resolve())) };
}

/** Waits (PostgreSQL) until the child runs a statement like `pattern`. */
async function childRuns(pattern: string, c: Child): Promise<void> {
  await store.withDb((db) =>
    until(`the child running ${pattern} (${c.output()})`, async () => {
      const rows = rowsOf(
        await db.execute(sql`select 1 from pg_stat_activity where application_name = ${appName} and state = 'active' and query like ${pattern}`),
      );
      return rows.length > 0;
    }),
  );
}

async function kill(c: Child): Promise<void> {
  child?.kill('SIGKILL');
  await c.exited;
  if (isPostgres) {
    await store.withDb((db) =>
      until(
        'the killed client’s backend gone',
        async () => rowsOf(await db.execute(sql`select 1 from pg_stat_activity where application_name = ${appName}`)).length === 0,
      ),
    );
  }
}

const postedChunks = async (db: Db) =>
  rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from settlement_chunks where epoch = 0 and posted_at is not null`));

/**
 * Users whose epoch is in part only: a user of a posted chunk whose fund account lacks part of what
 * they were paid, or a user of a chunk not posted with any of it (a result row, a node earning, a
 * released position, or a fund balance other than before).
 */
async function partialUsers(db: Db, fundsBefore: Map<number, string>): Promise<string[]> {
  const rows = rowsOf<{ user_id: number; available: string; posted: boolean; paid: string; has_rows: boolean }>(
    await db.execute(sql`
      with posted as (select lo_user, hi_user from settlement_chunks where epoch = 0 and posted_at is not null)
      select a.user_id, a.available::text,
             exists (select 1 from posted c where a.user_id between c.lo_user and c.hi_user) as posted,
             (coalesce((select r.immediate from mining_results r where r.epoch = 0 and r.user_id = a.user_id), 0)
               + coalesce((select sum(e.mining_income + e.dividend_nadi) from node_earnings e where e.user_id = a.user_id), 0)
               + coalesce((select sum(p.amount) from pledge_positions p where p.user_id = a.user_id and p.release_flow_id is not null), 0))::text as paid,
             (exists (select 1 from mining_results r where r.epoch = 0 and r.user_id = a.user_id)
               or exists (select 1 from node_earnings e where e.user_id = a.user_id)
               or exists (select 1 from pledge_interest_lines i where i.user_id = a.user_id)
               or exists (select 1 from pledge_positions p where p.user_id = a.user_id and p.release_flow_id is not null)) as has_rows
        from ledger_accounts a where a.user_id is not null and a.kind = 'fund' and a.asset = 'NADI'`),
  );
  const wrong: string[] = [];
  for (const r of rows) {
    const before = BigInt(fundsBefore.get(Number(r.user_id)) ?? '0');
    const now = BigInt(r.available);
    if (r.posted && now !== before + BigInt(r.paid)) wrong.push(`user ${r.user_id} (posted): fund ${now}, before ${before} + paid ${r.paid}`);
    if (!r.posted && (r.has_rows || now !== before)) wrong.push(`user ${r.user_id} (not posted): rows ${r.has_rows}, fund ${now}, before ${before}`);
  }
  return wrong.slice(0, 5);
}

it('a settlement killed in its computation, between chunks and inside a chunk resumes and pays every user exactly once', { timeout: 300_000 }, async () => {
  const { before, fundsBefore } = await store.withDb(async (db) => {
    await db.execute(sql`insert into app_settings (key, value) values ('mining_genesis', ${JSON.stringify(genesis.toISOString())}::jsonb),
                                                                        ('nadi_reference_price', '"0.5"'::jsonb)`);
    await seedSyntheticPopulation(db, {
      users,
      epoch: 0,
      createdAt: new Date(genesis.getTime() + 1_000),
      beatsNeeded: uptimeBeatsNeeded({ ...miningDefaults, ...settings }),
    });
    const ids = rowsOf<{ first: number; last: number }>(await db.execute(sql`select min(id) as first, max(id) as last from users`))[0];
    await seedSyntheticRewards(db, {
      ...{ first: Number(ids?.first), last: Number(ids?.last), holders: users / 10, positions: users / 4 },
      ...{ epoch: 0, createdAt: new Date(genesis.getTime() + 2_000) },
    });
    const funds = rowsOf<{ user_id: number; available: string }>(
      await db.execute(sql`select user_id, available::text from ledger_accounts where user_id is not null and kind = 'fund' and asset = 'NADI'`),
    );
    return { before: await footprint(db), fundsBefore: new Map(funds.map((f) => [Number(f.user_id), f.available])) };
  });

  // 1. Killed inside the computation: nothing of it remains.
  const computing = startChild();
  if (isPostgres) await childRuns('%_settle_epoch%', computing);
  else await until(`the child saying "settling" (${computing.output()})`, () => computing.output().includes('settling'));
  await sleep(100 + Math.floor(Math.random() * 300));
  expect(computing.output(), 'the computation finished before the kill: make the population bigger').not.toContain('chunk');
  await kill(computing);
  await store.withDb(async (db) => {
    expect(await footprint(db)).toEqual(before);
    expect(rowsOf(await db.execute(sql`select 1 from settlement_runs`))).toEqual([]);
  });

  // 2. Killed between chunks (the child waits after its second): those two stay, whole, and only they.
  const pausing = startChild({ PAUSE_AFTER_CHUNKS: '2' });
  await until(`the child pausing (${pausing.output()})`, () => pausing.output().includes('paused'));
  await kill(pausing);
  await store.withDb(async (db) => {
    expect((await postedChunks(db))[0]?.n).toBe(2);
    expect(await partialUsers(db, fundsBefore)).toEqual([]);
    expect((await auditLedger(db)).problems).toEqual([]);
  });

  // 3. Killed inside a chunk: the chunks it posted stay, the one it was in leaves nothing.
  const posting = startChild();
  if (isPostgres) {
    await until(`the child posting a chunk (${posting.output()})`, () => posting.output().includes('chunk'));
    await childRuns('%settlement_post_chunk%', posting);
  } else {
    await until(`the child posting a chunk (${posting.output()})`, () => posting.output().includes('chunk'));
    await sleep(Math.floor(Math.random() * 20));
  }
  expect(posting.output(), 'the chunks finished before the kill: make the population bigger').not.toContain('done');
  await kill(posting);
  await store.withDb(async (db) => {
    expect((await postedChunks(db))[0]?.n).toBeGreaterThan(2);
    expect(await partialUsers(db, fundsBefore)).toEqual([]);
    expect((await auditLedger(db)).problems).toEqual([]);
  });

  await store.withDb(async (db) => {
    // Settled again: it resumes from the chunks not posted, once, and a repeat is refused.
    const outcome = await settleEpoch({ db, settings, now: () => settleAt, chunkUsers }, 0);
    if (outcome.status !== 'settled') throw new Error('epoch 0 was settled by a killed process');
    expect(await settleEpoch({ db, settings, now: () => settleAt }, 0)).toEqual({ status: 'already' });
    const s = outcome.settlement;
    expect(s.chunks).toBeGreaterThan(10);
    expect(s.results).toBeGreaterThan(users / 10);
    expect(s.node.holders).toBe(users / 10);
    expect(s.pledge.positions).toBe(users / 4);
    expect(s.pledge.releases).toBeGreaterThan(0);
    expect(await partialUsers(db, fundsBefore)).toEqual([]);

    // Every user got their immediate income, node income and released principal once, the vesting
    // account the locked part once.
    const check = rowsOf<Record<string, string>>(
      await db.execute(sql`
        select (select count(*) from mining_results r join ledger_accounts a on a.user_id = r.user_id and a.kind = 'fund' and a.asset = 'NADI'
                 where a.available <> r.immediate
                   + coalesce((select sum(e.mining_income + e.dividend_nadi) from node_earnings e where e.user_id = r.user_id), 0)
                   + coalesce((select sum(p.amount) from pledge_positions p where p.user_id = r.user_id and p.release_flow_id is not null), 0))::text as wrong_funds,
               (select count(*) from ledger_flows where idempotency_key in ('node:epoch:0', 'pledge:epoch:0'))::text as reward_flows,
               (select count(*) from settlement_chunks where epoch = 0 and posted_at is null)::text as unposted,
               (select count(*) - count(distinct flow_id) from settlement_chunks where epoch = 0)::text as shared_flows,
               (select coalesce(sum(immediate + locked), 0) from mining_results where epoch = 0)::text as results_paid,
               (select coalesce(sum(locked), 0) from mining_results where epoch = 0)::text as results_locked,
               (select available from ledger_accounts where user_id is null and kind = 'vesting')::text as vesting,
               (select available from ledger_accounts where user_id is null and kind = 'mining_pool')::text as pool,
               (select coalesce(sum(available), 0) from ledger_accounts where user_id is null and kind = 'settlement')::text as settlement,
               (select count(*) - count(distinct miner_id) from power_log where epoch = 0)::text as repeated_changes`),
    )[0];
    expect(check).toEqual({
      wrong_funds: '0',
      results_paid: s.paid.toString(),
      results_locked: s.locked.toString(),
      reward_flows: '2',
      unposted: '0',
      shared_flows: '0',
      vesting: s.locked.toString(),
      pool: (BigInt(before.pool ?? '0') - s.paid).toString(),
      settlement: '0',
      repeated_changes: '0',
    });
    expect((await auditLedger(db)).problems).toEqual([]);
  });
});
