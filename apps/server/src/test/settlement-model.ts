// The settlement's reference model, for the tests only: the same rules as `mining_settle_epoch`,
// `pledge_settle_epoch` and `node_settle_epoch` written the plain way (loops, Maps, one user, miner,
// node and position at a time) with the @nadi/economy formulas, and vesting computed from every
// tranche's schedule (vestingReleaseAt) instead of the incremental rate the SQL keeps. The tests
// settle random populations both ways and compare.
import { cappedByBudget, emissionOf, payableOf, shareOf, splitVesting, uptimeCounts, vestingReleaseAt, type MiningParams } from '@nadi/economy/economy';
import { jointShareOf, nodeDividendOf, nodeMiningIncome, proRata, savingsInterestOf, splitByWeight, splitExactly } from '@nadi/economy/rewards';

/** Node and pledge miners count like a trial (other power) while running; the mining part never changes them. */
export type ModelKind = 'trial' | 'destroy' | 'device' | 'node' | 'pledge';

export interface ModelMiner {
  id: number;
  userId: number;
  kind: ModelKind;
  status: 1 | 2 | 3 | 4;
  power: bigint;
  startsEpoch: number;
  endsEpoch: number | null;
  /** Destroy miners count from the epoch they were created in; devices are judged from the epoch first seen. */
  sinceEpoch: number;
  budget: bigint;
  released: bigint;
  deviceId: number | null;
}

export interface ModelResult {
  userId: number;
  devicePower: bigint;
  destroyPower: bigint;
  otherPower: bigint;
  deviceIncome: bigint;
  destroyIncome: bigint;
  powerIncome: bigint;
  reduction: bigint;
  immediate: bigint;
  locked: bigint;
  released: bigint;
}

export interface ModelEpoch {
  epoch: number;
  emission: bigint;
  payable: bigint;
  networkPower: bigint;
  paid: bigint;
  released: bigint;
  reduction: bigint;
  users: number;
}

export type IncomeType = 'device_income' | 'destroy_profit' | 'power_income';

export interface ModelState {
  pool: bigint;
  vestingAccount: bigint;
  fund: Map<number, bigint>;
  userPower: Map<number, bigint>;
  miners: ModelMiner[];
  /** Beats per `${deviceId}:${epoch}`. */
  uptime: Map<string, number>;
  vesting: Map<number, { locked: bigint; claimable: bigint; rate: bigint }>;
  tranches: { epoch: number; userId: number; locked: bigint; vestingEpochs: number }[];
  results: Map<number, ModelResult[]>;
  /** Immediate legs per epoch: `${userId}:${type}` → amount. */
  legs: Map<number, Map<string, bigint>>;
  powerLog: { userId: number; type: string; minerId: number; before: bigint; after: bigint; epoch: number }[];
  epochs: ModelEpoch[];
}

const bps = 10_000n;

