// The node and savings parts of the epoch settlement against the reference model (src/test/settlement-model.ts): random
// populations of node holders (several nodes, tiers of any rate and weight, bought in any epoch), fee
// credits of both assets at any moment (the epoch's edges too), savings positions of every kind
// (flexible, some redeemed by their owners; locked ones released at their last epoch; joint; node),
// pools that run dry. Settled by settleEpoch and by the model, epoch after epoch, they must agree on
// every balance, earning, interest line, position, product total, miner, power log row and leg; what
// the users got must sum to what the pools and fees paid; and settling again pays nothing.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDecimalString } from '@nadi/money/money';
import { unit } from '@nadi/economy/economy';
import type { Tx } from '../../../db/client.ts';
import { pgCode } from '../../../db/pg-code.ts';
import { epochLegs } from '../../../test/epoch-legs.ts';
import { rowsOf } from '../../../db/rows.ts';
import { seedDatabase } from '../../../db/seed/seed.ts';
import { createTestDatabase, testSettings } from '../../../test/harness.ts';
import { inRolledBackTransaction } from '../../../test/rolled-back.ts';
import { auditLedgerIn, flowJson, postFlow, systemAccount, transfer } from '../../ledger/index.ts';
import { paramsAt } from '../params.ts';
import { modelNodeSettle, modelPledgeSettle, modelSettle, type ModelAsset, type ModelState, type RewardsState } from '../../../test/settlement-model.ts';
import {
  createUsers,
  insertHolding,
  insertMiner,
  insertNodeTier,
  insertPledgeProduct,
  insertPosition,
  removeSeededMiners,
  seedSyntheticRewards,
  setSetting,
  settlePledgedPrincipal,
  type ProductSpec,
} from '../../../test/settlement-population.ts';
import { settleEpoch, type EpochSettlement } from './settle.ts';

const settings = { epochSeconds: 600, heartbeatSeconds: 20 };
const genesis = new Date('2026-11-22T00:00:00.000Z');
const epochMs = settings.epochSeconds * 1000;
const inEpoch = (n: number, ms = 1000) => new Date(genesis.getTime() + n * epochMs + ms);
const price = unit / 2n;
/** Trials in these tests outlive every epoch they settle. */
const trialEnds = 1_000;

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

async function setParam(tx: Tx, name: string, value: string): Promise<void> {
  await tx.execute(sql`insert into economy_params (name, effective_epoch, value) values (${name}, 0, ${value})
                       on conflict (name, effective_epoch) do update set value = excluded.value`);
}

async function systemBalance(tx: Tx, kind: string, asset: ModelAsset = 'NADI'): Promise<bigint> {
  const row = rowsOf<{ a: string }>(
    await tx.execute(sql`select available::text as a from ledger_accounts where user_id is null and kind = ${kind} and asset = ${asset}`),
  )[0];
  return BigInt(row?.a ?? '0');
}

/** Moves NADI or USDT between two system accounts now (outside every test epoch: the fees' inflow is not touched). */
async function moveSystem(tx: Tx, from: string, to: string, asset: ModelAsset, amount: bigint): Promise<void> {
  if (amount <= 0n) return;
  await postFlow(tx, {
    idempotencyKey: `test-move:${randomUUID()}`,
    userId: null,
    type: 'data_adjustment',
    params: { amount },
    legs: [transfer('data_adjustment', systemAccount(from as never, asset), systemAccount(to as never, asset), amount)],
    result: () => null,
  });
}

/** A fee credited to the fees account at `at` (as a trade or a withdrawal would), through the ledger. */
async function creditFee(tx: Tx, asset: ModelAsset, amount: bigint, at: Date): Promise<void> {
  const flow = flowJson({
    idempotencyKey: `test-fee:${randomUUID()}`,
    userId: null,
    type: 'trade_fee',
    params: { amount },
    legs: [transfer('trade_fee', systemAccount('treasury', asset), systemAccount('fees', asset), amount)],
  });
  await tx.execute(sql`select ledger_post_flows(${JSON.stringify([flow])}::jsonb, ${at}::timestamptz)`);
}

async function feeCreditsIn(tx: Tx, asset: ModelAsset, epoch: number): Promise<bigint> {
  const row = rowsOf<{ s: string }>(
    await tx.execute(sql`select coalesce(sum(t.amount), 0)::text as s from ledger_transfers t join ledger_accounts a on a.id = t.credit_account_id
                          where a.user_id is null and a.kind = 'fees' and a.asset = ${asset}
                            and t.created_at >= ${inEpoch(epoch, 0)} and t.created_at < ${inEpoch(epoch + 1, 0)}`),
  )[0];
  return BigInt(row?.s ?? '0');
}

// ─── Random populations ─────────────────────────────────────────────────────────────────────

