// The team part of the epoch settlement (team_settle_epoch, modules/team/sql/team_settle_epoch.sql) against its reference model
// (@nadi/economy/team-model): random invite trees with random purchases and reversals (some after the
// epoch's end, some exactly at it), random mining incomes, parameters and referral pools, settled epoch
// after epoch; the SQL's lines, legs, balances, totals and epoch rows must equal the model's, every line
// must be explained by its source and inputs, the pool never pays more than it holds, and a second
// settlement pays nothing. Then the part through the real settleEpoch (trial miners in a tree) and a
// referral pool that runs short and dry.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDecimalString } from '@nadi/money/money';
import { unit } from '@nadi/economy/economy';
import { teamDefaults, type TeamParams } from '@nadi/economy/team';
import { modelTeamSettle, teamSettleKinds, type TeamLine, type TeamModelPurchase, type TeamModelUser } from '@nadi/economy/team-model';
import type { Tx } from '../../../db/client.ts';
import { pgCode } from '../../../db/pg-code.ts';
import { epochLegs } from '../../../test/epoch-legs.ts';
import { rowsOf } from '../../../db/rows.ts';
import { seedDatabase } from '../../../db/seed/seed.ts';
import { createTestDatabase, testSettings } from '../../../test/harness.ts';
import { inRolledBackTransaction } from '../../../test/rolled-back.ts';
import { auditLedgerIn, postFlow, systemAccount, transfer } from '../../ledger/index.ts';
import { addPerformance } from '../../team/index.ts';
import { paramsAt } from '../params.ts';
import { createTree, insertMiner, removeSeededMiners, setSetting } from '../../../test/settlement-population.ts';
import { settleEpoch, settleTeamEpoch, SettlementError, type EpochSettlement, type TeamSettlement } from './settle.ts';

const settings = { epochSeconds: 600, heartbeatSeconds: 20 };
const genesis = new Date('2026-11-22T00:00:00.000Z');
const epochMs = settings.epochSeconds * 1000;
const inEpoch = (n: number, ms = 1000) => new Date(genesis.getTime() + n * epochMs + ms);
const price = unit / 2n;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
  await seedDatabase(database.db, testSettings(), genesis);
  await removeSeededMiners(database.db);
});
afterAll(async () => {
  await database.close();
});

// ─── Helpers on the database ────────────────────────────────────────────────────────────────

async function referralPool(tx: Tx): Promise<bigint> {
  const row = rowsOf<{ a: string }>(
    await tx.execute(sql`select available::text as a from ledger_accounts where user_id is null and kind = 'referral_pool' and asset = 'NADI'`),
  )[0];
  return BigInt(row?.a ?? '0');
}

/** Leaves `amount` in the referral pool, the rest moved to the treasury through the ledger. */
async function leaveInPool(tx: Tx, amount: bigint): Promise<void> {
  const excess = (await referralPool(tx)) - amount;
  if (excess <= 0n) return;
  await postFlow(tx, {
    idempotencyKey: `test-referral-drain:${randomUUID()}`,
    userId: null,
    type: 'data_adjustment',
    params: { amount: excess },
    legs: [transfer('data_adjustment', systemAccount('referral_pool', 'NADI'), systemAccount('treasury', 'NADI'), excess)],
    result: () => null,
  });
}

/** A mining epoch as its settlement would leave it, with these incomes (split over the three sources). */
async function writeMiningEpoch(tx: Tx, epoch: number, incomes: { userId: number; device: bigint; destroy: bigint; power: bigint }[]): Promise<void> {
  // The mining part's computation, by hand: its epoch row (being posted) and its staged figures, with
  // nothing immediate or locked (the team part's chunk posts them to mining_results and pays nothing).
  await tx.execute(sql`insert into mining_epochs (epoch, starts_at, ends_at, emission, payable, network_power, price, paid, released, reduction, users, computed_at)
                       values (${epoch}, ${inEpoch(epoch, 0)}, ${inEpoch(epoch + 1, 0)}, 0, 0, 0, 1, 0, 0, 0, 0, ${inEpoch(epoch + 1, 5)})`);
  for (const i of incomes) {
    await tx.execute(sql`insert into mining_settle_stage (epoch, user_id, device_power, destroy_power, other_power, device_income, destroy_income, power_income,
                                                          reduction, immediate, device_now, destroy_now, power_now, locked, released, rate_delta, has_vesting)
                         values (${epoch}, ${i.userId}, 0, 0, 1, ${i.device.toString()}::numeric, ${i.destroy.toString()}::numeric, ${i.power.toString()}::numeric,
                                 0, 0, 0, 0, 0, 0, 0, 0, false)`);
  }
}

