// The economy numbers in force at an epoch (docs/economy.md, "Parameters"): the defaults of
// @nadi/economy, overridden by the operator's rows in `economy_params` whose effective epoch has
// come (never retroactively). The epoch length and heartbeat interval are deployment settings
// (EPOCH_SECONDS, HEARTBEAT_SECONDS): changing them would renumber every epoch.
import { sql } from 'drizzle-orm';
import { miningDefaults, type MiningParams } from '@nadi/economy/economy';
import type { EconomyParamName } from '@nadi/api/mining';
import type { AppSettings } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

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
} as const satisfies Record<EconomyParamName, 'bigint' | 'int'> & Partial<Record<keyof MiningParams, 'bigint' | 'int'>>;

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
};
export type TunableParam = keyof typeof tunableParams;

export function isTunableParam(name: string): name is TunableParam {
  return Object.hasOwn(tunableParams, name);
}

/** The parameters of an epoch: defaults, the deployment's epoch length, then the operator's rows in force. */
export async function paramsAt(db: Db | Tx, settings: Pick<AppSettings, 'epochSeconds' | 'heartbeatSeconds'>, epoch: number): Promise<MiningParams> {
  const rows = rowsOf<{ name: string; value: string }>(
    await db.execute(sql`select distinct on (name) name, value from economy_params where effective_epoch <= ${epoch} order by name, effective_epoch desc`),
  );
  const params: MiningParams = { ...miningDefaults, epochSeconds: settings.epochSeconds, heartbeatSeconds: settings.heartbeatSeconds };
  for (const { name, value } of rows) {
    if (!isTunableParam(name)) continue;
    if (tunableParams[name] === 'bigint') (params[name] as bigint) = BigInt(value);
    else (params[name] as number) = Number(value);
  }
  return params;
}
