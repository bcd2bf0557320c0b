// The settlement's reference model, for the tests only: the same rules as `mining_settle_epoch`
// written the plain way (loops, Maps, one user and one miner at a time) with the @nadi/economy
// formulas, and vesting computed from every tranche's schedule (vestingReleaseAt) instead of the
// incremental rate the SQL keeps. The tests settle random populations both ways and compare.
import { cappedByBudget, emissionOf, payableOf, shareOf, splitVesting, uptimeCounts, vestingReleaseAt, type MiningParams } from '@nadi/economy/economy';

export type ModelKind = 'trial' | 'destroy' | 'device';

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
      otherPower: sum('trial'),
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
