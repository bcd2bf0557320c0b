// The settlement job: driven by the injected clock (no waiting for real epochs), it settles each
// ended epoch once and in order, catches up what it missed, tells the account sockets, and with
// two instances on one PostgreSQL database only the holder of the advisory lock settles; when it
// stops, the other takes over.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSocketPush } from '@nadi/api/trade-socket';
import { rowsOf } from '../../../db/rows.ts';
import { seedDatabase } from '../../../db/seed/seed.ts';
import type { AppDeps } from '../../../deps.ts';
import { LocalBus, type AppEvent } from '../../../lib/event-bus.ts';
import { eventually } from '../../../test/eventually.ts';
import { scrape } from '../../../test/metrics.ts';
import { createTestApp, createTestDatabase, rootInviteCode, TestClock, testSettings, type TestApp } from '../../../test/harness.ts';
import { newAccount, signIn } from '../../../test/sign-in.ts';
import { auditLedger } from '../../ledger/index.ts';
import { settlementIntervalMs, startSettlementJob, type SettlementJob } from './job.ts';
import { createUsers, insertMiner, removeSeededMiners } from '../../../test/settlement-population.ts';

const epochSeconds = 600;
const epochMs = epochSeconds * 1000;
const silentLog = { info: () => undefined, error: () => undefined } as unknown as Parameters<typeof startSettlementJob>[1];

const settledEpochs = async (db: AppDeps['db']) =>
  rowsOf<{ epoch: number }>(await db.execute(sql`select epoch from mining_epochs order by epoch`)).map((r) => Number(r.epoch));

async function trial(db: AppDeps['db'], userId: number, at: Date): Promise<void> {
  await insertMiner(db, {
    userId,
    kind: 'trial',
    status: 1,
    basePower: 1_000n,
    giftPower: 0n,
    startsEpoch: 0,
    endsEpoch: 100,
    createdAt: at,
    firstSeenAt: null,
    budget: 0n,
    released: 0n,
    beats: [],
  });
}

it('rounds every tenth of an epoch, at most every 5 s', () => {
  expect(settlementIntervalMs(600)).toBe(5_000);
  expect(settlementIntervalMs(20)).toBe(2_000);
  expect(settlementIntervalMs(86_400)).toBe(5_000);
});