/** Settles `epoch` on the model with the parameters in force and the price at its end. */
export function modelSettle(state: ModelState, epoch: number, params: MiningParams, price: bigint): void {
  const emission = emissionOf(epoch, params);
  const payable = payableOf(emission, state.pool);

  // Miners considered, and whether each counts.
  const considered: { miner: ModelMiner; counts: boolean }[] = [];
  for (const miner of state.miners) {
    if (miner.kind === 'trial' && miner.status === 1 && miner.startsEpoch <= epoch) {
      considered.push({ miner, counts: epoch <= (miner.endsEpoch ?? epoch) });
    } else if (miner.kind === 'destroy' && miner.status === 3 && miner.sinceEpoch <= epoch) {
      considered.push({ miner, counts: true });
    } else if (miner.kind === 'device' && (miner.status === 2 || miner.status === 3) && miner.sinceEpoch <= epoch) {
      considered.push({ miner, counts: uptimeCounts(state.uptime.get(`${miner.deviceId}:${epoch}`) ?? 0, params) });
    } else if ((miner.kind === 'node' || miner.kind === 'pledge') && miner.status === 3 && miner.sinceEpoch <= epoch) {
      considered.push({ miner, counts: true });
    }
  }
  let network = 0n;
  for (const c of considered) if (c.counts) network += c.miner.power;

  // Power and income per user and source.
  const userIds = [...new Set(considered.map((c) => c.miner.userId))].sort((a, b) => a - b);
  const results = new Map<number, ModelResult>();
  const destroyOutcome = new Map<number, { used: bigint; ends: boolean }>();
  for (const userId of userIds) {
    const mine = considered.filter((c) => c.miner.userId === userId && c.counts).map((c) => c.miner);
    const sum = (kind: ModelKind) => mine.filter((m) => m.kind === kind).reduce((s, m) => s + m.power, 0n);
    const r: ModelResult = {
      userId,
      devicePower: sum('device'),
      destroyPower: sum('destroy'),
      otherPower: sum('trial') + sum('node') + sum('pledge'),
      deviceIncome: 0n,
      destroyIncome: 0n,
      powerIncome: 0n,
      reduction: 0n,
      immediate: 0n,
      locked: 0n,
      released: 0n,
    };
    r.deviceIncome = shareOf(payable, r.devicePower, network);
    r.powerIncome = shareOf(payable, r.otherPower, network);
    const destroyGross = shareOf(payable, r.destroyPower, network);
    // The destroy income split over the user's destroy miners by power, largest remainder first.
    const destroyers = mine.filter((m) => m.kind === 'destroy');
    if (r.destroyPower > 0n) {
      const parts = destroyers.map((m) => ({
        m,
        income: (destroyGross * m.power) / r.destroyPower,
        frac: (destroyGross * m.power) % r.destroyPower,
      }));
      let left = destroyGross - parts.reduce((s, p) => s + p.income, 0n);
      for (const p of [...parts].sort((a, b) => (a.frac === b.frac ? a.m.id - b.m.id : a.frac > b.frac ? -1 : 1))) {
        if (left <= 0n) break;
        p.income += 1n;
        left -= 1n;
      }
      for (const p of parts) {
        const capped = cappedByBudget(p.income, p.m.budget - p.m.released, price);
        r.destroyIncome += capped.paid;
        r.reduction += capped.reduction;
        destroyOutcome.set(p.m.id, { used: capped.usedUsdt, ends: p.m.budget - p.m.released - capped.usedUsdt <= 0n });
      }
    }
    const split = splitVesting(r.deviceIncome + r.destroyIncome + r.powerIncome, params);
    r.immediate = split.immediate;
    r.locked = split.locked;
    results.set(userId, r);
  }

  // Vesting releases from every tranche's schedule.
  const released = new Map<number, bigint>();
  for (const t of state.tranches) {
    const k = epoch - t.epoch;
    if (k >= 1 && k <= t.vestingEpochs)
      released.set(t.userId, (released.get(t.userId) ?? 0n) + vestingReleaseAt(t.locked, k, { vestingEpochs: t.vestingEpochs }));
  }
  for (const [userId, amount] of released) {
    if (amount === 0n) continue;
    const r = results.get(userId) ?? emptyResult(userId);
    r.released = amount;
    results.set(userId, r);
  }

  // Ledger: immediate legs per source, the rounding units to the first source with income.
  const legs = new Map<string, bigint>();
  let paid = 0n;
  let lockedTotal = 0n;
  for (const r of results.values()) {
    const sources: [IncomeType, bigint][] = [
      ['device_income', r.deviceIncome],
      ['destroy_profit', r.destroyIncome],
      ['power_income', r.powerIncome],
    ];
    const amounts = sources.map(([, amount]) => (amount * params.immediateBps) / bps);
    const first = sources.findIndex(([, amount]) => amount > 0n);
    if (first >= 0) amounts[first] = (amounts[first] ?? 0n) + r.immediate - amounts.reduce((s, a) => s + a, 0n);
    sources.forEach(([type], i) => {
      const amount = amounts[i] ?? 0n;
      if (amount > 0n) legs.set(`${r.userId}:${type}`, amount);
    });
    state.fund.set(r.userId, (state.fund.get(r.userId) ?? 0n) + r.immediate);
    paid += r.immediate + r.locked;
    lockedTotal += r.locked;
  }
  state.pool -= paid;
  state.vestingAccount += lockedTotal;
  state.legs.set(epoch, legs);

  // Miner statuses, power log and power, user by user, miner by miner.
  const changes: { miner: ModelMiner; status: 1 | 2 | 3 | 4; type: string; delta: bigint }[] = [];
  for (const { miner, counts } of considered) {
    const outcome = destroyOutcome.get(miner.id);
    if (outcome) miner.released += outcome.used;
    if (miner.kind === 'trial' && (miner.endsEpoch ?? epoch) <= epoch) changes.push({ miner, status: 2, type: 'expire', delta: -miner.power });
    if (miner.kind === 'destroy' && outcome?.ends) changes.push({ miner, status: 2, type: 'expire', delta: -miner.power });
    // Paused only after a whole epoch below the uptime (not in the epoch it was first seen).
    if (miner.kind === 'device' && miner.status === 3 && !counts && miner.sinceEpoch < epoch)
      changes.push({ miner, status: 2, type: 'freeze', delta: -miner.power });
    if (miner.kind === 'device' && miner.status === 2 && counts) changes.push({ miner, status: 3, type: 'unlock', delta: miner.power });
  }
  changes.sort((a, b) => a.miner.userId - b.miner.userId || a.miner.id - b.miner.id);
  for (const c of changes) {
    c.miner.status = c.status;
    const before = state.userPower.get(c.miner.userId) ?? 0n;
    state.userPower.set(c.miner.userId, before + c.delta);
    state.powerLog.push({ userId: c.miner.userId, type: c.type, minerId: c.miner.id, before, after: before + c.delta, epoch });
  }

  // Vesting state: locked → claimable by the release, the new tranche added.
  for (const r of results.values()) {
    if (r.locked > 0n) state.tranches.push({ epoch, userId: r.userId, locked: r.locked, vestingEpochs: params.vestingEpochs });
    const v = state.vesting.get(r.userId);
    if (!v && r.locked === 0n) continue;
    const row = v ?? { locked: 0n, claimable: 0n, rate: 0n };
    row.locked += r.locked - r.released;
    row.claimable += r.released;
    state.vesting.set(r.userId, row);
  }
  for (const [userId, row] of state.vesting) {
    row.rate = state.tranches
      .filter((t) => t.userId === userId && t.epoch + t.vestingEpochs > epoch)
      .reduce((s, t) => s + t.locked / BigInt(t.vestingEpochs), 0n);
  }

  const rows = [...results.values()].filter((r) => r.devicePower + r.destroyPower + r.otherPower > 0n || r.released > 0n).sort((a, b) => a.userId - b.userId);
  state.results.set(epoch, rows);
  state.epochs.push({
    epoch,
    emission,
    payable,
    networkPower: network,
    paid,
    released: rows.reduce((s, r) => s + r.released, 0n),
    reduction: rows.reduce((s, r) => s + r.reduction, 0n),
    users: rows.filter((r) => r.devicePower + r.destroyPower + r.otherPower > 0n).length,
  });
}

