// The economy numbers in force at an epoch (docs/economy.md, "Parameters"): the defaults of
// @nadi/economy, overridden by the operator's rows in `economy_params` whose effective epoch has
// come (never retroactively). The epoch length and heartbeat interval are deployment settings
// (EPOCH_SECONDS, HEARTBEAT_SECONDS): changing them would renumber every epoch.
import { sql } from 'drizzle-orm';
import { miningDefaults, type MiningParams } from '@nadi/economy/economy';
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
} as const satisfies Partial<Record<keyof MiningParams, 'bigint' | 'int'>>;
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