const kinds = ['flexible', 'locked', 'joint', 'node'] as const;
const amountArb = fc.oneof(fc.bigInt(1n, 10_000n), fc.bigInt(unit, 10_000n * unit), fc.bigInt(1n, 10n ** 24n));
const scenarioArb = fc.record({
  /** Users per chunk: a few, so that an epoch posts in several chunks. */
  chunkUsers: fc.integer({ min: 1, max: 4 }),
  users: fc.integer({ min: 1, max: 4 }),
  tiers: fc.array(
    fc.record({
      rate: fc.oneof(fc.constantFrom(200, 1_000), fc.integer({ min: 0, max: 10_000 })),
      weight: fc.oneof(fc.constantFrom(1, 60), fc.integer({ min: 0, max: 60 })),
      gift: fc.bigInt(0n, 5_000n),
    }),
    { minLength: 5, maxLength: 5 },
  ),
  holdings: fc.array(fc.record({ user: fc.nat({ max: 5 }), tier: fc.nat({ max: 4 }), epoch: fc.nat({ max: 3 }), at: fc.nat({ max: 9 }) }), { maxLength: 10 }),
  trials: fc.array(fc.record({ user: fc.nat({ max: 5 }), power: fc.bigInt(1n, 10n ** 6n) }), { maxLength: 3 }),
  products: fc.record({
    flexible: fc.oneof(fc.constant(300), fc.integer({ min: 0, max: 100_000 })),
    locked: fc.oneof(fc.constant(600), fc.integer({ min: 0, max: 100_000 })),
    term: fc.integer({ min: 1, max: 3 }),
    budget: fc.oneof(fc.constant(10_000n * unit), fc.bigInt(0n, 1_000n)),
    node: fc.oneof(fc.constant(1_200), fc.integer({ min: 0, max: 100_000 })),
  }),
  positions: fc.array(
    fc.record({
      user: fc.nat({ max: 5 }),
      kind: fc.constantFrom(...kinds),
      amount: amountArb,
      start: fc.nat({ max: 3 }),
      // Flexible only: redeemed by its owner during that epoch (after `start` - 1, when it was joined).
      redeemed: fc.option(fc.nat({ max: 4 }), { nil: null, freq: 2 }),
    }),
    { maxLength: 14 },
  ),
  fees: fc.array(
    fc.record({
      asset: fc.constantFrom<ModelAsset>('NADI', 'USDT'),
      amount: fc.oneof(fc.bigInt(1n, 1_000n), fc.bigInt(unit, 10n ** 24n)),
      epoch: fc.nat({ max: 4 }),
      // The first and last moment of an epoch too: [start, end).
      at: fc.oneof(fc.constant(0), fc.constant(epochMs - 1), fc.integer({ min: 0, max: epochMs - 1 })),
    }),
    { maxLength: 8 },
  ),
  // Fees taken out again now (a refund of a store margin): the dividend is never more than the account holds.
  feesLeft: fc.option(fc.record({ NADI: fc.bigInt(0n, 10n ** 20n), USDT: fc.bigInt(0n, 10n ** 20n) }), { nil: null, freq: 3 }),
  nodePool: fc.option(fc.oneof(fc.bigInt(0n, 1_000n), fc.bigInt(0n, 10n ** 22n)), { nil: null, freq: 2 }),
  savingsPool: fc.option(fc.oneof(fc.bigInt(0n, 1_000n), fc.bigInt(0n, 10n ** 21n)), { nil: null, freq: 2 }),
  emissionBase: fc.oneof(fc.constant(100_000n * unit), fc.bigInt(0n, 10n ** 24n)),
  dividendBps: fc.oneof(fc.constant(5_000n), fc.bigInt(0n, 10_000n)),
  epochs: fc.integer({ min: 1, max: 4 }),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer S> ? S : never;

/** What the test remembers beside the model: when each position was redeemed by its owner. */
interface Setup {
  userIds: number[];
  state: ModelState;
  rewards: RewardsState;
  redeemedAt: Map<number, string>;
}

async function setUp(tx: Tx, s: Scenario): Promise<Setup> {
  await setSetting(tx, 'mining_genesis', genesis.toISOString());
  await setSetting(tx, 'nadi_reference_price', toDecimalString(price));
  await setParam(tx, 'emissionBase', s.emissionBase.toString());
  await setParam(tx, 'nodeDividendBps', s.dividendBps.toString());
  // Only this scenario's holdings and positions (the seed's products stay, with nothing in them).
  await tx.execute(sql`delete from user_nodes`);
  await tx.execute(sql`delete from pledge_positions`);
  if (s.nodePool !== null) await moveSystem(tx, 'node_pool', 'treasury', 'NADI', (await systemBalance(tx, 'node_pool')) - s.nodePool);
  if (s.savingsPool !== null) await moveSystem(tx, 'savings_pool', 'treasury', 'NADI', (await systemBalance(tx, 'savings_pool')) - s.savingsPool);
  const userIds = await createUsers(tx, s.users);
  const userOf = (n: number) => userIds[n % userIds.length] as number;
  const state: ModelState = {
    pool: await systemBalance(tx, 'mining_pool'),
    vestingAccount: await systemBalance(tx, 'vesting'),
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
  const rewards = await emptyRewards(tx, userIds);
  const addMiner = (id: number, userId: number, kind: 'trial' | 'node' | 'pledge', status: 1 | 2 | 3, power: bigint, sinceEpoch: number) => {
    const endsEpoch = kind === 'trial' ? trialEnds : null;
    state.miners.push({ id, userId, kind, status, power, startsEpoch: sinceEpoch, endsEpoch, sinceEpoch, budget: 0n, released: 0n, deviceId: null });
    // insertMiner writes the user's power row even for a miner that is not running (adding nothing).
    state.userPower.set(userId, (state.userPower.get(userId) ?? 0n) + (status === 2 ? 0n : power));
  };
  const seen = new Set<number>();
  for (const t of s.trials) {
    const userId = userOf(t.user);
    if (seen.has(userId)) continue;
    seen.add(userId);
    const miner = await insertMiner(tx, {
      ...{ userId, kind: 'trial', status: 1, basePower: t.power, giftPower: 0n, startsEpoch: 0, endsEpoch: trialEnds, createdAt: inEpoch(0) },
      ...{ firstSeenAt: null, budget: 0n, released: 0n, beats: [] },
    });
    addMiner(miner.id, userId, 'trial', 1, t.power, 0);
  }
  await setUpNodes(tx, s, userOf, rewards, addMiner);
  const redeemedAt = await setUpSavings(tx, s, userOf, rewards, addMiner);
  for (const f of s.fees) await creditFee(tx, f.asset, f.amount, inEpoch(f.epoch, f.at));
  if (s.feesLeft) {
    for (const asset of ['NADI', 'USDT'] as const)
      await moveSystem(tx, 'fees', 'treasury', asset, (await systemBalance(tx, 'fees', asset)) - s.feesLeft[asset]);
  }
  for (let epoch = 0; epoch <= 4; epoch += 1) {
    rewards.feeInflow.set(epoch, { NADI: await feeCreditsIn(tx, 'NADI', epoch), USDT: await feeCreditsIn(tx, 'USDT', epoch) });
  }
  rewards.fees = { NADI: await systemBalance(tx, 'fees', 'NADI'), USDT: await systemBalance(tx, 'fees', 'USDT') };
  rewards.pledged = await systemBalance(tx, 'pledged');
  return { userIds, state, rewards, redeemedAt };
}

async function emptyRewards(tx: Tx, userIds: number[]): Promise<RewardsState> {
  return {
    nodePool: await systemBalance(tx, 'node_pool'),
    savingsPool: await systemBalance(tx, 'savings_pool'),
    savingsInterest: await systemBalance(tx, 'savings_interest'),
    pledged: 0n,
    fees: { NADI: 0n, USDT: 0n },
    feeInflow: new Map(),
    fundUsdt: new Map(userIds.map((id) => [id, 0n])),
    holdings: [],
    products: new Map(),
    positions: [],
    claimable: new Map(),
    nodeEarnings: new Map(),
    interestLines: new Map(),
    nodeLegs: new Map(),
    pledgeLegs: new Map(),
    nodeEpochs: [],
    pledgeEpochs: [],
  };
}

type AddMiner = (id: number, userId: number, kind: 'node' | 'pledge', status: 2 | 3, power: bigint, sinceEpoch: number) => void;

async function setUpNodes(tx: Tx, s: Scenario, userOf: (n: number) => number, rewards: RewardsState, addMiner: AddMiner): Promise<void> {
  const tierIds: number[] = [];
  for (const [i, t] of s.tiers.entries()) {
    tierIds.push(await insertNodeTier(tx, { levelId: 900 + i, giftPower: t.gift, machineRateBps: t.rate, withdrawRate: t.weight }));
  }
  for (const h of s.holdings) {
    const userId = userOf(h.user);
    const tier = s.tiers[h.tier] as Scenario['tiers'][number];
    const at = h.at * 1000 + 500;
    const held = await insertHolding(tx, { userId, tierId: tierIds[h.tier] as number, giftPower: tier.gift, createdAt: inEpoch(h.epoch, at), epoch: h.epoch });
    addMiner(held.minerId, userId, 'node', 3, tier.gift, h.epoch);
    rewards.holdings.push({ id: held.id, userId, epoch: h.epoch, at, rateBps: BigInt(tier.rate), weight: BigInt(tier.weight) });
  }
}

async function setUpSavings(tx: Tx, s: Scenario, userOf: (n: number) => number, rewards: RewardsState, addMiner: AddMiner): Promise<Map<number, string>> {
  const p = s.products;
  const specs: Record<(typeof kinds)[number], ProductSpec> = {
    flexible: { kind: 'flexible', termEpochs: 0, dayRatePpm: p.flexible, epochBudget: null },
    locked: { kind: 'locked', termEpochs: p.term, dayRatePpm: p.locked, epochBudget: null },
    joint: { kind: 'joint', termEpochs: 0, dayRatePpm: 0, epochBudget: p.budget },
    node: { kind: 'node', termEpochs: 0, dayRatePpm: p.node, epochBudget: null },
  };
  const productIds = new Map<string, number>();
  for (const kind of kinds) {
    const id = await insertPledgeProduct(tx, specs[kind], genesis);
    productIds.set(kind, id);
    rewards.products.set(id, { id, kind, epochBudget: specs[kind].epochBudget, total: 0n });
  }
  const redeemedAt = new Map<number, string>();
  for (const d of s.positions) {
    const userId = userOf(d.user);
    const spec = specs[d.kind];
    const redeemed = d.kind === 'flexible' && d.redeemed !== null ? inEpoch(Math.max(d.redeemed, d.start), 7_000) : null;
    const endEpoch = d.kind === 'locked' ? d.start + spec.termEpochs - 1 : null;
    const productId = productIds.get(d.kind) as number;
    const joined = inEpoch(d.start - 1, 3_000);
    const pos = await insertPosition(tx, {
      ...{ userId, productId, amount: d.amount, dayRatePpm: spec.dayRatePpm, startEpoch: d.start, endEpoch },
      ...{ createdAt: joined, redeemedAt: redeemed },
    });
    addMiner(pos.minerId, userId, 'pledge', redeemed ? 2 : 3, pos.power, d.start - 1);
    if (redeemed) redeemedAt.set(pos.id, redeemed.toISOString());
    const product = rewards.products.get(productId);
    if (product && !redeemed) product.total += d.amount;
    rewards.positions.push({
      ...{ id: pos.id, userId, productId, amount: d.amount, dayRatePpm: BigInt(spec.dayRatePpm), startEpoch: d.start, endEpoch },
      ...{ status: redeemed ? 'redeemed' : 'active', redeemedEpoch: redeemed ? Math.max(d.redeemed ?? 0, d.start) : null, releasedEpoch: null },
      ...{ minerId: pos.minerId, interestTotal: 0n },
    });
  }
  await settlePledgedPrincipal(tx);
  return redeemedAt;
}

// ─── What the settlement wrote, and what the model says it should have ─────────────────────

const text = (v: bigint) => v.toString();

async function observed(tx: Tx, userIds: number[], epoch: number) {
  const users = sql.join(
    userIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const funds = rowsOf<{ user_id: number; asset: string; a: string }>(
    await tx.execute(
      sql`select user_id, asset, available::text as a from ledger_accounts where kind = 'fund' and user_id in (${users}) order by user_id, asset`,
    ),
  );
  const legsOf = (types: readonly string[]) => epochLegs(tx, epoch, types);
  const legMap = (legs: Awaited<ReturnType<typeof legsOf>>) => Object.fromEntries(legs.map((l) => [`${l.user_id}:${l.type}:${l.asset}`, l.amount]));
  const system = async (kind: string, asset: ModelAsset = 'NADI') => text(await systemBalance(tx, kind, asset));
  return {
    fund: Object.fromEntries(funds.map((f) => [`${f.user_id}:${f.asset}`, f.a])),
    pools: {
      mining: await system('mining_pool'),
      node: await system('node_pool'),
      savings: await system('savings_pool'),
      interest: await system('savings_interest'),
      pledged: await system('pledged'),
      feesNadi: await system('fees', 'NADI'),
      feesUsdt: await system('fees', 'USDT'),
    },
    earnings: rowsOf(
      await tx.execute(sql`select holding_id::int, user_id, mining_income::text, dividend_nadi::text, dividend_usdt::text from node_earnings
                            where epoch = ${epoch} order by holding_id`),
    ),
    nodeEpoch: rowsOf(
      await tx.execute(sql`select fees_nadi::text, fees_usdt::text, dividend_nadi::text, dividend_usdt::text, bonus_paid::text, weight_total::text, holders
                             from node_epochs where epoch = ${epoch}`),
    )[0],
    nodeLegs: legMap(await legsOf(['node_mining_income', 'node_fee_dividend'])),
    lines: rowsOf(await tx.execute(sql`select position_id::int, user_id, amount::text from pledge_interest_lines where epoch = ${epoch} order by position_id`)),
    claimable: Object.fromEntries(
      rowsOf<{ user_id: number; c: string }>(
        await tx.execute(sql`select user_id, claimable::text as c from pledge_interest where user_id in (${users}) order by user_id`),
      ).map((r) => [r.user_id, r.c]),
    ),
    positions: rowsOf<{ redeemed_at: unknown }>(
      await tx.execute(sql`select id::int, status, interest_total::text, redeemed_at, release_flow_id is not null as released
                             from pledge_positions order by id`),
    ).map((r) => ({ ...r, redeemed_at: r.redeemed_at === null ? null : new Date(String(r.redeemed_at)).toISOString() })),
    totals: rowsOf(await tx.execute(sql`select id, total::text from pledge_products where name like 'synthetic %' order by id`)),
    pledgeEpoch: rowsOf(await tx.execute(sql`select interest_paid::text, released::text, positions from pledge_epochs where epoch = ${epoch}`))[0],
    pledgeLegs: legMap(await legsOf(['release_pledge_income'])),
    miners: Object.fromEntries(
      rowsOf<{ id: number; status: number }>(await tx.execute(sql`select id::int, status from miners where user_id in (${users}) order by id`)).map((m) => [
        m.id,
        m.status,
      ]),
    ),
    power: Object.fromEntries(
      rowsOf<{ user_id: number; p: string }>(
        await tx.execute(sql`select user_id, power::text as p from user_power where user_id in (${users}) order by user_id`),
      ).map((r) => [r.user_id, r.p]),
    ),
    log: rowsOf(
      await tx.execute(sql`select user_id, type, miner_id::int, before::text, after::text, epoch from power_log where user_id in (${users}) order by id`),
    ),
    results: rowsOf(
      await tx.execute(sql`select user_id, other_power::text, (device_income + destroy_income + power_income)::text as income from mining_results
                            where epoch = ${epoch} order by user_id`),
    ),
  };
}

function expected(setup: Setup, epoch: number) {
  const { state, rewards, userIds } = setup;
  const n = rewards.nodeEpochs.find((e) => e.epoch === epoch);
  const p = rewards.pledgeEpochs.find((e) => e.epoch === epoch);
  const legs = (m: Map<string, bigint> | undefined) => Object.fromEntries([...(m ?? new Map<string, bigint>())].map(([k, v]) => [k, text(v)]));
  return {
    fund: Object.fromEntries(
      userIds.flatMap((id) => [
        [`${id}:NADI`, text(state.fund.get(id) ?? 0n)],
        [`${id}:USDT`, text(rewards.fundUsdt.get(id) ?? 0n)],
      ]),
    ),
    pools: {
      mining: text(state.pool),
      node: text(rewards.nodePool),
      savings: text(rewards.savingsPool),
      interest: text(rewards.savingsInterest),
      pledged: text(rewards.pledged),
      feesNadi: text(rewards.fees.NADI),
      feesUsdt: text(rewards.fees.USDT),
    },
    earnings: (rewards.nodeEarnings.get(epoch) ?? []).map((e) => ({
      ...{ holding_id: e.holdingId, user_id: e.userId, mining_income: text(e.miningIncome) },
      ...{ dividend_nadi: text(e.dividendNadi), dividend_usdt: text(e.dividendUsdt) },
    })),
    nodeEpoch: n && {
      ...{ fees_nadi: text(n.feesNadi), fees_usdt: text(n.feesUsdt), dividend_nadi: text(n.dividendNadi), dividend_usdt: text(n.dividendUsdt) },
      ...{ bonus_paid: text(n.bonusPaid), weight_total: text(n.weightTotal), holders: n.holders },
    },
    nodeLegs: legs(rewards.nodeLegs.get(epoch)),
    lines: (rewards.interestLines.get(epoch) ?? []).map((l) => ({ position_id: l.positionId, user_id: l.userId, amount: text(l.amount) })),
    claimable: Object.fromEntries([...rewards.claimable].sort(([a], [b]) => a - b).map(([id, c]) => [id, text(c)])),
    positions: [...rewards.positions]
      .sort((a, b) => a.id - b.id)
      .map((x) => ({
        ...{ id: x.id, status: x.status, interest_total: text(x.interestTotal) },
        redeemed_at: x.releasedEpoch !== null ? inEpoch(x.releasedEpoch + 1, 0).toISOString() : (setup.redeemedAt.get(x.id) ?? null),
        released: x.releasedEpoch !== null,
      })),
    totals: [...rewards.products.values()].sort((a, b) => a.id - b.id).map((x) => ({ id: x.id, total: text(x.total) })),
    pledgeEpoch: p && { interest_paid: text(p.interestPaid), released: text(p.released), positions: p.positions },
    pledgeLegs: legs(rewards.pledgeLegs.get(epoch)),
    miners: Object.fromEntries(state.miners.map((m) => [m.id, m.status])),
    power: Object.fromEntries([...state.userPower].sort(([a], [b]) => a - b).map(([id, v]) => [id, text(v)])),
    log: state.powerLog.map((l) => ({ user_id: l.userId, type: l.type, miner_id: l.minerId, before: text(l.before), after: text(l.after), epoch: l.epoch })),
    results: (state.results.get(epoch) ?? []).map((r) => ({
      user_id: r.userId,
      other_power: text(r.otherPower),
      income: text(r.deviceIncome + r.destroyIncome + r.powerIncome),
    })),
  };
}

/** What the users were paid adds up to what the pools and the fees accounts gave, and the summary says the same. */
function expectSumsAgree(seen: Awaited<ReturnType<typeof observed>>, settlement: EpochSettlement) {
  const sum = (rows: unknown[], key: string) => rows.reduce<bigint>((s, r) => s + BigInt(String((r as Record<string, unknown>)[key])), 0n);
  const legSum = (legs: Record<string, string>, suffix: string) =>
    Object.entries(legs)
      .filter(([k]) => k.endsWith(suffix))
      .reduce((s, [, v]) => s + BigInt(v), 0n);
  const { node, pledge } = settlement;
  expect(sum(seen.earnings, 'mining_income')).toBe(node.bonus);
  expect(sum(seen.earnings, 'dividend_nadi')).toBe(node.dividendNadi);
  expect(sum(seen.earnings, 'dividend_usdt')).toBe(node.dividendUsdt);
  expect(legSum(seen.nodeLegs, ':node_mining_income:NADI')).toBe(node.bonus);
  expect(legSum(seen.nodeLegs, ':node_fee_dividend:NADI')).toBe(node.dividendNadi);
  expect(legSum(seen.nodeLegs, ':node_fee_dividend:USDT')).toBe(node.dividendUsdt);
  expect(node.bonus).toBeLessThanOrEqual(node.payable);
  expect(sum(seen.lines, 'amount')).toBe(pledge.paid);
  expect(legSum(seen.pledgeLegs, ':release_pledge_income:NADI')).toBe(pledge.released);
  expect(pledge.paid).toBeLessThanOrEqual(pledge.payable);
}

describe('node and savings settlement against the reference model', () => {
  it('agrees on every balance, earning, interest line, position, miner and leg; sums match what was paid; a second run pays nothing', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        await inRolledBackTransaction(database.db, async (tx) => {
          const setup = await setUp(tx, s);
          for (let epoch = 0; epoch < s.epochs; epoch += 1) {
            const params = await paramsAt(tx, settings, epoch);
            const deps = { db: tx, settings, now: () => inEpoch(epoch + 1, 5), chunkUsers: s.chunkUsers };
            const outcome = await settleEpoch(deps, epoch);
            if (outcome.status !== 'settled') throw new Error(`epoch ${epoch} was settled already`);
            modelSettle(setup.state, epoch, params, price);
            modelPledgeSettle(setup.state, setup.rewards, epoch);
            modelNodeSettle(setup.state, setup.rewards, epoch, params.nodeDividendBps);
            const seen = await observed(tx, setup.userIds, epoch);
            expect(seen, `epoch ${epoch}`).toEqual(expected(setup, epoch));
            expectSumsAgree(seen, outcome.settlement);
            // Settled again, by the same call as the job's: nothing is paid or written twice.
            expect(await settleEpoch(deps, epoch)).toEqual({ status: 'already' });
            expect(await observed(tx, setup.userIds, epoch)).toEqual(seen);
          }
          expect((await auditLedgerIn(tx)).problems).toEqual([]);
          return null;
        });
      }),
      { numRuns: Number(process.env.SETTLE_RUNS ?? 20) },
    );
  }, 240_000);
});