const text = (v: bigint) => v.toString();
const kindOrder = sql.raw(`array_position(array['${teamSettleKinds.join("','")}'], kind)`);

/** What the team part wrote for an epoch, and the balances it moved. */
async function observed(tx: Tx, userIds: number[], epoch: number) {
  const users = sql.join(
    userIds.map((id) => sql`${id}`),
    sql`, `,
  );
  return {
    lines: rowsOf(
      await tx.execute(sql`select user_id, kind, source_user_id, source_depth, source_amount::text, rate_bps::text, lower_numerator::text, wanted::text,
                                  amount::text, flow_id is not null as has_flow
                             from team_rewards where epoch = ${epoch} and ref is null order by user_id, ${kindOrder}, source_user_id`),
    ),
    legs: Object.fromEntries(
      (await epochLegs(tx, epoch, ['share_income', 'community_power_income', 'power_level_income'])).map((l) => [`${l.user_id}:${l.type}`, l.amount]),
    ),
    funds: Object.fromEntries(
      rowsOf<{ user_id: number; a: string }>(
        await tx.execute(
          sql`select user_id, available::text as a from ledger_accounts where kind = 'fund' and asset = 'NADI' and user_id in (${users}) order by user_id`,
        ),
      ).map((f) => [f.user_id, f.a]),
    ),
    pool: text(await referralPool(tx)),
    totals: rowsOf(
      await tx.execute(sql`select user_id, kind, total::text, last_epoch, last_epoch_amount::text from team_reward_totals
                            where user_id in (${users}) order by user_id, ${kindOrder}`),
    ),
    epoch: rowsOf(
      await tx.execute(sql`select wanted::text, payable::text, paid::text, lines, flow_id is not null as has_flow from team_epochs where epoch = ${epoch}`),
    )[0],
  };
}

/**
 * Lines the tree and the epoch's mining results do not explain: a share line's source must be the
 * recipient's descendant at its depth (1 or 2) and its amount that source's income; a community
 * line's source one of the recipient's directs; a power level line the recipient itself at depth 0
 * with its own income; and each wanted amount must follow from the line's own figures.
 */
async function unexplainedLines(tx: Tx, epoch: number): Promise<unknown[]> {
  return rowsOf(
    await tx.execute(sql`
      select r.* from team_rewards r
        left join mining_results m on m.epoch = r.epoch and m.user_id = r.source_user_id
        left join user_ancestors a on a.ancestor_id = r.user_id and a.user_id = r.source_user_id
       where r.epoch = ${epoch} and r.ref is null and not (
               r.wanted > 0 and r.amount >= 0 and r.amount <= r.wanted and (
                 (r.kind = 'share_income' and r.source_depth in (1, 2) and a.depth = r.source_depth and r.lower_numerator = 0
                    and r.source_amount = m.device_income + m.destroy_income + m.power_income and r.wanted = div(r.source_amount * r.rate_bps, 10000))
                 or (r.kind = 'community_power_income' and r.source_depth = 1 and a.depth = 1 and r.lower_numerator >= 0
                    and r.wanted = div(r.rate_bps * r.source_amount - r.lower_numerator, 10000))
                 or (r.kind = 'power_level_income' and r.source_user_id = r.user_id and r.source_depth = 0 and r.lower_numerator = 0
                    and r.source_amount = m.device_income + m.destroy_income + m.power_income and r.wanted = div(r.source_amount * r.rate_bps, 10000))))`),
  );
}

// ─── What the model says ────────────────────────────────────────────────────────────────────

