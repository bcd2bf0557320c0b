// The mining user API (docs/economy.md): overview, miners, power log, income per epoch with its
// formula inputs, vesting and claiming released income. Destroy mining is in destroy.ts.
import { emissionOf, payableOf, powerText, shareOf, uptimeBps, vestingReleaseAt, type MiningParams } from '@nadi/economy/economy';
import { toDecimalString } from '@nadi/money/money';
import type { PageQuery } from '@nadi/api/common';
import type {
  IncomeEpochItem,
  IncomeLineType,
  MinerItem,
  ListedMinerKind,
  MiningOverview,
  MiningParamsData,
  PowerLogType,
  VestingData,
  payMethods,
} from '@nadi/api/mining';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { flowLegs, readAvailable, runFlow, systemAccount, transfer, userAccount } from '../ledger/index.ts';
import { epochClock, miningGenesis, type EpochClock } from './clock.ts';
import { paramsResolver, type EconomyParams } from './params.ts';
import { quoteReferencePrice } from './reference-price.ts';
import {
  findIncome,
  listIncome,
  listMiners,
  listPowerLog,
  markClaimed,
  readIncomeTotal,
  readLastSettledEpoch,
  readNetworkPower,
  readTranches,
  readTrial,
  readUserPower,
  readVesting,
  type IncomeRow,
  type MinerRow,
} from './repo.ts';

export type MiningAppDeps = Pick<AppDeps, 'db' | 'settings' | 'now' | 'events'>;

/** A device is online when its last heartbeat is at most this many intervals old. */
export const onlineHeartbeats = 3;

export interface MiningNow {
  now: Date;
  clock: EpochClock;
  epoch: number;
  params: EconomyParams;
}

/** The clock, the current epoch and the parameters in force now. */
export async function miningNow(deps: Pick<AppDeps, 'settings' | 'now'> & { db: Db | Tx }): Promise<MiningNow> {
  const now = deps.now();
  const genesis = await miningGenesis(deps.db, now, deps.settings.epochSeconds);
  const clock = epochClock(genesis, { epochSeconds: deps.settings.epochSeconds });
  const epoch = clock.epochOf(now);
  const resolve = await paramsResolver(deps.db, deps.settings);
  return { now, clock, epoch, params: resolve.at(epoch) };
}

export function paramsData(p: MiningParams): MiningParamsData {
  return {
    epoch_seconds: p.epochSeconds,
    emission_base: toDecimalString(p.emissionBase),
    halving_epochs: p.halvingEpochs,
    immediate_bps: Number(p.immediateBps),
    vesting_epochs: p.vestingEpochs,
    destroy_power_per_usdt: powerText(p.destroyPowerPerUsdt),
    destroy_budget_multiplier: Number(p.destroyBudgetMultiplier),
    destroy_min_usdt: toDecimalString(p.destroyMinUsdt),
    trial_power: powerText(p.trialPower),
    trial_epochs: p.trialEpochs,
    uptime_min_bps: Number(p.uptimeMinBps),
    heartbeat_seconds: p.heartbeatSeconds,
    reference_window_seconds: p.referenceWindowSeconds,
  };
}

export async function getOverview(deps: MiningAppDeps, userId: number): Promise<MiningOverview> {
  const m = await miningNow(deps);
  const { db } = deps;
  const [power, networkPower, pool, incomeTotal, vesting, lastSettled, price, quota, trial] = await Promise.all([
    readUserPower(db, userId),
    readNetworkPower(db),
    readAvailable(db, systemAccount('mining_pool', 'NADI')),
    readIncomeTotal(db, userId),
    readVesting(db, userId),
    readLastSettledEpoch(db),
    quoteReferencePrice(db, m.now, m.params),
    readAvailable(db, userAccount(userId, 'destroy_quota', 'USDT')),
    readTrial(db, userId),
  ]);
  const emission = emissionOf(m.epoch, m.params);
  return {
    power: powerText(power),
    network_power: powerText(networkPower),
    estimate_today: toDecimalString(shareOf(payableOf(emission, pool), power, networkPower)),
    income_total: toDecimalString(incomeTotal),
    locked: toDecimalString(vesting.locked),
    claimable: toDecimalString(vesting.claimable),
    epoch: {
      epoch: m.epoch,
      starts_at: m.clock.startOf(m.epoch).toISOString(),
      ends_at: m.clock.endOf(m.epoch).toISOString(),
      emission: toDecimalString(emission),
    },
    last_settled_epoch: lastSettled,
    reference_price: toDecimalString(price.price),
    price_source: price.source,
    destroy_quota: toDecimalString(quota),
    trial_available: trial !== null && trial.status === 1 && (trial.endsEpoch === null || trial.endsEpoch >= m.epoch),
    params: paramsData(m.params),
  };
}

