// `npm run db:backup` taken while users move money, then `npm run db:restore` into a fresh database
// (docs/operations.md "Back up and restore"). PostgreSQL only: the commands run pg_dump and
// pg_restore, so on the PGlite-only `server` project the suite is skipped (its name says so).
// Proved on the restored database: the ledger audit passes (the restore command's and our own run);
// every balance and version equals what its journal rows say, and those rows carry the versions
// 1..n with no gap (no earlier commit missing); the restored journal rows are exactly the source's
// rows of the restored flows, each flow whole; every flow acknowledged before the backup command
// started is there; flows committed while pg_dump ran and after it make the source differ.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger, runFlow, systemAccount, transfer } from '../modules/ledger/index.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../test/harness.ts';
import { fundUser, tokens } from '../test/money.ts';
import { createUsers, fundEveryone } from '../test/settlement-population.ts';
import { newAccount, signIn } from '../test/sign-in.ts';
import type { Database, Db } from './client.ts';
import { rowsOf } from './rows.ts';
import * as schema from './schema.ts';

const isPostgres = process.env.TEST_DB === 'postgres';
const root = join(import.meta.dirname, '../../../..');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
/** Users acting at once, each on requests of its own (the app's pool gives each its own connection). */
const actors = 12;
/** Users with accounts and money beside them, so that pg_dump has rows to copy while the load runs. */
const bystanders = 5_000;

