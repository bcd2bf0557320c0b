// Mining time: epochs counted from a genesis moment fixed at the first start (app_settings
// `mining_genesis`), aligned to a multiple of the epoch length so that production epochs are UTC
// days and development ones start on round times.
import { epochAt, epochEnd, epochStart, type MiningParams } from '@nadi/economy/economy';
import type { Db, Tx } from '../../db/client.ts';
import { insertSettingIfAbsent, readSetting } from '../config/index.ts';

export const genesisSettingKey = 'mining_genesis';

/** The genesis moment: read, or fixed now (aligned down to the epoch length) when the database has none. */
export async function miningGenesis(db: Db | Tx, now: Date, epochSeconds: number): Promise<Date> {
  const stored = await readSetting(db, genesisSettingKey);
  if (typeof stored === 'string') return new Date(stored);
  const stepMs = epochSeconds * 1000;
  await insertSettingIfAbsent(db, genesisSettingKey, new Date(Math.floor(now.getTime() / stepMs) * stepMs).toISOString());
  const fixed = await readSetting(db, genesisSettingKey);
  if (typeof fixed !== 'string') throw new Error('mining genesis could not be fixed');
  return new Date(fixed);
}

export interface EpochClock {
  genesis: Date;
  epochSeconds: number;
  /** The epoch `at` falls in. */
  epochOf(at: Date): number;
  startOf(epoch: number): Date;
  endOf(epoch: number): Date;
}

export function epochClock(genesis: Date, params: Pick<MiningParams, 'epochSeconds'>): EpochClock {
  return {
    genesis,
    epochSeconds: params.epochSeconds,
    epochOf: (at) => epochAt(at, genesis, params),
    startOf: (epoch) => epochStart(epoch, genesis, params),
    endOf: (epoch) => epochEnd(epoch, genesis, params),
  };
}