function emptyResult(userId: number): ModelResult {
  return {
    userId,
    devicePower: 0n,
    destroyPower: 0n,
    otherPower: 0n,
    deviceIncome: 0n,
    destroyIncome: 0n,
    powerIncome: 0n,
    reduction: 0n,
    immediate: 0n,
    locked: 0n,
    released: 0n,
  };
}

// ─── Nodes and savings (pledge_settle_epoch, node_settle_epoch) ─────────────────────────────────

/** A node held from `epoch` on (bought `at` ms into it): a holder's oldest node takes the remainders. */
export interface ModelHolding {
  id: number;
  userId: number;
  epoch: number;
  at: number;
  rateBps: bigint;
  weight: bigint;
}

export interface ModelProduct {
  id: number;
  kind: 'flexible' | 'locked' | 'joint' | 'node';
  epochBudget: bigint | null;
  total: bigint;
}

export interface ModelPosition {
  id: number;
  userId: number;
  productId: number;
  amount: bigint;
  dayRatePpm: bigint;
  startEpoch: number;
  endEpoch: number | null;
  status: 'active' | 'redeemed';
  /** Redeemed by its owner during this epoch: it still earns every epoch that ended before. */
  redeemedEpoch: number | null;
  /** Released by the settlement of this epoch (its last). */
  releasedEpoch: number | null;
  minerId: number | null;
  interestTotal: bigint;
}

export interface ModelNodeEarning {
  holdingId: number;
  userId: number;
  miningIncome: bigint;
  dividendNadi: bigint;
  dividendUsdt: bigint;
}

export interface ModelNodeEpoch {
  epoch: number;
  feesNadi: bigint;
  feesUsdt: bigint;
  dividendNadi: bigint;
  dividendUsdt: bigint;
  bonusPaid: bigint;
  weightTotal: bigint;
  holders: number;
}

