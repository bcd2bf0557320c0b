// The economy numbers in force at an epoch (docs/economy.md, "Parameters"): the defaults of
// @nadi/economy (the mining and team numbers; the store's two and the node dividend share, below), overridden by the operator's rows in `economy_params` whose effective epoch has
// come (never retroactively). The epoch length and heartbeat interval are deployment settings
// (EPOCH_SECONDS, HEARTBEAT_SECONDS): changing them would renumber every epoch.
import { sql } from 'drizzle-orm';
import { miningDefaults, type MiningParams } from '@nadi/economy/economy';
import { teamDefaults, type TeamParams } from '@nadi/economy/team';
import type { EconomyParamName } from '@nadi/api/mining';
import type { AppSettings } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/**
 * The store's economy numbers (docs/store.md, "Paying"): the share of a sale kept as the store margin
 * (to the fees account) and the device direct reward paid to the buyer's referrer, in basis points.
 * They change like the mining numbers (from a later epoch on) but no mining formula reads them.
 */
export interface StoreParams {
  storeMarginBps: bigint;
  deviceDirectRewardBps: bigint;
}
export const storeDefaults: StoreParams = { storeMarginBps: 2_000n, deviceDirectRewardBps: 1_000n };

/**
 * The node fee dividend (docs/nodes-and-savings.md, "What a node earns"): the share of what the fees
 * accounts received in an epoch that is split over the held nodes by weight, in basis points.
 */
export interface NodeParams {
  nodeDividendBps: bigint;
}
export const nodeDefaults: NodeParams = { nodeDividendBps: 5_000n };
export type EconomyParams = MiningParams & StoreParams & NodeParams & TeamParams;

/** The parameters an operator may change, and how each is stored as text. */
export const tunableParams = {
  emissionBase: 'bigint',
  halvingEpochs: 'int',
  immediateBps: 'bigint',
  vestingEpochs: 'int',
  destroyPowerPerUsdt: 'bigint',
  destroyBudgetMultiplier: 'bigint',
  destroyMinUsdt: 'bigint',
  trialPower: 'bigint',
  trialEpochs: 'int',
  uptimeMinBps: 'bigint',
  heartbeatSkewSeconds: 'int',
  referenceWindowSeconds: 'int',
  storeMarginBps: 'bigint',
  deviceDirectRewardBps: 'bigint',
  nodeDividendBps: 'bigint',
  teamShareLevel1Bps: 'bigint',
  teamShareLevel2Bps: 'bigint',
  teamLevel1Usdt: 'bigint',
  teamLevel2Usdt: 'bigint',
  teamLevel3Usdt: 'bigint',
  teamLevel4Usdt: 'bigint',
  teamLevel5Usdt: 'bigint',
  teamLevel1Directs: 'int',
  teamLevel2Directs: 'int',
  teamLevel3Directs: 'int',
  teamLevel4Directs: 'int',
  teamLevel5Directs: 'int',
  teamLevel1RateBps: 'bigint',
  teamLevel2RateBps: 'bigint',
  teamLevel3RateBps: 'bigint',
  teamLevel4RateBps: 'bigint',
  teamLevel5RateBps: 'bigint',
  teamPowerLevelBps: 'bigint',
  teamPowerLevelMin: 'int',
  signInDay1Nadi: 'bigint',
  signInDay2Nadi: 'bigint',
  signInDay3Nadi: 'bigint',
  signInDay4Nadi: 'bigint',
  signInDay5Nadi: 'bigint',
  signInDay6Nadi: 'bigint',
  signInDay7Nadi: 'bigint',
} as const satisfies Record<EconomyParamName, 'bigint' | 'int'> & Partial<Record<keyof EconomyParams, 'bigint' | 'int'>>;

const unit = 10n ** 18n;
/**
 * What each parameter may be set to (inclusive): wide enough for any sane economy, narrow enough
 * that no value breaks a formula (a zero epoch count, a share above 100 %, a price window of 0 s).
 */