/** What the reference model keeps between epochs: each user's fund, the pool, the totals per kind. */
interface ModelBook {
  funds: Map<number, bigint>;
  pool: bigint;
  totals: Map<string, { userId: number; kind: string; total: bigint; lastEpoch: number; lastAmount: bigint }>;
}

function lineRow(l: TeamLine, hasFlow: boolean) {
  return {
    ...{ user_id: l.userId, kind: l.kind, source_user_id: l.sourceUserId, source_depth: l.sourceDepth, source_amount: text(l.sourceAmount) },
    ...{ rate_bps: text(l.rateBps), lower_numerator: text(l.lowerNumerator), wanted: text(l.wanted), amount: text(l.amount), has_flow: hasFlow },
  };
}

/** The model's settlement of one epoch applied to the book; answers what observed() must see. */
function expectedEpoch(book: ModelBook, m: ReturnType<typeof modelTeamSettle>, epoch: number) {
  const hasFlow = m.paid > 0n;
  for (const [key, amount] of m.legs) {
    const [user, kind] = key.split(':') as [string, string];
    const userId = Number(user);
    book.funds.set(userId, (book.funds.get(userId) ?? 0n) + amount);
    const total = book.totals.get(key) ?? { userId, kind, total: 0n, lastEpoch: epoch, lastAmount: 0n };
    book.totals.set(key, { ...total, total: total.total + amount, lastEpoch: epoch, lastAmount: amount });
  }
  book.pool -= m.paid;
  const order = (k: string) => teamSettleKinds.indexOf(k as (typeof teamSettleKinds)[number]);
  return {
    lines: m.lines.map((l) => lineRow(l, hasFlow)),
    legs: Object.fromEntries([...m.legs].map(([k, v]) => [k, text(v)])),
    funds: Object.fromEntries([...book.funds].sort(([a], [b]) => a - b).map(([id, v]) => [id, text(v)])),
    pool: text(book.pool),
    totals: [...book.totals.values()]
      .sort((a, b) => a.userId - b.userId || order(a.kind) - order(b.kind))
      .map((t) => ({ user_id: t.userId, kind: t.kind, total: text(t.total), last_epoch: t.lastEpoch, last_epoch_amount: text(t.lastAmount) })),
    epoch: { wanted: text(m.wanted), payable: text(m.payable), paid: text(m.paid), lines: m.lines.length, has_flow: hasFlow },
  };
}

// ─── Random trees, purchases and incomes ────────────────────────────────────────────────────

const usdtArb = fc.constantFrom(100n, 1_000n, 5_000n, 20_000n, 100_000n, 500_000n).map((n) => n * unit);
/** A moment of epoch 0–2 or exactly its start (the previous epoch's end). */
const momentArb = fc.record({ epoch: fc.nat({ max: 2 }), ms: fc.oneof(fc.constant(0), fc.constant(epochMs - 1), fc.nat({ max: epochMs - 1 })) });
const bpsArb = fc.oneof(fc.constantFrom(0n, 500n, 1_000n), fc.bigInt(0n, 5_000n));
/** Any parameters in range; the levels within reach of a small tree (thresholds from 0 USDT, 0–2 directs). */
const randomParamsArb = fc
  .record({
    teamShareLevel1Bps: bpsArb,
    teamShareLevel2Bps: bpsArb,
    usdt: fc.array(fc.constantFrom(0n, 100n, 1_000n, 5_000n, 20_000n, 100_000n, 1_000_000n), { minLength: 5, maxLength: 5 }),
    directs: fc.array(fc.nat({ max: 2 }), { minLength: 5, maxLength: 5 }),
    rates: fc.array(bpsArb, { minLength: 5, maxLength: 5 }),
    teamPowerLevelBps: bpsArb,
    teamPowerLevelMin: fc.integer({ min: 1, max: 5 }),
  })
  .map(({ usdt, directs, rates, ...rest }): TeamParams => {
    const level = (k: number) => ({
      [`teamLevel${k}Usdt`]: (usdt[k - 1] as bigint) * unit,
      [`teamLevel${k}Directs`]: directs[k - 1] as number,
      [`teamLevel${k}RateBps`]: rates[k - 1] as bigint,
    });
    return { ...teamDefaults, ...rest, ...level(1), ...level(2), ...level(3), ...level(4), ...level(5) };
  });