// ─── The promises a user sees, one by one ───────────────────────────────────────────────────

const settleAt = (tx: Tx, epoch: number) => settleEpoch({ db: tx, settings, now: () => inEpoch(epoch + 1, 5) }, epoch);

async function fundOf(tx: Tx, userId: number, asset: ModelAsset): Promise<bigint> {
  const row = rowsOf<{ a: string }>(
    await tx.execute(sql`select available::text as a from ledger_accounts where user_id = ${userId} and kind = 'fund' and asset = ${asset}`),
  )[0];
  return BigInt(row?.a ?? '0');
}

/** A clean slate inside the test's transaction: the genesis, no miners, holdings or positions. */
async function cleanSlate(tx: Tx): Promise<void> {
  await setSetting(tx, 'mining_genesis', genesis.toISOString());
  await setSetting(tx, 'nadi_reference_price', toDecimalString(price));
  await tx.execute(sql`delete from user_nodes`);
  await tx.execute(sql`delete from pledge_positions`);
}

describe('what a node holder gets', () => {
  it('the highest machine_rate on their mining income, and half the fees by weight, per node', async () => {
    await inRolledBackTransaction(database.db, async (tx) => {
      await cleanSlate(tx);
      const [small, big] = (await createUsers(tx, 2)) as [number, number];
      const t1 = await insertNodeTier(tx, { levelId: 901, giftPower: 5_000n, machineRateBps: 200, withdrawRate: 1 });
      const t5 = await insertNodeTier(tx, { levelId: 905, giftPower: 5_000n, machineRateBps: 1_000, withdrawRate: 60 });
      const first = await insertHolding(tx, { userId: small, tierId: t1, giftPower: 5_000n, createdAt: inEpoch(0, 1_000), epoch: 0 });
      const second = await insertHolding(tx, { userId: small, tierId: t1, giftPower: 5_000n, createdAt: inEpoch(0, 2_000), epoch: 0 });
      const t5Node = await insertHolding(tx, { userId: big, tierId: t5, giftPower: 5_000n, createdAt: inEpoch(0, 3_000), epoch: 0 });
      // A node bought after the epoch ended earns nothing for it.
      await insertHolding(tx, { userId: small, tierId: t5, giftPower: 5_000n, createdAt: inEpoch(1, 0), epoch: 1 });
      const feesBefore = await systemBalance(tx, 'fees', 'USDT');
      await creditFee(tx, 'USDT', 1_000n * unit, inEpoch(0, 60_000));
      await creditFee(tx, 'USDT', 7n * unit, inEpoch(1, 0));

      const outcome = await settleAt(tx, 0);
      if (outcome.status !== 'settled') throw new Error('not settled');
      // Equal power (the T1 holder's two nodes against one T5): the T1 holder mined twice as much.
      const income = rowsOf<{ user_id: number; income: string }>(
        await tx.execute(
          sql`select user_id, (device_income + destroy_income + power_income)::text as income from mining_results where epoch = 0 order by user_id`,
        ),
      ).map((r) => BigInt(r.income));
      const [smallIncome, bigIncome] = income as [bigint, bigint];
      const [smallBonus, bigBonus] = [(smallIncome * 200n) / 10_000n, (bigIncome * 1_000n) / 10_000n];
      // 500 USDT over weights 2 and 60.
      const [smallDividend, bigDividend] = [(500n * unit * 2n) / 62n, (500n * unit * 60n) / 62n];
      expect(outcome.settlement.node).toMatchObject({
        ...{ feesUsdt: 1_000n * unit, bonus: smallBonus + bigBonus },
        ...{ dividendUsdt: smallDividend + bigDividend, dividendNadi: 0n, holders: 2 },
      });
      expect(await fundOf(tx, small, 'USDT')).toBe(smallDividend);
      expect(await fundOf(tx, big, 'USDT')).toBe(bigDividend);
      expect(await fundOf(tx, big, 'NADI')).toBe((bigIncome * 2_500n) / 10_000n + bigBonus);
      const earnings = rowsOf<{ holding_id: number; mining_income: string; dividend_usdt: string }>(
        await tx.execute(sql`select holding_id::int, mining_income::text, dividend_usdt::text from node_earnings where epoch = 0 order by holding_id`),
      );
      // The T1 holder's two nodes share equally, the odd unit to the older one.
      const older = (x: bigint) => String(x - x / 2n);
      const newer = (x: bigint) => String(x / 2n);
      expect(earnings).toEqual([
        { holding_id: first.id, mining_income: older(smallBonus), dividend_usdt: older(smallDividend) },
        { holding_id: second.id, mining_income: newer(smallBonus), dividend_usdt: newer(smallDividend) },
        { holding_id: t5Node.id, mining_income: String(bigBonus), dividend_usdt: String(bigDividend) },
      ]);
      // The fees account received 1,007 USDT and paid the two dividends: the 7 of the next epoch, the
      // other half and the split's dust stay.
      const kept = 1_007n * unit - smallDividend - bigDividend;
      expect(await systemBalance(tx, 'fees', 'USDT')).toBe(feesBefore + kept);
      expect(kept).toBeGreaterThan(507n * unit);
      return null;
    });
  });
});