export const tunableRanges: Record<TunableParam, readonly [bigint, bigint]> = {
  emissionBase: [0n, 10n ** 9n * unit],
  halvingEpochs: [1n, 100_000n],
  immediateBps: [0n, 10_000n],
  vestingEpochs: [1n, 3_650n],
  destroyPowerPerUsdt: [1n, 1_000_000n],
  destroyBudgetMultiplier: [1n, 100n],
  destroyMinUsdt: [0n, 10n ** 9n * unit],
  trialPower: [0n, 1_000_000n],
  trialEpochs: [0n, 365n],
  uptimeMinBps: [1n, 10_000n],
  heartbeatSkewSeconds: [1n, 3_600n],
  referenceWindowSeconds: [60n, 86_400n],
  // A margin of the whole price would leave the treasury nothing; a reward above half a sale would
  // pay referrers more than the platform keeps.
  storeMarginBps: [0n, 10_000n],
  deviceDirectRewardBps: [0n, 5_000n],
  // All of the fees may go to the node holders; none at all is the operator's choice too.
  nodeDividendBps: [0n, 10_000n],
  // Team rewards (docs/team.md): each share at most half of the income it is a share of, so that
  // share, community and power level income together stay below the income itself.
  teamShareLevel1Bps: [0n, 5_000n],
  teamShareLevel2Bps: [0n, 5_000n],
  teamLevel1Usdt: [0n, 10n ** 12n * unit],
  teamLevel2Usdt: [0n, 10n ** 12n * unit],
  teamLevel3Usdt: [0n, 10n ** 12n * unit],
  teamLevel4Usdt: [0n, 10n ** 12n * unit],
  teamLevel5Usdt: [0n, 10n ** 12n * unit],
  teamLevel1Directs: [0n, 1_000n],
  teamLevel2Directs: [0n, 1_000n],
  teamLevel3Directs: [0n, 1_000n],
  teamLevel4Directs: [0n, 1_000n],
  teamLevel5Directs: [0n, 1_000n],
  teamLevel1RateBps: [0n, 5_000n],
  teamLevel2RateBps: [0n, 5_000n],
  teamLevel3RateBps: [0n, 5_000n],
  teamLevel4RateBps: [0n, 5_000n],
  teamLevel5RateBps: [0n, 5_000n],
  teamPowerLevelBps: [0n, 5_000n],
  teamPowerLevelMin: [1n, 5n],
  // A sign-in award above 1,000 NADI a day would empty the sign-in pool in days.
  signInDay1Nadi: [0n, 1_000n * unit],
  signInDay2Nadi: [0n, 1_000n * unit],
  signInDay3Nadi: [0n, 1_000n * unit],
  signInDay4Nadi: [0n, 1_000n * unit],
  signInDay5Nadi: [0n, 1_000n * unit],
  signInDay6Nadi: [0n, 1_000n * unit],
  signInDay7Nadi: [0n, 1_000n * unit],
};
export type TunableParam = keyof typeof tunableParams;

export function isTunableParam(name: string): name is TunableParam {
  return Object.hasOwn(tunableParams, name);
}

type EpochSettings = Pick<AppSettings, 'epochSeconds' | 'heartbeatSeconds'>;

/** The operator's changes, oldest effective epoch first. */
export async function readParamChanges(db: Db | Tx): Promise<{ name: string; effectiveEpoch: number; value: string }[]> {
  const rows = rowsOf<{ name: string; effective_epoch: number; value: string }>(
    await db.execute(sql`select name, effective_epoch, value from economy_params order by effective_epoch, name`),
  );
  return rows.map((r) => ({ name: r.name, effectiveEpoch: Number(r.effective_epoch), value: r.value }));
}

/**
 * The parameters of any epoch from one read of `economy_params`: the defaults, the deployment's epoch
 * length and heartbeat, then each operator change whose epoch has come (the latest wins); and the
 * longest vesting period any epoch has had.
 */
export async function paramsResolver(db: Db | Tx, settings: EpochSettings) {
  const changes = await readParamChanges(db);
  const at = (epoch: number): EconomyParams => {
    const params: EconomyParams = {
      ...miningDefaults,
      ...storeDefaults,
      ...nodeDefaults,
      ...teamDefaults,
      epochSeconds: settings.epochSeconds,
      heartbeatSeconds: settings.heartbeatSeconds,
    };
    for (const { name, effectiveEpoch, value } of changes) {
      if (effectiveEpoch > epoch || !isTunableParam(name)) continue;
      if (tunableParams[name] === 'bigint') (params[name] as bigint) = BigInt(value);
      else (params[name] as number) = Number(value);
    }
    return params;
  };
  const vestingEpochsMax = Math.max(miningDefaults.vestingEpochs, ...changes.filter((c) => c.name === 'vestingEpochs').map((c) => Number(c.value)));
  return { at, vestingEpochsMax };
}

/** The parameters of one epoch. */
export async function paramsAt(db: Db | Tx, settings: EpochSettings, epoch: number): Promise<EconomyParams> {
  return (await paramsResolver(db, settings)).at(epoch);
}