const incomeArb = fc.oneof(fc.constant(0n), fc.bigInt(1n, 20_000n), fc.bigInt(unit, 10n ** 22n));
const usersMax = 40;
const scenarioArb = fc.record({
  // parents[i]: one of the (up to `reach`) users just before (a deep tree, or a wide one) or none (a root).
  parents: fc.array(fc.option(fc.nat(), { nil: null, freq: 10 }), { minLength: 2, maxLength: usersMax }),
  reach: fc.constantFrom(1, 3, 8, usersMax),
  purchases: fc.array(fc.record({ user: fc.nat(), usdt: usdtArb, at: momentArb, refund: fc.option(momentArb, { nil: null, freq: 4 }) }), { maxLength: 80 }),
  // Per epoch, user i's income from each source (most users earn).
  incomes: fc.array(fc.array(fc.record({ device: incomeArb, destroy: incomeArb, power: incomeArb }), { minLength: usersMax, maxLength: usersMax }), {
    minLength: 1,
    maxLength: 2,
  }),
  params: fc.oneof(fc.constant(teamDefaults), randomParamsArb, randomParamsArb),
  pool: fc.option(fc.oneof(fc.bigInt(0n, 1_000n), fc.bigInt(0n, 10n ** 22n)), { nil: null, freq: 2 }),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer S> ? S : never;

async function setUp(tx: Tx, s: Scenario) {
  const parents = s.parents.map((p, i) => (p === null || i === 0 ? null : i - 1 - (p % Math.min(i, s.reach))));
  const ids = await createTree(tx, parents);
  const users: TeamModelUser[] = ids.map((id, i) => ({ id, referrerId: parents[i] === null ? null : (ids[parents[i] as number] as number) }));
  const purchases: TeamModelPurchase[] = [];
  for (const [i, p] of s.purchases.entries()) {
    const userId = ids[p.user % ids.length] as number;
    const at = inEpoch(p.at.epoch, p.at.ms);
    await addPerformance(tx, { userId, kind: 'device', ref: `team-test:${i}`, usdt: p.usdt, at });
    purchases.push({ userId, usdt: p.usdt, at });
    if (p.refund) {
      const refundAt = new Date(Math.max(at.getTime(), inEpoch(p.refund.epoch, p.refund.ms).getTime()));
      await addPerformance(tx, { userId, kind: 'device', ref: `team-test:${i}:refund`, usdt: -p.usdt, at: refundAt });
      purchases.push({ userId, usdt: -p.usdt, at: refundAt });
    }
  }
  if (s.pool !== null) await leaveInPool(tx, s.pool);
  return { ids, users, purchases };
}

describe('team settlement against the reference model', () => {
  it('agrees on every line, leg, balance, total and epoch row; every line is explained; the pool is never overdrawn; a second run pays nothing', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        await inRolledBackTransaction(database.db, async (tx) => {
          const { ids, users, purchases } = await setUp(tx, s);
          const book: ModelBook = { funds: new Map(ids.map((id) => [id, 0n])), pool: await referralPool(tx), totals: new Map() };
          for (const [epoch, drawn] of s.incomes.entries()) {
            const incomes = ids.map((userId, i) => ({ userId, ...(drawn[i] as (typeof drawn)[number]) })).filter((i) => i.device + i.destroy + i.power > 0n);
            await writeMiningEpoch(tx, epoch, incomes);
            const [startsAt, endsAt, now] = [inEpoch(epoch, 0), inEpoch(epoch + 1, 0), inEpoch(epoch + 1, 5)];
            const poolBefore = book.pool;
            const settled = await settleTeamEpoch(tx, { epoch, startsAt, endsAt, params: s.params, now });
            const model = modelTeamSettle({
              ...{ users, purchases, endsAt, params: s.params, pool: poolBefore },
              incomes: new Map(incomes.map((i) => [i.userId, i.device + i.destroy + i.power])),
            });
            const seen = await observed(tx, ids, epoch);
            expect(seen, `epoch ${epoch}`).toEqual(expectedEpoch(book, model, epoch));
            expect(settled).toMatchObject({ wanted: model.wanted, payable: model.payable, paid: model.paid, lines: model.lines.length });
            expect(settled.shareIncome + settled.communityPowerIncome + settled.powerLevelIncome).toBe(settled.paid);
            expect(settled.paid).toBeLessThanOrEqual(poolBefore);
            expect(await unexplainedLines(tx, epoch)).toEqual([]);
            // Settled again: refused (NS001), nothing paid or written twice.
            const again = await tx.transaction((sp) => settleTeamEpoch(sp, { epoch, startsAt, endsAt, params: s.params, now })).catch((e: unknown) => e);
            expect(pgCode(again)).toBe('NS001');
            expect(await observed(tx, ids, epoch)).toEqual(seen);
          }
          expect((await auditLedgerIn(tx)).problems).toEqual([]);
          return null;
        });
      }),
      { numRuns: Number(process.env.TEAM_SETTLE_RUNS ?? 20) },
    );
  }, 240_000);
});