describe('what a saver gets', () => {
  it('interest each epoch it was pledged for all of, the principal back at a locked term’s end, power withdrawn', async () => {
    await inRolledBackTransaction(database.db, async (tx) => {
      await cleanSlate(tx);
      const [saver] = (await createUsers(tx, 1)) as [number];
      const locked = await insertPledgeProduct(tx, { kind: 'locked', termEpochs: 2, dayRatePpm: 600, epochBudget: null }, genesis);
      const flexible = await insertPledgeProduct(tx, { kind: 'flexible', termEpochs: 0, dayRatePpm: 300, epochBudget: null }, genesis);
      const amount = 1_000n * unit;
      // Joined in epoch 0: earns in epochs 1 and 2, released at the settlement of epoch 2.
      const term = await insertPosition(tx, {
        userId: saver,
        productId: locked,
        amount,
        dayRatePpm: 600,
        startEpoch: 1,
        endEpoch: 2,
        createdAt: inEpoch(0),
        redeemedAt: null,
      });
      // Redeemed by its owner early in epoch 2, before epoch 1 was settled: it still earns epoch 1.
      const flex = await insertPosition(tx, {
        ...{ userId: saver, productId: flexible, amount, dayRatePpm: 300, startEpoch: 1, endEpoch: null },
        ...{ createdAt: inEpoch(0), redeemedAt: inEpoch(2, 2_000) },
      });
      await settlePledgedPrincipal(tx);
      const powerBefore = rowsOf<{ p: string }>(await tx.execute(sql`select power::text as p from user_power where user_id = ${saver}`))[0]?.p;

      for (const epoch of [0, 1, 2]) expect((await settleAt(tx, epoch)).status).toBe('settled');
      const lines = rowsOf<{ epoch: number; position_id: number; amount: string }>(
        await tx.execute(sql`select epoch, position_id::int, amount::text from pledge_interest_lines where user_id = ${saver} order by epoch, position_id`),
      );
      const day = (ppm: bigint) => String((amount * ppm) / 1_000_000n);
      expect(lines).toEqual([
        { epoch: 1, position_id: term.id, amount: day(600n) },
        { epoch: 1, position_id: flex.id, amount: day(300n) },
        { epoch: 2, position_id: term.id, amount: day(600n) },
      ]);
      const claimable = rowsOf<{ c: string }>(await tx.execute(sql`select claimable::text as c from pledge_interest where user_id = ${saver}`))[0]?.c;
      expect(claimable).toBe(String(((amount * 600n) / 1_000_000n) * 2n + (amount * 300n) / 1_000_000n));
      expect(await systemBalance(tx, 'savings_interest')).toBe(BigInt(claimable ?? '0'));
      // The locked principal is back in the fund account, the position redeemed at the end of epoch 2.
      expect(await fundOf(tx, saver, 'NADI')).toBeGreaterThanOrEqual(amount);
      const position = rowsOf<{ redeemed_at: unknown }>(
        await tx.execute(sql`select status, redeemed_at, interest_total::text from pledge_positions where id = ${term.id}`),
      )[0];
      expect(position).toMatchObject({ status: 'redeemed', interest_total: String(((amount * 600n) / 1_000_000n) * 2n) });
      expect(new Date(String(position?.redeemed_at)).toISOString()).toBe(inEpoch(3, 0).toISOString());
      const log = rowsOf(await tx.execute(sql`select type, before::text, after::text, epoch from power_log where miner_id = ${term.minerId} order by id`));
      expect(log).toEqual([{ type: 'withdraw', before: powerBefore, after: String(BigInt(powerBefore ?? '0') - term.power), epoch: 2 }]);
      expect(await systemBalance(tx, 'pledged')).toBe(0n);
      return null;
    });
  });
});

