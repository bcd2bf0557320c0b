// Epoch settlement against its reference model (src/test/settlement-model.ts): random populations of every kind of
// miner, pools that run dry, prices, parameter changes and several epochs, settled by
// mining_settle_epoch and by the model, must agree on every balance, result row, vesting row, miner,
// power log row and journal leg. Then the settlement's promises one by one: an epoch pays once
// however often or concurrently it is settled, in order only, a dry pool pays pro-rata and never
// goes negative, one tranche vests to exactly its amount over 180 epochs, and downtime is caught up.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDecimalString } from '@nadi/money/money';
import { emissionOf, miningDefaults, shareOf, vestingReleaseAt, type MiningParams } from '@nadi/economy/economy';
import type { Db, Tx } from '../../../db/client.ts';
import { epochLegs } from '../../../test/epoch-legs.ts';
import { rowsOf } from '../../../db/rows.ts';
import { seedDatabase } from '../../../db/seed/seed.ts';
import { createTestDatabase, testSettings } from '../../../test/harness.ts';
import { dumpMoneyTables } from '../../../test/money.ts';
import { inRolledBackTransaction } from '../../../test/rolled-back.ts';
import { auditLedger, auditLedgerIn, postFlow, systemAccount, transfer } from '../../ledger/index.ts';
import { paramsAt } from '../params.ts';
import { modelSettle, type ModelMiner, type ModelState } from '../../../test/settlement-model.ts';
import { createUsers, insertMiner, removeSeededMiners, setSetting, type MinerKind } from '../../../test/settlement-population.ts';
import { settleDueEpochs, settleEpoch, SettlementError, uptimeBeatsNeeded, type SettleDeps } from './settle.ts';

const settings = { epochSeconds: 600, heartbeatSeconds: 20 };
const genesis = new Date('2026-11-22T00:00:00.000Z');
const epochMs = settings.epochSeconds * 1000;
/** A moment inside epoch n. */
const inEpoch = (n: number, ms = 1000) => new Date(genesis.getTime() + n * epochMs + ms);
const beatsNeeded = uptimeBeatsNeeded({ ...miningDefaults, ...settings });

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
  await seedDatabase(database.db, testSettings(), genesis);
  await removeSeededMiners(database.db);
});
afterAll(async () => {
  await database.close();
});

/** Settlement deps on `db` whose clock reads `at()`. */
function depsOn(db: Db | Tx, at: () => Date): SettleDeps {
  return { db, settings, now: at };
}

async function setParam(db: Db | Tx, name: string, effectiveEpoch: number, value: string): Promise<void> {
  await db.execute(sql`insert into economy_params (name, effective_epoch, value) values (${name}, ${effectiveEpoch}, ${value})
                       on conflict (name, effective_epoch) do update set value = excluded.value`);
}

async function poolBalance(db: Db | Tx, kind = 'mining_pool'): Promise<bigint> {
  const row = rowsOf<{ a: string }>(
    await db.execute(sql`select available::text as a from ledger_accounts where user_id is null and kind = ${kind} and asset = 'NADI'`),
  )[0];
  return BigInt(row?.a ?? '0');
}

/** Moves NADI out of the mining pool to the treasury through the ledger (a pool running low). */
async function drainPool(tx: Tx, amount: bigint): Promise<void> {
  if (amount <= 0n) return;
  await postFlow(tx, {
    idempotencyKey: `test-drain:${randomUUID()}`,
    userId: null,
    type: 'data_adjustment',
    params: { amount },
    legs: [transfer('data_adjustment', systemAccount('mining_pool', 'NADI'), systemAccount('treasury', 'NADI'), amount)],
    result: () => null,
  });
}

// ─── Random populations ─────────────────────────────────────────────────────────────────────

interface MinerDraw {
  user: number;
  kind: MinerKind;
  variant: number;
  power: bigint;
  gift: bigint;
  starts: number;
  length: number;
  since: number;
  budget: bigint;
  releasedPct: number;
  beats: number[];
}