// ─── Through the real settlement ────────────────────────────────────────────────────────────

/**
 * A tree of eight (indices): 0 ← 1, 2, 3; 1 ← 4, 5; 4 ← 6; 6 ← 7. Every user mines a trial. Bought in
 * epoch 0: 1 and 2 6,000 USDT each, 4 and 5 600, 6 1,500: the root is V2 (12,000+ below, 2 active
 * directs), 1 and 4 are V1. After epoch 0 ends, 3 buys 100,000: the root is V3 from epoch 1 on only.
 */
async function settlementTree(tx: Tx): Promise<number[]> {
  await setSetting(tx, 'mining_genesis', genesis.toISOString());
  await setSetting(tx, 'nadi_reference_price', toDecimalString(price));
  await tx.execute(sql`delete from user_nodes`);
  await tx.execute(sql`delete from pledge_positions`);
  const ids = await createTree(tx, [null, 0, 0, 0, 1, 1, 4, 6]);
  for (const [i, userId] of ids.entries()) {
    await insertMiner(tx, {
      ...{ userId, kind: 'trial', status: 1, basePower: 1_000n + BigInt(i) * 100n, giftPower: 0n, startsEpoch: 0, endsEpoch: 1_000 },
      ...{ createdAt: inEpoch(0), firstSeenAt: null, budget: 0n, released: 0n, beats: [] },
    });
  }
  const buy = (i: number, usdt: bigint, at: Date) =>
    addPerformance(tx, { userId: ids[i] as number, kind: 'device', ref: `team-wiring:${i}:${at.getTime()}`, usdt: usdt * unit, at });
  for (const [i, usdt] of [
    [1, 6_000n],
    [2, 6_000n],
    [4, 600n],
    [5, 600n],
    [6, 1_500n],
  ] as const)
    await buy(i, usdt, inEpoch(0, 2_000));
  await buy(3, 100_000n, inEpoch(1, 0));
  return ids;
}

async function purchasesOf(tx: Tx, ids: number[]): Promise<TeamModelPurchase[]> {
  const rows = rowsOf<{ user_id: number; usdt: string; created_at: unknown }>(
    await tx.execute(sql`select user_id, usdt::text, created_at from performance_events where user_id = any(${`{${ids.join(',')}}`}::int[]) order by id`),
  );
  return rows.map((r) => ({ userId: r.user_id, usdt: BigInt(r.usdt), at: new Date(String(r.created_at)) }));
}

async function incomesOf(tx: Tx, epoch: number): Promise<Map<number, bigint>> {
  const rows = rowsOf<{ user_id: number; income: string }>(
    await tx.execute(sql`select user_id, (device_income + destroy_income + power_income)::text as income from mining_results where epoch = ${epoch}`),
  );
  return new Map(rows.map((r) => [r.user_id, BigInt(r.income)]));
}

class RolledBack extends Error {}

