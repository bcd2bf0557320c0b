import { formatAmount } from '@nadi/money/money';
import { amountProblemKey, type AmountProblem } from '../../lib/amount/amount-check.ts';
import { canRetry, outcomeMessage, stepKeyIn, type OutcomeMessage, type StepperState } from '../../lib/payment/stepper-state.ts';
import type { TransferOutcome, TransferStep } from '../../lib/payment/transfer-flow.ts';
import { amountDigitsShown } from '../../lib/money-format.ts';

// The send-from-wallet part of /recharge as pure functions: the amount field's message and the
// outcome the stepper shows.

export interface FieldMessage {
  key: string;
  params: Record<string, string>;
}

/**
 * The amount's message (docs/product.md section 5: not empty, not below 0, at most 18 decimals).
 * Above the wallet's on-chain balance names that balance: it is the wallet's, not the fund
 * account's "available".
 */
export function sendAmountMessage(problem: AmountProblem, walletUnits: bigint | null, asset: string): FieldMessage {
  if (problem === 'ABOVE_AVAILABLE' && walletUnits !== null) {
    return { key: 'recharge.send.aboveWallet', params: { amount: formatAmount(walletUnits, { fractionDigitsMax: amountDigitsShown }), asset } };
  }
  return { key: amountProblemKey(problem), params: {} };
}

/** The step labels of the send, under recharge.send.step. */
export function sendStepKey(step: string): string {
  return stepKeyIn('recharge.send.step', step);
}

/**
 * The outcome's message: the payment stepper's (insufficient balance and gas with their amounts,
 * cancelled, no wallet, rate limits, wrong network), worded for a deposit where the payment's
 * words would not fit (sent rather than paid).
 */
export function sendOutcomeMessage(outcome: TransferOutcome): OutcomeMessage {
  const message = outcomeMessage(outcome);
  if (outcome.kind === 'success') return { ...message, titleKey: 'recharge.send.outcome.success', detailKey: 'recharge.send.outcome.successHint' };
  if (outcome.kind === 'failed') {
    return {
      ...message,
      titleKey: 'recharge.send.outcome.failed',
      detailKey: outcome.reason === 'reverted' ? 'recharge.send.outcome.reverted' : message.detailKey,
    };
  }
  return message;
}

/**
 * Whether "try again" may send again: after any end but success, except a transfer that was sent
 * and whose fate is unknown (no receipt in time): it may still be mined, and a second one would be
 * a second deposit. A reverted transfer moved nothing, so it may be tried again.
 */
export function canRetrySend(state: StepperState<TransferStep>): boolean {
  const outcome = state.outcome;
  if (!canRetry(state) || !outcome) return false;
  return !(outcome.kind === 'failed' && outcome.step === 'transfer-wait' && outcome.reason !== 'reverted');
}