interface Scenario {
  chunkUsers: number;
  users: number;
  miners: MinerDraw[];
  epochs: number;
  emissionBase: bigint;
  halvingEpochs: number;
  immediateBps: bigint;
  vestingEpochs: number;
  vestingChange: { from: number; value: number } | null;
  uptimeMinBps: bigint;
  pool: bigint | null;
  prices: bigint[];
}

const beatsArb = fc.oneof(fc.constant(beatsNeeded), fc.constant(beatsNeeded - 1), fc.integer({ min: 0, max: beatsNeeded * 2 }));
const minerArb = fc.record({
  user: fc.nat({ max: 5 }),
  kind: fc.constantFrom<MinerKind>('trial', 'destroy', 'device'),
  variant: fc.nat({ max: 9 }),
  // Equal powers often, so that ties of the destroy split are met.
  power: fc.oneof(fc.constantFrom(100n, 100n, 300n), fc.bigInt(1n, 50n), fc.bigInt(1n, 10n ** 7n)),
  gift: fc.bigInt(0n, 1_000n),
  starts: fc.oneof(fc.constant(0), fc.nat({ max: 3 })),
  length: fc.integer({ min: 1, max: 3 }),
  since: fc.oneof(fc.constant(0), fc.nat({ max: 3 })),
  budget: fc.oneof(fc.bigInt(1n, 10n ** 6n), fc.bigInt(1n, 10n ** 18n), fc.bigInt(1n, 10n ** 22n)),
  releasedPct: fc.oneof(fc.constant(0), fc.constant(100), fc.nat({ max: 100 })),
  beats: fc.array(beatsArb, { minLength: 4, maxLength: 4 }),
});
const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  /** Users per chunk: a few, so that an epoch posts in several chunks. */
  chunkUsers: fc.integer({ min: 1, max: 4 }),
  users: fc.integer({ min: 1, max: 4 }),
  miners: fc.array(minerArb, { minLength: 0, maxLength: 16 }),
  epochs: fc.integer({ min: 1, max: 4 }),
  emissionBase: fc.oneof(fc.bigInt(0n, 1_000n), { arbitrary: fc.bigInt(1n, 10n ** 24n), weight: 3 }, fc.constant(miningDefaults.emissionBase)),
  halvingEpochs: fc.integer({ min: 1, max: 3 }),
  immediateBps: fc.oneof(fc.constant(2_500n), fc.bigInt(0n, 10_000n)),
  vestingEpochs: fc.integer({ min: 1, max: 3 }),
  vestingChange: fc.option(fc.record({ from: fc.integer({ min: 1, max: 3 }), value: fc.integer({ min: 1, max: 4 }) }), { nil: null }),
  uptimeMinBps: fc.constantFrom(9_000n, 9_000n, 5_000n),
  pool: fc.option(fc.oneof(fc.bigInt(0n, 1_000n), fc.bigInt(0n, 3n * 10n ** 24n)), { nil: null, freq: 2 }),
  prices: fc.array(fc.oneof(fc.bigInt(1n, 10n ** 12n), fc.bigInt(10n ** 15n, 10n ** 19n)), { minLength: 4, maxLength: 4 }),
});

