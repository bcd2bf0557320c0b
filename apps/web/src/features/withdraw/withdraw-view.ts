import { unitsOrZero } from '@nadi/money/money';
import type { WithdrawConfigData, WithdrawRecord, WithdrawStatus } from '@nadi/api/onchain';
import { amountProblemKey, type AmountCheck, type AmountProblem } from '../../lib/amount/amount-check.ts';

/** The config's amounts in base units; a malformed one counts as 0 (the server checks again). */
export function withdrawLimits(config: Pick<WithdrawConfigData, 'available' | 'min_amount' | 'fee'>) {
  return { availableUnits: unitsOrZero(config.available), minUnits: unitsOrZero(config.min_amount), feeUnits: unitsOrZero(config.fee) };
}

/** What arrives in the wallet: the amount less the fee; null until the amount is valid. */
export function receiveUnits(check: AmountCheck, feeUnits: bigint): bigint | null {
  return check.ok && check.units > feeUnits ? check.units - feeUnits : null;
}

/** The field's message for a problem: the minimum and the fee are named with their amounts. */
export function withdrawProblemMessage(
  problem: AmountProblem,
  amounts: { min: string; fee: string; asset: string },
): { key: string; params: Record<string, string> } {
  if (problem === 'BELOW_MIN') return { key: 'withdraw.belowMin', params: { amount: amounts.min, asset: amounts.asset } };
  if (problem === 'NOT_ABOVE_FEE') return { key: 'withdraw.notAboveFee', params: { amount: amounts.fee, asset: amounts.asset } };
  return { key: amountProblemKey(problem), params: {} };
}

export type WithdrawTone = 'pending' | 'sending' | 'done' | 'failed';

const statusNames: Record<WithdrawStatus, { name: string; tone: WithdrawTone }> = {
  0: { name: 'pending', tone: 'pending' },
  1: { name: 'sending', tone: 'sending' },
  2: { name: 'completed', tone: 'done' },
  3: { name: 'rejected', tone: 'failed' },
};

/**
 * docs/product.md section 4: 0 pending review, 1 approved and being sent, 2 completed, 3 rejected or failed
 * on chain (funds returned). Status 3 with a transaction failed on chain; without one it was
 * rejected in review.
 */
export function withdrawStatusView(record: Pick<WithdrawRecord, 'status' | 'tx_hash' | 'fail_reason'>): {
  key: string;
  tone: WithdrawTone;
  isReturned: boolean;
} {
  const { name, tone } = statusNames[record.status];
  const shown = record.status === 3 && (record.tx_hash || record.fail_reason) ? 'failed' : name;
  return { key: `withdraw.status.${shown}`, tone, isReturned: record.status === 3 };
}

/**
 * Why a withdrawal came back: the operator's words for a rejection, the translated code for a
 * failure on chain; null when neither is known.
 */
export function returnReason(record: Pick<WithdrawRecord, 'status' | 'reason' | 'fail_reason'>): { key: string; params: Record<string, string> } | null {
  if (record.status !== 3) return null;
  if (record.fail_reason) return { key: `withdraw.failReason.${record.fail_reason}`, params: {} };
  if (record.reason) return { key: 'withdraw.reason', params: { reason: record.reason } };
  return null;
}