export interface ModelPledgeEpoch {
  epoch: number;
  interestPaid: bigint;
  released: bigint;
  positions: number;
}

export type ModelAsset = 'NADI' | 'USDT';

/** What nodes and savings add to the model's state (NADI fund balances stay in ModelState.fund). */
export interface RewardsState {
  nodePool: bigint;
  savingsPool: bigint;
  savingsInterest: bigint;
  pledged: bigint;
  fees: Record<ModelAsset, bigint>;
  /** What the fees accounts were credited during each epoch. */
  feeInflow: Map<number, Record<ModelAsset, bigint>>;
  fundUsdt: Map<number, bigint>;
  holdings: ModelHolding[];
  products: Map<number, ModelProduct>;
  positions: ModelPosition[];
  claimable: Map<number, bigint>;
  nodeEarnings: Map<number, ModelNodeEarning[]>;
  interestLines: Map<number, { positionId: number; userId: number; amount: bigint }[]>;
  /** Legs to users per epoch: `${userId}:${type}:${asset}` → amount. */
  nodeLegs: Map<number, Map<string, bigint>>;
  pledgeLegs: Map<number, Map<string, bigint>>;
  nodeEpochs: ModelNodeEpoch[];
  pledgeEpochs: ModelPledgeEpoch[];
}

const add = (map: Map<number, bigint>, key: number, amount: bigint) => map.set(key, (map.get(key) ?? 0n) + amount);
const sumOf = (xs: readonly bigint[]) => xs.reduce((s, x) => s + x, 0n);

/** Settles the savings of `epoch` on the model, after its mining part. */
export function modelPledgeSettle(state: ModelState, rewards: RewardsState, epoch: number): void {
  // Interest: positions active over the whole epoch (a redemption after it ended does not forfeit it).
  const earning = rewards.positions
    .filter((p) => p.startEpoch <= epoch && (p.endEpoch === null || p.endEpoch >= epoch))
    .filter((p) => p.status === 'active' || (p.redeemedEpoch ?? -1) > epoch)
    .sort((a, b) => a.id - b.id);
  const jointTotals = new Map<number, bigint>();
  for (const p of earning) if (rewards.products.get(p.productId)?.kind === 'joint') add(jointTotals, p.productId, p.amount);
  const wanted = earning.map((p) => {
    const product = rewards.products.get(p.productId);
    if (product?.kind === 'joint') return jointShareOf(product.epochBudget ?? 0n, p.amount, jointTotals.get(p.productId) ?? 0n);
    return savingsInterestOf(p.amount, p.dayRatePpm);
  });
  const paid = proRata(wanted, rewards.savingsPool > 0n ? rewards.savingsPool : 0n);
  const lines: { positionId: number; userId: number; amount: bigint }[] = [];
  earning.forEach((p, i) => {
    const amount = paid[i] ?? 0n;
    if (amount <= 0n) return;
    p.interestTotal += amount;
    add(rewards.claimable, p.userId, amount);
    lines.push({ positionId: p.id, userId: p.userId, amount });
  });
  const interest = sumOf(paid);
  rewards.savingsPool -= interest;
  rewards.savingsInterest += interest;
  rewards.interestLines.set(epoch, lines);

  // Releases at the last epoch: principal back to the fund account, the position's miner ends.
  const legs = new Map<string, bigint>();
  const releasing = rewards.positions.filter((p) => p.status === 'active' && p.endEpoch !== null && p.endEpoch <= epoch);
  const ended: ModelMiner[] = [];
  for (const p of releasing) {
    p.status = 'redeemed';
    p.releasedEpoch = epoch;
    const product = rewards.products.get(p.productId);
    if (product) product.total -= p.amount;
    rewards.pledged -= p.amount;
    state.fund.set(p.userId, (state.fund.get(p.userId) ?? 0n) + p.amount);
    const key = `${p.userId}:release_pledge_income:NADI`;
    legs.set(key, (legs.get(key) ?? 0n) + p.amount);
    const miner = state.miners.find((m) => m.id === p.minerId);
    if (miner?.status === 3) ended.push(miner);
  }
  ended.sort((a, b) => a.userId - b.userId || a.id - b.id);
  for (const miner of ended) {
    miner.status = 2;
    const before = state.userPower.get(miner.userId) ?? 0n;
    state.userPower.set(miner.userId, before - miner.power);
    state.powerLog.push({ userId: miner.userId, type: 'withdraw', minerId: miner.id, before, after: before - miner.power, epoch });
  }
  rewards.pledgeLegs.set(epoch, legs);
  rewards.pledgeEpochs.push({ epoch, interestPaid: interest, released: sumOf(releasing.map((p) => p.amount)), positions: earning.length });
}