/** Builds the scenario's population in the database and the same state in the model. */
async function setUp(tx: Tx, s: Scenario): Promise<{ userIds: number[]; state: ModelState }> {
  await setSetting(tx, 'mining_genesis', genesis.toISOString());
  await setParam(tx, 'emissionBase', 0, s.emissionBase.toString());
  await setParam(tx, 'halvingEpochs', 0, String(s.halvingEpochs));
  await setParam(tx, 'immediateBps', 0, s.immediateBps.toString());
  await setParam(tx, 'vestingEpochs', 0, String(s.vestingEpochs));
  await setParam(tx, 'uptimeMinBps', 0, s.uptimeMinBps.toString());
  if (s.vestingChange) await setParam(tx, 'vestingEpochs', s.vestingChange.from, String(s.vestingChange.value));
  if (s.pool !== null) await drainPool(tx, (await poolBalance(tx)) - s.pool);
  const userIds = await createUsers(tx, s.users);
  const state: ModelState = {
    pool: await poolBalance(tx),
    vestingAccount: await poolBalance(tx, 'vesting'),
    fund: new Map(userIds.map((id) => [id, 0n])),
    userPower: new Map(),
    miners: [],
    uptime: new Map(),
    vesting: new Map(),
    tranches: [],
    results: new Map(),
    legs: new Map(),
    powerLog: [],
    epochs: [],
  };
  const hasTrial = new Set<number>();
  for (const d of s.miners) {
    const userId = userIds[d.user % userIds.length] as number;
    // One trial per user (miners_trial_once_key): a second draw becomes a destroy miner.
    const kind: MinerKind = d.kind === 'trial' && hasTrial.has(userId) ? 'destroy' : d.kind;
    if (kind === 'trial') hasTrial.add(userId);
    const status =
      kind === 'trial' ? (d.variant < 8 ? 1 : 2) : kind === 'destroy' ? (d.variant < 8 ? 3 : 2) : (([3, 3, 3, 3, 2, 2, 2, 4, 4, 3] as const)[d.variant] ?? 3);
    const budget = kind === 'destroy' ? d.budget : 0n;
    const released = (budget * BigInt(d.releasedPct)) / 100n;
    const since = kind === 'trial' ? d.starts : d.since;
    const createdAt = inEpoch(since, 1000 + d.variant * 1000);
    const beats = kind === 'device' ? d.beats.map((b, epoch) => ({ epoch, beats: b })) : [];
    const inserted = await insertMiner(tx, {
      userId,
      kind,
      status,
      basePower: d.power,
      giftPower: kind === 'device' ? d.gift : 0n,
      startsEpoch: since,
      endsEpoch: kind === 'trial' ? d.starts + d.length - 1 : null,
      createdAt,
      firstSeenAt: kind === 'device' && status !== 4 ? createdAt : null,
      budget,
      released,
      beats,
    });
    const miner: ModelMiner = {
      id: inserted.id,
      userId,
      kind,
      status,
      power: d.power + (kind === 'device' ? d.gift : 0n),
      startsEpoch: since,
      endsEpoch: kind === 'trial' ? d.starts + d.length - 1 : null,
      sinceEpoch: since,
      budget,
      released,
      deviceId: inserted.deviceId,
    };
    state.miners.push(miner);
    for (const b of beats) state.uptime.set(`${inserted.deviceId}:${b.epoch}`, b.beats);
    const counted = status === 1 || status === 3 ? miner.power : 0n;
    state.userPower.set(userId, (state.userPower.get(userId) ?? 0n) + counted);
  }
  return { userIds, state };
}