/** Runs `npm run <name> -- args` as npm does (the script's own command line), answering its exit and output. */
function npmRun(name: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const [command, ...scriptArgs] = (scripts[name] ?? '').split(' ');
  if (!command) throw new Error(`package.json has no script ${name}`);
  const child = spawn(command, [...scriptArgs, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

interface Ack {
  /** The idempotency-key header; the stored key is `<action>:<user>:<header>`. */
  header: string;
  at: number;
}

describe.skipIf(!isPostgres)('backup under load and restore (PostgreSQL only; skipped on PGlite)', () => {
  let t: TestApp;
  let sourceUrl: string;
  const targetName = `nadi_backup_test_${randomBytes(6).toString('hex')}`;
  let targetUrl: string;
  const dumpFile = join(tmpdir(), `nadi-backup-test-${process.pid}-${randomBytes(4).toString('hex')}.dump`);
  const users: { token: string; id: number }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    sourceUrl = (t.database as Database & { url: string | null }).url ?? '';
    const target = new URL(process.env.TEST_DATABASE_URL ?? '');
    target.pathname = `/${targetName}`;
    targetUrl = target.toString();
    const db = t.database.db;
    await createUsers(db, bystanders);
    await fundEveryone(db, tokens(100), `test-funds:${randomUUID()}`);
    for (let i = 0; i < actors; i++) {
      const token = await signIn(t.app, newAccount(), rootInviteCode);
      const id = (await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } })).json().data.id as number;
      users.push({ token, id });
      await fundUser(db, id, 'NADI', tokens(100_000));
      await fundUser(db, id, 'USDT', tokens(10_000));
    }
    // Released mining income to claim (as a settlement leaves it): mining_vesting rows and the NADI
    // behind them moved from the mining pool to the vesting account, which the audit compares.
    const claimable = tokens(7);
    for (const u of users) {
      await db.execute(sql`insert into mining_vesting (user_id, locked, claimable, claimed, rate, updated_epoch)
                           values (${u.id}, 0, ${claimable.toString()}::numeric, 0, 0, 0)`);
    }
    await runFlow(db, {
      idempotencyKey: `test-vesting:${randomUUID()}`,
      userId: null,
      type: 'power_income',
      params: { users: actors },
      legs: [transfer('power_income', systemAccount('mining_pool', 'NADI'), systemAccount('vesting', 'NADI'), claimable * BigInt(actors))],
      result: () => null,
    });
  }, 120_000);

  afterAll(async () => {
    rmSync(dumpFile, { force: true });
    await t?.close();
    if (isPostgres) await adminQuery(`drop database if exists ${targetName} with (force)`);
  });

  it('restores a snapshot of whole flows, with every acknowledged flow, and the audit passes', async () => {
    const acks: Ack[] = [];
    const failures: string[] = [];
    let isStopping = false;
    const post = (token: string, url: string, payload: object, header: string) =>
      t.app.inject({ method: 'POST', url, payload, headers: { authorization: token, lang: 'EN', 'idempotency-key': header } });

    /** One user's stream of transfers, exchanges and (once) a claim until the test stops it. */
    async function act(w: number): Promise<void> {
      const u = users[w] as { token: string; id: number };
      for (let i = 0; !isStopping; i++) {
        const header = `bk-${w}-${i}`;
        let res;
        if (i === 2 * w + 1) {
          res = await post(u.token, '/api/v1/mining/claim', {}, header);
        } else if (i % 2 === 0) {
          res = await post(
            u.token,
            '/api/v1/wallet/transfer',
            { asset: 'NADI', from: i % 4 === 0 ? 'fund' : 'trade', to: i % 4 === 0 ? 'trade' : 'fund', amount: '1.5' },
            header,
          );
        } else {
          const quote = await post(u.token, '/api/v1/wallet/exchange/quote', { from_asset: 'NADI', to_asset: 'USDT', amount: '2' }, `${header}-q`);
          if (quote.statusCode !== 200) {
            failures.push(`quote ${header}: ${quote.statusCode} ${quote.body}`);
            continue;
          }
          res = await post(u.token, '/api/v1/wallet/exchange/confirm', { quote_id: quote.json().data.quote_id, amount: '2' }, header);
        }
        if (res.statusCode === 200) acks.push({ header, at: performance.now() });
        else failures.push(`${header}: ${res.statusCode} ${res.body}`);
      }
    }

    const load = Promise.all(users.map((_, w) => act(w)));
    // The load runs before the backup starts, all through it, and a little after.
    while (acks.length < 4 * actors) await new Promise((r) => setTimeout(r, 20));
    const backupStartedAt = performance.now();
    const backup = await npmRun('db:backup', ['--database-url', sourceUrl, '--out', dumpFile]);
    const backupEndedAt = performance.now();
    const ackedAtEnd = acks.length;
    while (acks.length < ackedAtEnd + actors) await new Promise((r) => setTimeout(r, 20));
    isStopping = true;
    await load;
    expect(backup.output).toContain(`backup: ${dumpFile}`);
    expect(backup.code).toBe(0);
    expect(failures).toEqual([]);
    const during = acks.filter((a) => a.at > backupStartedAt && a.at < backupEndedAt).length;
    expect(during, 'flows acknowledged while the backup ran').toBeGreaterThan(0);

    const restore = await npmRun('db:restore', ['--from', dumpFile, '--database-url', targetUrl]);
    expect(restore.output).toContain('OK: every asset sums to zero');
    expect(restore.code).toBe(0);
    // Restoring over it again is refused: it has tables now.
    const again = await npmRun('db:restore', ['--from', dumpFile, '--database-url', targetUrl]);
    expect(again.code).toBe(1);
    expect(again.output).toContain(`The database ${targetName} is not empty`);

    const pool = new pg.Pool({ connectionString: targetUrl, max: 2 });
    try {
      const restored = drizzle({ client: pool, schema }) as unknown as Db;
      const source = t.database.db;
      expect((await auditLedger(restored)).isOk).toBe(true);

      // Every balance and version is what the restored journal says, and the journal rows of each
      // account carry versions 1..n with none missing: no commit before the snapshot is absent.
      const drift = rowsOf<{ id: string }>(
        await restored.execute(sql`
          with moves as (
            select debit_account_id as account_id, debit_part as part, -amount as delta, debit_version as version from ledger_transfers
            union all
            select credit_account_id, credit_part, amount, credit_version from ledger_transfers
          ), sums as (
            select account_id, coalesce(sum(delta) filter (where part = 'available'), 0) as available,
                   coalesce(sum(delta) filter (where part = 'frozen'), 0) as frozen, count(*) as n,
                   count(distinct version) as versions, max(version) as top
              from moves group by account_id
          )
          select a.id::text from ledger_accounts a left join sums s on s.account_id = a.id
           where a.available <> coalesce(s.available, 0) or a.frozen <> coalesce(s.frozen, 0) or a.version <> coalesce(s.n, 0)
              or coalesce(s.versions, 0) <> coalesce(s.n, 0) or coalesce(s.top, 0) <> coalesce(s.n, 0)`),
      );
      expect(drift).toEqual([]);
      // No one signed up during the load: every account of the source is there.
      const accountCount = async (db: Db) => rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ledger_accounts`))[0]?.n;
      expect(await accountCount(restored)).toBe(await accountCount(source));
      expect(await accountCount(restored)).toBeGreaterThan(bystanders * 5);

      // The restored flows and their journal rows are exactly the source's, flow by flow (whole).
      const flowsOf = async (db: Db) =>
        new Map(
          rowsOf<{ id: string; flow: string; transfers: string }>(
            await db.execute(sql`
              select f.id::text, row_to_json(f)::text as flow,
                     (select json_agg(t order by t.id)::text from ledger_transfers t where t.flow_id = f.id) as transfers
                from ledger_flows f`),
          ).map((r) => [r.id, r]),
        );
      const [sourceFlows, restoredFlows] = await Promise.all([flowsOf(source), flowsOf(restored)]);
      const differing = [...restoredFlows.values()].filter((r) => {
        const s = sourceFlows.get(r.id);
        return !s || s.flow !== r.flow || s.transfers !== r.transfers || r.transfers === null;
      });
      expect(differing.map((r) => r.id)).toEqual([]);
      const transferCount = async (db: Db) => rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ledger_transfers`))[0]?.n;
      const restoredTransfers = await transferCount(restored);
      const inRestoredFlows = [...restoredFlows.keys()].reduce((n, id) => n + (JSON.parse(sourceFlows.get(id)?.transfers ?? '[]') as unknown[]).length, 0);
      expect(restoredTransfers).toBe(inRestoredFlows);
      // The load went on after the snapshot: the source has flows the backup does not.
      expect(sourceFlows.size).toBeGreaterThan(restoredFlows.size);

      // Every flow acknowledged before the backup command started is in the restored database.
      const restoredKeys = new Set(
        rowsOf<{ key: string }>(await restored.execute(sql`select idempotency_key as key from ledger_flows where idempotency_key like '%:bk-%'`)).map((r) =>
          r.key.split(':').at(-1),
        ),
      );
      const ackedBefore = acks.filter((a) => a.at < backupStartedAt);
      expect(ackedBefore.length).toBeGreaterThanOrEqual(4 * actors);
      expect(ackedBefore.filter((a) => !restoredKeys.has(a.header)).map((a) => a.header)).toEqual([]);
      // And every restored exchange has its quote used in the same snapshot (a flow and its rows commit together).
      const exchanges = rowsOf<{ flows: number; unused: number }>(
        await restored.execute(sql`
          select count(distinct f.id)::int as flows, count(distinct f.id) filter (where q.used_at is null)::int as unused
            from ledger_flows f join ledger_transfers t on t.flow_id = f.id
            left join exchange_quotes q on q.id::text = t.memo->>'quote_id'
           where f.type = 'exchange'`),
      )[0];
      expect(exchanges?.flows).toBeGreaterThan(0);
      expect(exchanges?.unused).toBe(0);
    } finally {
      await pool.end();
    }
  }, 120_000);
});