describe('the settlement job', () => {
  let t: TestApp;
  let job: SettlementJob | null = null;
  let base = '';
  beforeAll(async () => {
    t = await createTestApp({ EPOCH_SECONDS: String(epochSeconds) });
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http://', 'ws://');
  });
  afterAll(async () => {
    await job?.stop();
    await t.close();
  });

  it('settles each ended epoch once, in order, catches up, and tells the account sockets', async () => {
    const token = await signIn(t.app, newAccount(), rootInviteCode);
    const userId = (await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } })).json().data.id as number;
    // The trial miner of sign-up, stretched so that it counts in every epoch the test settles.
    await t.database.db.execute(sql`update miners set starts_epoch = 0, ends_epoch = 100 where user_id = ${userId} and kind = 'trial'`);
    const ws = new WebSocket(`${base}/ws?token=${token}`);
    const pushes: number[] = [];
    ws.addEventListener('message', (e) => {
      const text = String(e.data);
      if (!text.startsWith('{')) return;
      const push = JSON.parse(text) as AccountSocketPush;
      if (push.type === 'mining_epoch') pushes.push(push.data.epoch);
    });
    await new Promise((resolve, reject) => {
      ws.addEventListener('open', resolve);
      ws.addEventListener('error', () => reject(new Error('could not open /ws')));
    });

    job = startSettlementJob(t.app.deps, silentLog, { intervalMs: 10 });
    // Its first round fixes the genesis at the clock's epoch start; nothing has ended yet.
    expect(await job.runOnce()).toEqual([]);
    expect(await settledEpochs(t.database.db)).toEqual([]);

    t.clock.advance(epochMs);
    await eventually(
      'epoch 0 settled and pushed',
      () => pushes.slice(),
      (p) => p.length === 1,
    );
    expect(await settledEpochs(t.database.db)).toEqual([0]);

    // Downtime: three epochs end at once; they settle in order, each pushed once.
    t.clock.advance(3 * epochMs);
    await eventually(
      'epochs 1 to 3 pushed',
      () => pushes.slice(),
      (p) => p.length === 4,
    );
    expect(pushes).toEqual([0, 1, 2, 3]);
    const samples = await scrape(t.app);
    expect(samples('mining_epochs_settled_total')).toBe(4);
    expect(samples('mining_settle_seconds_count')).toBe(4);
    expect(samples('mining_settlement_failures_total')).toBe(0);
    // Each epoch computed once and posted in its chunks; nothing left behind, no chunk retried.
    expect(samples('settlement_compute_seconds_count')).toBe(4);
    expect(samples('settlement_chunk_seconds_count')).toBeGreaterThanOrEqual(4);
    expect(samples('settlement_lag_seconds')).toBe(0);
    expect(samples('settlement_chunks', { state: 'planned' })).toBe(0);
    expect(samples('settlement_chunk_retries_total', { code: '40P01' })).toBe(0);
    const rows = rowsOf<{ epoch: number; settled_at: Date | string }>(
      await t.database.db.execute(sql`select epoch, settled_at from mining_epochs order by epoch`),
    );
    expect(rows.map((r) => Number(r.epoch))).toEqual([0, 1, 2, 3]);
    const fund = rowsOf<{ fund: string; immediate: string }>(
      await t.database.db.execute(sql`
        select (select available::text from ledger_accounts where user_id = ${userId} and kind = 'fund' and asset = 'NADI') as fund,
               (select sum(immediate)::text from mining_results where user_id = ${userId}) as immediate`),
    )[0];
    expect(BigInt(fund?.fund ?? '0')).toBeGreaterThan(0n);
    expect(fund?.fund).toBe(fund?.immediate);
    expect((await auditLedger(t.database.db)).problems).toEqual([]);

    await job.stop();
    job = null;
    ws.close();
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('two instances on one PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const clock = new TestClock();
  const jobs: SettlementJob[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDatabase(database.db, testSettings(), clock.now());
    await removeSeededMiners(database.db);
  });
  afterAll(async () => {
    for (const j of jobs) await j.stop();
    await database.close();
  });

  function instance(): { job: SettlementJob; events: number[] } {
    const settings = testSettings({ DATABASE_URL: database.url ?? '', EPOCH_SECONDS: String(epochSeconds) });
    const bus = new LocalBus();
    const events: number[] = [];
    bus.subscribe((e: AppEvent) => {
      if (e.type === 'mining_epoch') events.push(e.epoch);
    });
    const job = startSettlementJob({ settings, db: database.db, dbKind: 'postgres', now: clock.now, events: bus }, silentLog, { intervalMs: 10 });
    jobs.push(job);
    return { job, events };
  }

  it('settles each epoch once, on the instance holding the lock; the other takes over when it stops', async () => {
    const [userId] = await createUsers(database.db, 1);
    await trial(database.db, userId as number, clock.now());
    const a = instance();
    const b = instance();
    // Both run a round: exactly one holds the lock (the other's round does nothing).
    await Promise.all([a.job.runOnce(), b.job.runOnce()]);
    clock.advance(3 * epochMs);
    await eventually(
      'epochs 0 to 2 settled',
      () => [...a.events, ...b.events],
      (e) => e.length === 3,
    );
    const [leader, follower] = a.events.length > 0 ? [a, b] : [b, a];
    expect(leader.events).toEqual([0, 1, 2]);
    expect(follower.events).toEqual([]);
    expect(await settledEpochs(database.db)).toEqual([0, 1, 2]);

    await leader.job.stop();
    clock.advance(epochMs);
    await eventually(
      'the other instance settles epoch 3',
      () => follower.events.slice(),
      (e) => e.length === 1,
    );
    expect(follower.events).toEqual([3]);
    const flows = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from ledger_flows where idempotency_key like 'mining:epoch:%'`),
    );
    expect(Number(flows[0]?.n)).toBe(4);
    expect((await auditLedger(database.db)).problems).toEqual([]);
  });
});