/** Everything the settlement wrote, in the model's shape (amounts as text, for readable diffs). */
async function observed(tx: Tx, userIds: number[], epoch: number) {
  const users = sql.join(
    userIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const fund = rowsOf<{ user_id: number; a: string }>(
    await tx.execute(
      sql`select user_id, available::text as a from ledger_accounts where kind = 'fund' and asset = 'NADI' and user_id in (${users}) order by user_id`,
    ),
  );
  const results = rowsOf<Record<string, string | number>>(
    await tx.execute(sql`select user_id, device_power::text, destroy_power::text, other_power::text, device_income::text, destroy_income::text,
                                power_income::text, reduction::text, immediate::text, locked::text, released::text
                           from mining_results where epoch = ${epoch} order by user_id`),
  );
  const vesting = rowsOf<{ user_id: number; locked: string; claimable: string; rate: string }>(
    await tx.execute(sql`select user_id, locked::text, claimable::text, rate::text from mining_vesting where user_id in (${users}) order by user_id`),
  );
  const miners = rowsOf<{ id: number; status: number; released: string }>(
    await tx.execute(sql`select id, status, released_usdt::text as released from miners where user_id in (${users}) order by id`),
  );
  const power = rowsOf<{ user_id: number; power: string }>(
    await tx.execute(sql`select user_id, power::text from user_power where user_id in (${users}) order by user_id`),
  );
  const log = rowsOf<{ user_id: number; type: string; miner_id: number; before: string; after: string; epoch: number }>(
    await tx.execute(sql`select user_id, type, miner_id, before::text, after::text, epoch from power_log where user_id in (${users}) order by id`),
  );
  const legs = await epochLegs(tx, epoch, ['device_income', 'destroy_profit', 'power_income']);
  const row = rowsOf<Record<string, string | number>>(
    await tx.execute(sql`select epoch, emission::text, payable::text, network_power::text, paid::text, released::text, reduction::text, users
                           from mining_epochs where epoch = ${epoch}`),
  );
  return {
    pool: (await poolBalance(tx)).toString(),
    vestingAccount: (await poolBalance(tx, 'vesting')).toString(),
    fund: Object.fromEntries(fund.map((f) => [f.user_id, f.a])),
    results: results.map((r) => ({ ...r, user_id: Number(r.user_id) })),
    vesting: Object.fromEntries(vesting.map((v) => [v.user_id, { locked: v.locked, claimable: v.claimable, rate: v.rate }])),
    miners: Object.fromEntries(miners.map((m) => [Number(m.id), { status: Number(m.status), released: m.released }])),
    power: Object.fromEntries(power.map((p) => [p.user_id, p.power])),
    log: log.map((l) => ({ ...l, user_id: Number(l.user_id), miner_id: Number(l.miner_id), epoch: Number(l.epoch) })),
    legs: Object.fromEntries(legs.map((l) => [`${l.user_id}:${l.type}`, l.amount])),
    epoch: row.map((r) => ({ ...r, epoch: Number(r.epoch), users: Number(r.users) }))[0],
  };
}

function expected(state: ModelState, epoch: number) {
  const text = (v: bigint) => v.toString();
  const e = state.epochs.find((x) => x.epoch === epoch);
  return {
    pool: text(state.pool),
    vestingAccount: text(state.vestingAccount),
    fund: Object.fromEntries([...state.fund].map(([id, v]) => [id, text(v)])),
    results: (state.results.get(epoch) ?? []).map((r) => ({
      user_id: r.userId,
      device_power: text(r.devicePower),
      destroy_power: text(r.destroyPower),
      other_power: text(r.otherPower),
      device_income: text(r.deviceIncome),
      destroy_income: text(r.destroyIncome),
      power_income: text(r.powerIncome),
      reduction: text(r.reduction),
      immediate: text(r.immediate),
      locked: text(r.locked),
      released: text(r.released),
    })),
    vesting: Object.fromEntries(
      [...state.vesting].sort(([a], [b]) => a - b).map(([id, v]) => [id, { locked: text(v.locked), claimable: text(v.claimable), rate: text(v.rate) }]),
    ),
    miners: Object.fromEntries(state.miners.map((m) => [m.id, { status: m.status, released: text(m.released) }])),
    power: Object.fromEntries([...state.userPower].sort(([a], [b]) => a - b).map(([id, p]) => [id, text(p)])),
    log: state.powerLog.map((l) => ({ user_id: l.userId, type: l.type, miner_id: l.minerId, before: text(l.before), after: text(l.after), epoch: l.epoch })),
    legs: Object.fromEntries([...(state.legs.get(epoch) ?? new Map<string, bigint>())].map(([k, v]) => [k, text(v)])),
    epoch: e && {
      epoch,
      emission: text(e.emission),
      payable: text(e.payable),
      network_power: text(e.networkPower),
      paid: text(e.paid),
      released: text(e.released),
      reduction: text(e.reduction),
      users: e.users,
    },
  };
}

describe('epoch settlement against the reference model', () => {
  it('agrees on every balance, result, vesting row, miner, power log row and leg, epoch after epoch', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        await inRolledBackTransaction(database.db, async (tx) => {
          const { userIds, state } = await setUp(tx, s);
          for (let epoch = 0; epoch < s.epochs; epoch += 1) {
            const price = s.prices[epoch] as bigint;
            await setSetting(tx, 'nadi_reference_price', toDecimalString(price));
            const params: MiningParams = await paramsAt(tx, settings, epoch);
            const outcome = await settleEpoch({ ...depsOn(tx, () => inEpoch(epoch + 1, 5)), chunkUsers: s.chunkUsers }, epoch);
            expect(outcome.status).toBe('settled');
            modelSettle(state, epoch, params, price);
            expect(await observed(tx, userIds, epoch), `epoch ${epoch}`).toEqual(expected(state, epoch));
          }
          expect((await auditLedgerIn(tx)).problems).toEqual([]);
          return null;
        });
      }),
      { numRuns: Number(process.env.SETTLE_RUNS ?? 30) },
    );
  }, 240_000);
});