/** A miner as the contract shows it; `status` and the released/remaining budget as they are now. */
export function minerItem(row: MinerRow, m: Pick<MiningNow, 'now' | 'params'>): MinerItem {
  const isDestroy = row.kind === 'destroy';
  const device = row.device;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    base_power: powerText(row.basePower),
    gift_power: powerText(row.giftPower),
    released_power: isDestroy ? toDecimalString(row.releasedUsdt) : '0',
    remaining_power: isDestroy ? toDecimalString(row.budgetUsdt - row.releasedUsdt) : '0',
    pay_method: row.payMethod as (typeof payMethods)[number] | null,
    created_at: row.createdAt.toISOString(),
    ends_epoch: row.endsEpoch,
    device: device
      ? {
          serial: device.serial,
          model: device.model,
          online: device.lastSeenAt !== null && m.now.getTime() - device.lastSeenAt.getTime() <= onlineHeartbeats * m.params.heartbeatSeconds * 1000,
          last_seen_at: device.lastSeenAt?.toISOString() ?? null,
          uptime_bps: uptimeBps(device.beats, m.params),
        }
      : null,
    destroy:
      isDestroy && row.destroyNadi !== null && row.destroyPrice !== null && row.destroyUsdt !== null
        ? { nadi: toDecimalString(row.destroyNadi), price: toDecimalString(row.destroyPrice), usdt: toDecimalString(row.destroyUsdt) }
        : null,
  };
}

export async function getMiners(deps: MiningAppDeps, userId: number, query: PageQuery & { kind?: ListedMinerKind | undefined }) {
  const m = await miningNow(deps);
  const { rows, total } = await listMiners(deps.db, userId, query.kind, m.epoch, (query.page - 1) * query.page_size, query.page_size);
  return { list: rows.map((row) => minerItem(row, m)), total, page: query.page, page_size: query.page_size };
}

export async function getPowerLog(db: Db, userId: number, query: PageQuery & { type?: PowerLogType | undefined }) {
  const { rows, total } = await listPowerLog(db, userId, query.type, (query.page - 1) * query.page_size, query.page_size);
  const list = rows.map((r) => ({
    id: r.id,
    type: r.type,
    before: powerText(r.before),
    after: powerText(r.after),
    change: powerText(r.after - r.before),
    miner_id: r.minerId,
    created_at: r.createdAt.toISOString(),
  }));
  return { list, total, page: query.page, page_size: query.page_size };
}

function incomeItem(r: IncomeRow, p: MiningParams): IncomeEpochItem {
  const lines: [IncomeLineType, bigint][] = [
    ['device_income', r.deviceIncome],
    ['destroy_profit', r.destroyIncome],
    ['power_income', r.powerIncome],
    ['income_reduction', r.reduction],
  ];
  return {
    epoch: r.epoch,
    settled_at: r.settledAt.toISOString(),
    lines: lines.filter(([, amount]) => amount > 0n).map(([type, amount]) => ({ type, amount: toDecimalString(amount) })),
    total: toDecimalString(r.immediate + r.locked),
    immediate: toDecimalString(r.immediate),
    locked: toDecimalString(r.locked),
    released: toDecimalString(r.released),
    inputs: {
      power: powerText(r.devicePower + r.destroyPower + r.otherPower),
      device_power: powerText(r.devicePower),
      destroy_power: powerText(r.destroyPower),
      other_power: powerText(r.otherPower),
      network_power: powerText(r.networkPower),
      emission: toDecimalString(r.emission),
      payable: toDecimalString(r.payable),
      price: toDecimalString(r.price),
      immediate_bps: Number(p.immediateBps),
      vesting_epochs: p.vestingEpochs,
    },
  };
}