describe('one transaction', () => {
  it('leaves the mining part unsettled too when the node part fails, and settles all of it once the cause is gone', async () => {
    await inRolledBackTransaction(database.db, async (tx) => {
      await cleanSlate(tx);
      const [holder] = (await createUsers(tx, 1)) as [number];
      const tier = await insertNodeTier(tx, { levelId: 903, giftPower: 1_000n, machineRateBps: 600, withdrawRate: 13 });
      await insertHolding(tx, { userId: holder, tierId: tier, giftPower: 1_000n, createdAt: inEpoch(0), epoch: 0 });
      // The holder's fund USDT account goes missing: the node part cannot pay its dividend (NL003).
      await creditFee(tx, 'USDT', unit, inEpoch(0, 5_000));
      await tx.execute(sql`update ledger_accounts set kind = 'hidden' where user_id = ${holder} and kind = 'fund' and asset = 'USDT'`);
      const failure = await tx.transaction((sp) => settleEpoch({ db: sp, settings, now: () => inEpoch(1, 5) }, 0)).catch((error: unknown) => error);
      expect(pgCode(failure)).toBe('NL003');
      const left = rowsOf(
        await tx.execute(sql`select (select count(*)::int from mining_epochs) as mining, (select count(*)::int from mining_results) as results,
                                    (select count(*)::int from ledger_flows where idempotency_key like '%:epoch:0') as flows`),
      )[0];
      expect(left).toEqual({ mining: 0, results: 0, flows: 0 });

      await tx.execute(sql`update ledger_accounts set kind = 'fund' where user_id = ${holder} and kind = 'hidden'`);
      expect((await settleAt(tx, 0)).status).toBe('settled');
      const flows = rowsOf<{ k: string }>(
        await tx.execute(sql`select idempotency_key as k from ledger_flows where idempotency_key like '%:epoch:0' order by id`),
      );
      expect(flows.map((f) => f.k)).toEqual(['mining:epoch:0', 'node:epoch:0']);
      expect((await auditLedgerIn(tx)).problems).toEqual([]);
      return null;
    });
  });
});