// ─── The settlement's promises, one by one ───────────────────────────────────────────────────

/** A trial miner of `power` cP for user `userId` that counts from `epoch` to `ends`. */
const trialOf = (db: Db | Tx, userId: number, power: bigint, epoch = 0, ends: number | null = 1_000) =>
  insertMiner(db, {
    userId,
    kind: 'trial',
    status: 1,
    basePower: power,
    giftPower: 0n,
    startsEpoch: epoch,
    endsEpoch: ends,
    createdAt: inEpoch(epoch),
    firstSeenAt: null,
    budget: 0n,
    released: 0n,
    beats: [],
  });

async function fundOf(db: Db | Tx, userId: number): Promise<bigint> {
  const row = rowsOf<{ a: string }>(
    await db.execute(sql`select available::text as a from ledger_accounts where user_id = ${userId} and kind = 'fund' and asset = 'NADI'`),
  )[0];
  return BigInt(row?.a ?? '0');
}

async function settledEpochs(db: Db | Tx): Promise<number[]> {
  return rowsOf<{ epoch: number }>(await db.execute(sql`select epoch from mining_epochs order by epoch`)).map((r) => Number(r.epoch));
}

describe('an epoch settles once, in order', () => {
  let users: number[];
  let own: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  beforeAll(async () => {
    own = await createTestDatabase();
    db = own.db;
    await seedDatabase(db, testSettings(), genesis);
    await removeSeededMiners(db);
    await setSetting(db, 'mining_genesis', genesis.toISOString());
    users = await createUsers(db, 3);
    for (const [i, id] of users.entries()) await trialOf(db, id, BigInt(1_000 * (i + 1)));
  });
  afterAll(async () => {
    await own.close();
  });

  it('pays once when the same epoch is settled again', async () => {
    const first = await settleEpoch(
      depsOn(db, () => inEpoch(1)),
      0,
    );
    expect(first.status).toBe('settled');
    const paid = first.status === 'settled' ? first.settlement.paid : 0n;
    const emission = emissionOf(0, miningDefaults);
    expect(paid).toBe([1n, 2n, 3n].reduce((sum, k) => sum + shareOf(emission, k, 6n), 0n));
    const after = await dumpMoneyTables(db);
    expect(
      await settleEpoch(
        depsOn(db, () => inEpoch(2)),
        0,
      ),
    ).toEqual({ status: 'already' });
    expect(await dumpMoneyTables(db)).toBe(after);
    expect((await auditLedger(db)).problems).toEqual([]);
  });

  it('pays once when several calls settle the same epoch at the same time', async () => {
    const before = await Promise.all(users.map((id) => fundOf(db, id)));
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () =>
        settleEpoch(
          depsOn(db, () => inEpoch(2)),
          1,
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'settled')).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'already')).toHaveLength(3);
    const flows = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ledger_flows where idempotency_key = 'mining:epoch:1'`));
    expect(Number(flows[0]?.n)).toBe(1);
    // The node and savings parts settled with it, once.
    const parts = rowsOf(
      await db.execute(
        sql`select (select count(*)::int from node_epochs where epoch = 1) as node, (select count(*)::int from pledge_epochs where epoch = 1) as pledge`,
      ),
    );
    expect(parts).toEqual([{ node: 1, pledge: 1 }]);
    const after = await Promise.all(users.map((id) => fundOf(db, id)));
    // 1 000, 2 000 and 3 000 cP of 6 000: a sixth, a third and a half of the emission, a quarter of it at once.
    const emission = emissionOf(1, miningDefaults);
    expect(after.map((a, i) => a - (before[i] as bigint))).toEqual([1n, 2n, 3n].map((k) => (((emission * k) / 6n) * 2_500n) / 10_000n));
    expect((await auditLedger(db)).problems).toEqual([]);
  });

  it('refuses an epoch out of order or not ended, and changes nothing', async () => {
    const before = await dumpMoneyTables(db);
    await expect(
      settleEpoch(
        depsOn(db, () => inEpoch(9)),
        3,
      ),
    ).rejects.toMatchObject({ name: 'SettlementError', reason: 'out_of_order' });
    await expect(
      settleEpoch(
        depsOn(db, () => inEpoch(2, epochMs - 1)),
        2,
      ),
    ).rejects.toMatchObject({ reason: 'not_ended' });
    await expect(
      settleEpoch(
        depsOn(db, () => inEpoch(9)),
        -1,
      ),
    ).rejects.toBeInstanceOf(SettlementError);
    await expect(
      settleEpoch(
        depsOn(db, () => inEpoch(9)),
        1.5,
      ),
    ).rejects.toMatchObject({ reason: 'invalid_input' });
    expect(await dumpMoneyTables(db)).toBe(before);
    expect(await settledEpochs(db)).toEqual([0, 1]);
  });
});

describe('a pool that runs dry', () => {
  it('pays pro-rata what it holds, never goes below zero, and pays nothing once empty', async () => {
    await inRolledBackTransaction(database.db, async (tx) => {
      await setSetting(tx, 'mining_genesis', genesis.toISOString());
      const users = await createUsers(tx, 3);
      const powers = [100n, 200n, 400n];
      for (const [i, id] of users.entries()) await trialOf(tx, id, powers[i] as bigint);
      const holds = emissionOf(0, miningDefaults) / 3n + 7n;
      await drainPool(tx, (await poolBalance(tx)) - holds);

      const first = await settleEpoch(
        depsOn(tx, () => inEpoch(1)),
        0,
      );
      const funds = await Promise.all(users.map((id) => fundOf(tx, id)));
      const results = rowsOf<{ user_id: number; total: string }>(
        await tx.execute(
          sql`select user_id, (device_income + destroy_income + power_income)::text as total from mining_results where epoch = 0 order by user_id`,
        ),
      );
      expect(results.map((r) => BigInt(r.total))).toEqual(powers.map((p) => shareOf(holds, p, 700n)));
      expect(funds).toEqual(powers.map((p) => (shareOf(holds, p, 700n) * 2_500n) / 10_000n));
      expect(first).toMatchObject({ status: 'settled', settlement: { payable: holds, paid: powers.reduce((s, p) => s + shareOf(holds, p, 700n), 0n) } });
      const dust = await poolBalance(tx);
      expect(dust).toBe(holds - powers.reduce((s, p) => s + shareOf(holds, p, 700n), 0n));
      expect(dust).toBeGreaterThanOrEqual(0n);

      // The dust is all the next epoch may pay; then an empty pool pays nothing and posts no flow.
      const second = await settleEpoch(
        depsOn(tx, () => inEpoch(2)),
        1,
      );
      expect(second).toMatchObject({ status: 'settled', settlement: { payable: dust } });
      await drainPool(tx, await poolBalance(tx));
      const third = await settleEpoch(
        depsOn(tx, () => inEpoch(3)),
        2,
      );
      expect(third).toMatchObject({ status: 'settled', settlement: { payable: 0n, paid: 0n, flowId: null, users: 3 } });
      expect(await poolBalance(tx)).toBe(0n);
      expect((await auditLedgerIn(tx)).problems).toEqual([]);
      return null;
    });
  });
});

describe('vesting', () => {
  // On a database of its own, each epoch's transactions committed as the job commits them (181 epochs
  // in one rolled-back transaction would hold every temporary table's lock to its end).
  let own: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    own = await createTestDatabase();
    await seedDatabase(own.db, testSettings(), genesis);
    await removeSeededMiners(own.db);
  });
  afterAll(async () => {
    await own.close();
  });

  it('releases one tranche over 180 epochs to exactly its locked amount', async () => {
    const tx = own.db;
    {
      await setSetting(tx, 'mining_genesis', genesis.toISOString());
      const [userId] = await createUsers(tx, 1);
      await trialOf(tx, userId as number, 1_000n, 0, 0);
      const settled = await settleDueEpochs(depsOn(tx, () => inEpoch(181)));
      expect(settled.map((s) => s.epoch)).toEqual(Array.from({ length: 181 }, (_, n) => n));

      const rows = rowsOf<{ epoch: number; locked: string; released: string }>(
        await tx.execute(sql`select epoch, locked::text, released::text from mining_results where user_id = ${userId} order by epoch`),
      );
      const locked = BigInt(rows[0]?.locked ?? '0');
      expect(locked % 180n).not.toBe(0n);
      const released = rows.slice(1).map((r) => BigInt(r.released));
      expect(rows.map((r) => Number(r.epoch))).toEqual(Array.from({ length: 181 }, (_, n) => n));
      expect(released).toEqual(Array.from({ length: 180 }, (_, k) => vestingReleaseAt(locked, k + 1, miningDefaults)));
      expect(released.reduce((s, r) => s + r, 0n)).toBe(locked);
      const vesting = rowsOf<{ locked: string; claimable: string; rate: string }>(
        await tx.execute(sql`select locked::text, claimable::text, rate::text from mining_vesting where user_id = ${userId}`),
      );
      expect(vesting).toEqual([{ locked: '0', claimable: locked.toString(), rate: '0' }]);
      // Nothing is left to release: the next epoch writes no row for the user.
      await settleEpoch(
        depsOn(tx, () => inEpoch(182)),
        181,
      );
      expect(rowsOf(await tx.execute(sql`select 1 from mining_results where user_id = ${userId} and epoch = 181`))).toEqual([]);
      expect((await auditLedger(tx)).problems).toEqual([]);
    }
  }, 300_000);
});

describe('catching up', () => {
  it('settles every ended epoch in order, from epoch 0, and nothing twice', async () => {
    await inRolledBackTransaction(database.db, async (tx) => {
      await setSetting(tx, 'mining_genesis', genesis.toISOString());
      const [userId] = await createUsers(tx, 1);
      await trialOf(tx, userId as number, 1_000n);
      // The first epoch to settle is 0 (a savepoint keeps the refusal from ending the transaction).
      await expect(
        tx.transaction((sp) =>
          settleEpoch(
            depsOn(sp, () => inEpoch(3)),
            1,
          ),
        ),
      ).rejects.toMatchObject({ reason: 'out_of_order' });
      expect((await settleDueEpochs(depsOn(tx, () => inEpoch(3, 10)))).map((s) => s.epoch)).toEqual([0, 1, 2]);
      expect(await settledEpochs(tx)).toEqual([0, 1, 2]);
      expect(await settleDueEpochs(depsOn(tx, () => inEpoch(3, epochMs - 1)))).toEqual([]);
      expect((await settleDueEpochs(depsOn(tx, () => inEpoch(4)))).map((s) => s.epoch)).toEqual([3]);
      const flows = rowsOf<{ key: string }>(
        await tx.execute(sql`select idempotency_key as key from ledger_flows where idempotency_key like 'mining:epoch:%' order by id`),
      );
      expect(flows.map((f) => f.key)).toEqual(['mining:epoch:0', 'mining:epoch:1', 'mining:epoch:2', 'mining:epoch:3']);
      const parts = rowsOf<{ n: number; p: number }>(
        await tx.execute(sql`select n.epoch as n, p.epoch as p from node_epochs n full join pledge_epochs p on p.epoch = n.epoch order by 1`),
      );
      expect(parts).toEqual([0, 1, 2, 3].map((n) => ({ n, p: n })));
      return null;
    });
  });
});
