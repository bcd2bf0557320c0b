// The operator's changes of the economy numbers (docs/economy.md, "Parameters"): each from a later
// epoch on, never retroactively, within the range that keeps every formula sound.
import { sql } from 'drizzle-orm';
import { economyParamNames, type EconomyParamName } from '@nadi/api/mining';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { paramsAt, readParamChanges, tunableRanges } from './params.ts';
import { miningNow } from './service.ts';

interface ParamItem {
  name: EconomyParamName;
  value: string;
  effective_epoch: number;
}

export async function listEconomyParams(deps: Pick<AppDeps, 'db' | 'settings' | 'now'>) {
  const { epoch } = await miningNow(deps);
  const params = await paramsAt(deps.db, deps.settings, epoch);
  const set = await readChanges(deps.db);
  const in_force: ParamItem[] = economyParamNames.map((name) => {
    const last = set.filter((c) => c.name === name && c.effective_epoch <= epoch).at(-1);
    return { name, value: String(params[name]), effective_epoch: last?.effective_epoch ?? 0 };
  });
  return { epoch, in_force, scheduled: set.filter((c) => c.effective_epoch > epoch) };
}

/** Sets `name` to `value` from `effectiveEpoch` on (a later change for the same epoch replaces it). */
export async function setEconomyParam(
  deps: Pick<AppDeps, 'db' | 'settings' | 'now'>,
  userId: number,
  input: { name: EconomyParamName; value: string; effective_epoch: number },
) {
  const { epoch } = await miningNow(deps);
  if (input.effective_epoch <= epoch) throw new AppError('PARAM_RETROACTIVE', undefined, { params: { epoch: String(epoch) } });
  const [min, max] = tunableRanges[input.name];
  const value = BigInt(input.value);
  if (value < min || value > max) throw new AppError('PARAM_OUT_OF_RANGE', undefined, { params: { min: min.toString(), max: max.toString() } });
  await deps.db.execute(sql`
    insert into economy_params (name, effective_epoch, value, created_by, created_at)
    values (${input.name}, ${input.effective_epoch}, ${value.toString()}, ${userId}, ${deps.now()})
    on conflict (name, effective_epoch) do update set value = excluded.value, created_by = excluded.created_by, created_at = excluded.created_at`);
  return listEconomyParams(deps);
}

async function readChanges(db: Db): Promise<ParamItem[]> {
  const names: readonly string[] = economyParamNames;
  return (await readParamChanges(db)).flatMap((c) =>
    names.includes(c.name) ? [{ name: c.name as EconomyParamName, value: c.value, effective_epoch: c.effectiveEpoch }] : [],
  );
}
