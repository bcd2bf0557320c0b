// The operator's changes of the economy numbers (docs/economy.md, "Parameters"): each from a later
// epoch on, never retroactively, within the range that keeps every formula sound.
import { sql } from 'drizzle-orm';
import { economyParamNames, type EconomyParamName } from '@nadi/api/mining';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { requestApproval, requireReason } from '../../lib/approvals.ts';
import { recordAudit } from '../../lib/audit.ts';
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

type ParamInput = { name: EconomyParamName; value: string; effective_epoch: number };

/** PARAM_RETROACTIVE for the current or a past epoch, PARAM_OUT_OF_RANGE outside the sound range. */
async function checkParam(deps: Pick<AppDeps, 'settings' | 'now'> & { db: Db | Tx }, input: ParamInput): Promise<bigint> {
  const { epoch } = await miningNow(deps);
  if (input.effective_epoch <= epoch) throw new AppError('PARAM_RETROACTIVE', undefined, { params: { epoch: String(epoch) } });
  const [min, max] = tunableRanges[input.name];
  const value = BigInt(input.value);
  if (value < min || value > max) throw new AppError('PARAM_OUT_OF_RANGE', undefined, { params: { min: min.toString(), max: max.toString() } });
  return value;
}

/**
 * Four-eyes (docs/operator.md): a change is a request, checked now and again when a second admin
 * approves it (applyEconomyParam); nothing changes until then.
 */
export async function requestEconomyParam(deps: Pick<AppDeps, 'db' | 'settings' | 'now'>, userId: number, input: ParamInput & { reason?: string | undefined }) {
  const reason = requireReason(input.reason);
  await checkParam(deps, input);
  const payload = { name: input.name, value: input.value, effective_epoch: input.effective_epoch };
  const at = deps.now();
  return deps.db.transaction(async (tx) => {
    const before = await scheduledValue(tx, input.name, input.effective_epoch);
    return requestApproval(tx, {
      kind: 'economy_param',
      payload,
      summary: `${input.name} = ${input.value} from epoch ${input.effective_epoch}`,
      requestedBy: userId,
      reason,
      at,
      audit: {
        action: 'economy.param.request',
        targetType: 'economy_param',
        targetId: input.name,
        before: { value: before, effective_epoch: input.effective_epoch },
      },
    });
  });
}

/**
 * Sets `name` to `value` from `effectiveEpoch` on (a later change for the same epoch replaces it), in
 * the approving transaction, checked again (the epoch may have moved on since the request), with its
 * audit line. A settled epoch never changes: the effective epoch is always after the current one.
 */
export async function applyEconomyParam(
  deps: Pick<AppDeps, 'settings' | 'now'> & { tx: Tx },
  approval: { id: number; decidedBy: number; reason: string | null },
  input: ParamInput,
): Promise<void> {
  const value = await checkParam({ ...deps, db: deps.tx }, input);
  const before = await scheduledValue(deps.tx, input.name, input.effective_epoch);
  const at = deps.now();
  await deps.tx.execute(sql`
    insert into economy_params (name, effective_epoch, value, created_by, created_at)
    values (${input.name}, ${input.effective_epoch}, ${value.toString()}, ${approval.decidedBy}, ${at})
    on conflict (name, effective_epoch) do update set value = excluded.value, created_by = excluded.created_by, created_at = excluded.created_at`);
  await recordAudit(deps.tx, {
    actorId: approval.decidedBy,
    action: 'economy.param',
    targetType: 'economy_param',
    targetId: input.name,
    before: { value: before, effective_epoch: input.effective_epoch },
    after: { value: value.toString(), effective_epoch: input.effective_epoch },
    reason: approval.reason,
    approvalId: approval.id,
    at,
  });
}

/** The value already scheduled for exactly that epoch, if any (a change there replaces it). */
async function scheduledValue(tx: Tx, name: string, effectiveEpoch: number): Promise<string | null> {
  const row = rowsOf<{ value: string }>(
    await tx.execute(sql`select value::text as value from economy_params where name = ${name} and effective_epoch = ${effectiveEpoch}`),
  )[0];
  return row?.value ?? null;
}

async function readChanges(db: Db): Promise<ParamItem[]> {
  const names: readonly string[] = economyParamNames;
  return (await readParamChanges(db)).flatMap((c) =>
    names.includes(c.name) ? [{ name: c.name as EconomyParamName, value: c.value, effective_epoch: c.effectiveEpoch }] : [],
  );
}
