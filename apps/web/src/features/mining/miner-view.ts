import { unitsOrZero } from '@nadi/money/money';
import type { ActivationItem, MinerItem, MinerStatus } from '@nadi/api/mining';

export type StatusTone = 'trial' | 'paused' | 'running' | 'unknown';

/** docs/product.md section 4: 1 experience (trial) mining, 2 mining paused, 3 permanent mining, 4 unknown. */
const statusNames: Record<MinerStatus, { name: string; tone: StatusTone }> = {
  1: { name: 'experience', tone: 'trial' },
  2: { name: 'paused', tone: 'paused' },
  3: { name: 'permanent', tone: 'running' },
  4: { name: 'unknown', tone: 'unknown' },
};

export function minerStatusView(status: MinerStatus): { key: string; tone: StatusTone } {
  const { name, tone } = statusNames[status];
  return { key: `mining.status.${name}`, tone };
}

/** Whether a miner's power counts now (design: status 1 or 3). */
export function isCounting(status: MinerStatus): boolean {
  return status === 1 || status === 3;
}

export function minerKindKey(kind: MinerItem['kind']): string {
  return `mining.kind.${kind}`;
}

/** The pay methods of docs/product.md section 3 (balance, destroy / chain, credit limit); a device bound by code has none. */
export function payMethodKey(method: MinerItem['pay_method']): string {
  return `mining.payMethod.${method ?? 'code'}`;
}

/**
 * A destroy miner's earnings budget (the released and remaining power of docs/product.md section 3, in USDT): what its
 * income used up so far and the share of the whole, 0 to 1, for the bar (a number: it only sizes a
 * bar; the amounts stay bigint).
 */
export function budgetView(miner: Pick<MinerItem, 'released_power' | 'remaining_power'>): { releasedUnits: bigint; remainingUnits: bigint; usedShare: number } {
  const releasedUnits = unitsOrZero(miner.released_power);
  const remainingUnits = unitsOrZero(miner.remaining_power);
  const total = releasedUnits + remainingUnits;
  const usedShare = total === 0n ? 0 : Number((releasedUnits * 10_000n) / total) / 10_000;
  return { releasedUnits, remainingUnits, usedShare };
}

export type ActivationTone = 'pending' | 'done' | 'failed';

/** docs/product.md section 4: pending (refresh later to see), success, failed (a refused code: never listed, shown at submit). */
export function activationStatusView(status: ActivationItem['status'] | 'failed'): { key: string; tone: ActivationTone } {
  if (status === 'success') return { key: 'mining.activation.status.success', tone: 'done' };
  if (status === 'pending') return { key: 'mining.activation.status.pending', tone: 'pending' };
  return { key: 'mining.activation.status.failed', tone: 'failed' };
}