/** Settles the node rewards of `epoch` on the model, after its mining part (it reads the epoch's results). */
export function modelNodeSettle(state: ModelState, rewards: RewardsState, epoch: number, dividendBps: bigint): void {
  const held = rewards.holdings.filter((h) => h.epoch <= epoch).sort((a, b) => a.epoch - b.epoch || a.at - b.at || a.id - b.id);
  const userIds = [...new Set(held.map((h) => h.userId))].sort((a, b) => a - b);
  const nodesOf = new Map(userIds.map((id) => [id, held.filter((h) => h.userId === id)]));
  const results = state.results.get(epoch) ?? [];
  const wanted = userIds.map((id) => {
    const r = results.find((x) => x.userId === id);
    const income = r ? r.deviceIncome + r.destroyIncome + r.powerIncome : 0n;
    return nodeMiningIncome(
      income,
      (nodesOf.get(id) ?? []).map((h) => h.rateBps),
    );
  });
  const bonus = proRata(wanted, rewards.nodePool > 0n ? rewards.nodePool : 0n);
  const weights = userIds.map((id) => sumOf((nodesOf.get(id) ?? []).map((h) => h.weight)));
  const weightTotal = sumOf(weights);
  const inflow = rewards.feeInflow.get(epoch) ?? { NADI: 0n, USDT: 0n };
  const dividend = (asset: ModelAsset) => {
    if (weightTotal <= 0n) return userIds.map(() => 0n);
    const owed = nodeDividendOf(inflow[asset], dividendBps);
    const held = rewards.fees[asset] > 0n ? rewards.fees[asset] : 0n;
    return splitByWeight(owed < held ? owed : held, weights);
  };
  const [nadi, usdt] = [dividend('NADI'), dividend('USDT')];

  const earnings: ModelNodeEarning[] = [];
  const legs = new Map<string, bigint>();
  userIds.forEach((userId, i) => {
    const [b, dn, du] = [bonus[i] ?? 0n, nadi[i] ?? 0n, usdt[i] ?? 0n];
    if (b + dn + du === 0n) return;
    const nodes = nodesOf.get(userId) ?? [];
    const w = nodes.map((h) => h.weight);
    const [bs, dns, dus] = [splitExactly(b, w), splitExactly(dn, w), splitExactly(du, w)];
    nodes.forEach((h, j) => {
      const e = { holdingId: h.id, userId, miningIncome: bs[j] ?? 0n, dividendNadi: dns[j] ?? 0n, dividendUsdt: dus[j] ?? 0n };
      if (e.miningIncome + e.dividendNadi + e.dividendUsdt > 0n) earnings.push(e);
    });
    for (const [key, amount] of [
      [`${userId}:node_mining_income:NADI`, b],
      [`${userId}:node_fee_dividend:NADI`, dn],
      [`${userId}:node_fee_dividend:USDT`, du],
    ] as const) {
      if (amount > 0n) legs.set(key, amount);
    }
    state.fund.set(userId, (state.fund.get(userId) ?? 0n) + b + dn);
    add(rewards.fundUsdt, userId, du);
  });
  const [paidBonus, paidNadi, paidUsdt] = [sumOf(bonus), sumOf(nadi), sumOf(usdt)];
  rewards.nodePool -= paidBonus;
  rewards.fees.NADI -= paidNadi;
  rewards.fees.USDT -= paidUsdt;
  rewards.nodeEarnings.set(
    epoch,
    earnings.sort((a, b) => a.holdingId - b.holdingId),
  );
  rewards.nodeLegs.set(epoch, legs);
  rewards.nodeEpochs.push({
    epoch,
    feesNadi: inflow.NADI,
    feesUsdt: inflow.USDT,
    dividendNadi: paidNadi,
    dividendUsdt: paidUsdt,
    bonusPaid: paidBonus,
    weightTotal,
    holders: userIds.length,
  });
}