/** Runs `body` in a savepoint that is always rolled back, and answers what it returned. */
async function inRolledBackSavepoint<T>(tx: Tx, body: (sp: Tx) => Promise<T>): Promise<T> {
  const seen: { value?: T } = {};
  await tx
    .transaction(async (sp) => {
      seen.value = await body(sp);
      throw new RolledBack();
    })
    .catch((e: unknown) => {
      if (!(e instanceof RolledBack)) throw e;
    });
  if (!('value' in seen)) throw new Error('the rolled-back savepoint answered nothing');
  return seen.value as T;
}

// Two users a chunk: the tree's eight post in four chunks.
const settleAt = (tx: Tx, epoch: number) => settleEpoch({ db: tx, settings, now: () => inEpoch(epoch + 1, 5), chunkUsers: 2 }, epoch);

async function settled(tx: Tx, epoch: number): Promise<EpochSettlement> {
  const outcome = await settleAt(tx, epoch);
  if (outcome.status !== 'settled') throw new Error(`epoch ${epoch} was settled already`);
  return outcome.settlement;
}

/** The model of the epoch just settled, from the tree, the purchases and the epoch's mining results. */
async function modelOf(tx: Tx, ids: number[], epoch: number, pool: bigint) {
  const users = rowsOf<{ id: number; referrer_id: number | null }>(
    await tx.execute(sql`select id, referrer_id from users where id = any(${`{${ids.join(',')}}`}::int[]) order by id`),
  ).map((u) => ({ id: u.id, referrerId: u.referrer_id }));
  const params = await paramsAt(tx, settings, epoch);
  return modelTeamSettle({ users, purchases: await purchasesOf(tx, ids), endsAt: inEpoch(epoch + 1, 0), incomes: await incomesOf(tx, epoch), params, pool });
}