describe('the interest update', () => {
  it('stays on its page (HOT: no index entries), for every position that earned', async () => {
    const hot = await inRolledBackTransaction(database.db, async (tx) => {
      await cleanSlate(tx);
      const users = await createUsers(tx, 200);
      const seeded = await seedSyntheticRewards(tx, {
        ...{ first: users[0] as number, last: users.at(-1) as number, holders: 0, positions: 600 },
        ...{ epoch: 0, createdAt: inEpoch(0) },
      });
      const stats = async () =>
        rowsOf<{ upd: string; hot: string }>(
          await tx.execute(sql`select n_tup_upd::text as upd, n_tup_hot_upd::text as hot from pg_stat_xact_user_tables where relname = 'pledge_positions'`),
        )[0] ?? { upd: '0', hot: '0' };
      const before = await stats();
      const outcome = await settleAt(tx, 0);
      const after = await stats();
      if (outcome.status !== 'settled') throw new Error('not settled');
      // The locked positions ending at epoch 0 are updated again when released (status is indexed).
      const { positions, releases } = outcome.settlement.pledge;
      return { seeded: seeded.positions, positions, updated: Number(after.upd) - Number(before.upd), hot: Number(after.hot) - Number(before.hot), releases };
    });
    expect(hot.positions).toBe(hot.seeded);
    expect(hot.updated).toBe(hot.positions + hot.releases);
    expect(hot.hot).toBeGreaterThanOrEqual(hot.positions - hot.releases);
  });
});