export async function getIncome(deps: MiningAppDeps, userId: number, query: PageQuery & { type?: IncomeLineType | undefined }) {
  const [resolve, { rows, total }] = await Promise.all([
    paramsResolver(deps.db, deps.settings),
    listIncome(deps.db, userId, query.type, (query.page - 1) * query.page_size, query.page_size),
  ]);
  return { list: rows.map((r) => incomeItem(r, resolve.at(r.epoch))), total, page: query.page, page_size: query.page_size };
}

export async function getIncomeDetail(deps: MiningAppDeps, userId: number, epoch: number): Promise<IncomeEpochItem> {
  const [resolve, row] = await Promise.all([paramsResolver(deps.db, deps.settings), findIncome(deps.db, userId, epoch)]);
  if (!row) throw new AppError('NOT_FOUND');
  return incomeItem(row, resolve.at(epoch));
}

/**
 * What each coming settlement releases to the user: the tranche of epoch n (locked L, vesting over
 * the V epochs in force at n) releases vestingReleaseAt(L, m − n) at the settlement of epoch m, so
 * after the settlement of `lastSettled` the rest comes at lastSettled + 1 … n + V.
 */
export function releaseSchedule(tranches: { epoch: number; locked: bigint }[], lastSettled: number, vestingEpochsAt: (epoch: number) => number) {
  const byEpoch = new Map<number, bigint>();
  let last = lastSettled;
  for (const t of tranches) {
    const params = { vestingEpochs: vestingEpochsAt(t.epoch) };
    for (let k = lastSettled - t.epoch + 1; k <= params.vestingEpochs; k += 1) {
      const amount = vestingReleaseAt(t.locked, k, params);
      if (amount === 0n) continue;
      const epoch = t.epoch + k;
      byEpoch.set(epoch, (byEpoch.get(epoch) ?? 0n) + amount);
      if (epoch > last) last = epoch;
    }
  }
  const schedule: { epoch: number; amount: string }[] = [];
  for (let epoch = lastSettled + 1; epoch <= last; epoch += 1) schedule.push({ epoch, amount: toDecimalString(byEpoch.get(epoch) ?? 0n) });
  return schedule;
}

export async function getVesting(deps: MiningAppDeps, userId: number): Promise<VestingData> {
  const [vesting, lastSettled, resolve] = await Promise.all([
    readVesting(deps.db, userId),
    readLastSettledEpoch(deps.db),
    paramsResolver(deps.db, deps.settings),
  ]);
  const tranches = lastSettled === null ? [] : await readTranches(deps.db, userId, lastSettled - resolve.vestingEpochsMax + 1, lastSettled);
  return {
    locked: toDecimalString(vesting.locked),
    claimable: toDecimalString(vesting.claimable),
    claimed: toDecimalString(vesting.claimed),
    schedule: lastSettled === null ? [] : releaseSchedule(tranches, lastSettled, (epoch) => resolve.at(epoch).vestingEpochs),
  };
}

/**
 * Claims everything released: one flow vesting → the user's fund account (locked_income_release) and
 * the user's vesting row (claimable → claimed) in one transaction under the row's lock, so parallel
 * claims pay once. Nothing released: NOTHING_TO_CLAIM.
 */
export async function claimReleased(deps: MiningAppDeps, userId: number, key: string): Promise<{ amount: string; balance: string }> {
  let claimable = 0n;
  const { flowId } = await runFlow(deps.db, {
    idempotencyKey: key,
    userId,
    type: 'locked_income_release',
    params: { action: 'claim' },
    legs: async (tx) => {
      claimable = (await readVesting(tx, userId)).claimable;
      if (claimable <= 0n) throw new AppError('NOTHING_TO_CLAIM');
      return [transfer('locked_income_release', systemAccount('vesting', 'NADI'), userAccount(userId, 'fund', 'NADI'), claimable)];
    },
    // The flow first, then the vesting row: the settlement locks ledger accounts before it writes
    // mining_vesting, and so must every other transaction touching both, or the two could deadlock.
    // Parallel claims queue on the vesting account's lock; the row update then lets only one through.
    after: async (tx) => {
      if (!(await markClaimed(tx, userId, claimable))) throw new AppError('NOTHING_TO_CLAIM');
    },
    result: () => null,
  });
  deps.events.publish({ type: 'balance', userIds: [userId] });
  const leg = (await flowLegs(deps.db, flowId))[0];
  if (!leg) throw new Error(`claim flow ${flowId} has no transfer`);
  return { amount: toDecimalString(leg.amount), balance: toDecimalString(leg.creditAvailableAfter) };
}