describe('the team part of settleEpoch', () => {
  it('pays the tree its share, community and power level income from the referral pool, with the levels at each epoch’s end', async () => {
    await inRolledBackTransaction(database.db, async (tx) => {
      const ids = await settlementTree(tx);
      const [root] = ids as [number];
      const fundsOf = async () => (await observed(tx, ids, 0)).funds;
      const immediate = async () =>
        rowsOf<{ user_id: number; s: string }>(
          await tx.execute(
            sql`select user_id, sum(immediate)::text as s from mining_results where user_id = any(${`{${ids.join(',')}}`}::int[]) group by user_id`,
          ),
        );
      const credited = new Map<number, bigint>();
      for (const epoch of [0, 1]) {
        const pool = await referralPool(tx);
        const s = await settled(tx, epoch);
        const model = await modelOf(tx, ids, epoch, pool);
        const seen = await observed(tx, ids, epoch);
        expect(seen.lines).toEqual(model.lines.map((l) => lineRow(l, true)));
        expect(s.team).toMatchObject<Partial<TeamSettlement>>({ wanted: model.wanted, payable: model.wanted, paid: model.wanted, lines: model.lines.length });
        expect(s.team.earners).toBe(ids.length);
        for (const [key, amount] of model.legs) credited.set(Number(key.split(':')[0]), (credited.get(Number(key.split(':')[0])) ?? 0n) + amount);
        expect(await referralPool(tx)).toBe(pool - model.paid);
        // The root: V2 at the end of epoch 0 (the 100,000 USDT came after), V3 with power level income at the end of epoch 1.
        expect(model.standings.get(root)?.level).toBe(epoch === 0 ? 2 : 3);
        expect(seen.lines.some((l) => (l as { kind: string }).kind === 'power_level_income')).toBe(epoch === 1);
      }
      // Each fund account holds its immediate mining income and its team rewards, nothing else.
      const funds = await fundsOf();
      for (const r of await immediate()) expect(BigInt(funds[r.user_id] ?? '0'), `user ${r.user_id}`).toBe(BigInt(r.s) + (credited.get(r.user_id) ?? 0n));
      expect(await settleAt(tx, 1)).toEqual({ status: 'already' });
      expect(await fundsOf()).toEqual(funds);
      expect((await auditLedgerIn(tx)).problems).toEqual([]);
      return null;
    });
  });

  it('with a short referral pool pays each line pro rata, with an empty one nothing (no flow), never below zero, and once', async () => {
    await inRolledBackTransaction(database.db, async (tx) => {
      const ids = await settlementTree(tx);
      // What epoch 0 wants, learnt from a settlement that is rolled back.
      const wanted = await inRolledBackSavepoint(tx, async (sp) => (await settled(sp, 0)).team.wanted);
      expect(wanted).toBeGreaterThan(1_000n);
      await leaveInPool(tx, wanted / 3n);
      const s0 = await settled(tx, 0);
      const model = await modelOf(tx, ids, 0, wanted / 3n);
      expect(s0.team).toMatchObject({ wanted, payable: wanted / 3n, paid: model.paid });
      expect(model.lines.map((l) => l.amount)).toEqual(model.lines.map((l) => (l.wanted * (wanted / 3n)) / wanted));
      expect((await observed(tx, ids, 0)).lines).toEqual(model.lines.map((l) => lineRow(l, true)));
      expect(await referralPool(tx)).toBe(wanted / 3n - s0.team.paid);
      expect(s0.team.paid).toBeGreaterThan(wanted / 3n - BigInt(model.lines.length));

      await leaveInPool(tx, 0n);
      const s1 = await settled(tx, 1);
      expect(s1.team).toMatchObject({ payable: 0n, paid: 0n, flowId: null, journal: 0 });
      expect(s1.team.wanted).toBeGreaterThan(0n);
      const empty = await observed(tx, ids, 1);
      expect(empty.epoch).toMatchObject({ paid: '0', has_flow: false });
      expect(empty.lines.length).toBe(s1.team.lines);
      expect(empty.lines.every((l) => (l as { amount: string }).amount === '0')).toBe(true);
      expect(await referralPool(tx)).toBe(0n);

      expect(await settleAt(tx, 0)).toEqual({ status: 'already' });
      expect(await settleAt(tx, 1)).toEqual({ status: 'already' });
      const flows = rowsOf<{ k: string }>(
        await tx.execute(sql`select idempotency_key as k from ledger_flows where idempotency_key like 'team:epoch:%' order by id`),
      );
      expect(flows.map((f) => f.k)).toEqual(['team:epoch:0']);
      expect((await auditLedgerIn(tx)).problems).toEqual([]);
      return null;
    });
  });

  it('refuses an epoch before its mining settlement, out of order, or with parameters out of range', async () => {
    await inRolledBackTransaction(database.db, async (tx) => {
      await settlementTree(tx);
      const input = (epoch: number, params: TeamParams = teamDefaults) => ({
        ...{ epoch, startsAt: inEpoch(epoch, 0), endsAt: inEpoch(epoch + 1, 0), params, now: inEpoch(epoch + 1, 5) },
      });
      const codeOf = (epoch: number, params?: TeamParams) => tx.transaction((sp) => settleTeamEpoch(sp, input(epoch, params))).catch((e: unknown) => pgCode(e));
      expect(await codeOf(0)).toBe('NS002');
      await settled(tx, 0);
      // Mining epoch 2 (written by hand) without team epoch 1: out of order.
      await writeMiningEpoch(tx, 2, []);
      expect(await codeOf(2)).toBe('NS002');
      await tx.execute(sql`delete from mining_epochs where epoch = 2`);
      expect(await codeOf(1, { ...teamDefaults, teamLevel3RateBps: 10_001n })).toBe('NS003');
      expect(await codeOf(1, { ...teamDefaults, teamShareLevel1Bps: -1n })).toBe('NS003');
      // Through settleEpoch the same refusal is a SettlementError the job logs, and the whole epoch waits.
      await tx.execute(sql`insert into economy_params (name, effective_epoch, value) values ('teamLevel1Directs', 1, '-1')`);
      const failure = await tx.transaction((sp) => settleEpoch({ db: sp, settings, now: () => inEpoch(2, 5) }, 1)).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(SettlementError);
      expect((failure as SettlementError).reason).toBe('invalid_input');
      const left = rowsOf(
        await tx.execute(sql`select (select count(*)::int from mining_epochs) as mining, (select count(*)::int from team_epochs) as team`),
      )[0];
      expect(left).toEqual({ mining: 1, team: 1 });
      return null;
    });
  });
});
