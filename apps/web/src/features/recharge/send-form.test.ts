import { describe, expect, it } from 'vitest';
import { checkAmount, visibleProblem, type AmountProblem } from '../../lib/amount/amount-check.ts';
import { stepperReducer, stepperStateFor } from '../../lib/payment/stepper-state.ts';
import { transferSteps, type TransferOutcome, type TransferStep } from '../../lib/payment/transfer-flow.ts';
import { canRetrySend, sendAmountMessage, sendOutcomeMessage, sendStepKey } from './send-form.ts';

const one = 10n ** 18n;
/** The wallet holds 100.25 NADI. */
const wallet = 100n * one + one / 4n;

/** The field's message after a submit attempt, as the screen shows it. */
function messageFor(text: string, walletUnits: bigint | null = wallet) {
  const problem = visibleProblem(checkAmount(text, walletUnits), true);
  return problem ? sendAmountMessage(problem, walletUnits, 'NADI') : null;
}

describe('the amount sent from the wallet', () => {
  it('refuses empty, not a number, zero or below, and more than 18 decimals, each with its message', () => {
    expect(messageFor('')).toEqual({ key: 'amount.EMPTY', params: {} });
    expect(messageFor('abc')).toEqual({ key: 'amount.FORMAT', params: {} });
    expect(messageFor('1e3')).toEqual({ key: 'amount.FORMAT', params: {} });
    expect(messageFor('0')).toEqual({ key: 'amount.ZERO', params: {} });
    expect(messageFor('-1')).toEqual({ key: 'amount.NEGATIVE', params: {} });
    expect(messageFor('1.0000000000000000001')).toEqual({ key: 'amount.TOO_MANY_DECIMALS', params: {} });
  });

  it("refuses more than the wallet's on-chain balance and names that balance", () => {
    expect(messageFor('100.250000000000000001')).toEqual({ key: 'recharge.send.aboveWallet', params: { amount: '100.25', asset: 'NADI' } });
    expect(messageFor('100.25')).toBeNull();
    expect(messageFor('0.000000000000000001')).toBeNull();
  });

  it('leaves the balance to the stepper while it is unknown (loading or failed)', () => {
    expect(messageFor('5000000', null)).toBeNull();
    expect(sendAmountMessage('ABOVE_AVAILABLE', null, 'NADI').key).toBe('amount.ABOVE_AVAILABLE');
  });

  it('sends the canonical text of the amount, as bigint units, never a float', () => {
    expect(checkAmount('0.1', wallet)).toEqual({ ok: true, units: one / 10n, text: '0.1' });
    expect(checkAmount('100.250', wallet)).toEqual({ ok: true, units: wallet, text: '100.25' });
  });

  it('shows only problems more typing cannot fix while typing', () => {
    const whileTyping = (text: string): AmountProblem | null => visibleProblem(checkAmount(text, wallet), false);
    expect(whileTyping('')).toBeNull();
    expect(whileTyping('0')).toBeNull();
    expect(whileTyping('101')).toBe('ABOVE_AVAILABLE');
  });
});

describe('the send stepper', () => {
  it('labels its steps under recharge.send.step', () => {
    expect(transferSteps.map((step) => sendStepKey(step))).toEqual([
      'recharge.send.step.install',
      'recharge.send.step.connect',
      'recharge.send.step.network',
      'recharge.send.step.balance',
      'recharge.send.step.gas',
      'recharge.send.step.transfer',
      'recharge.send.step.transferWait',
    ]);
  });

  it("words success and failure for a deposit, and keeps the payment's shortfall messages", () => {
    expect(sendOutcomeMessage({ kind: 'success', txHash: null })).toMatchObject({ tone: 'success', titleKey: 'recharge.send.outcome.success' });
    expect(sendOutcomeMessage({ kind: 'failed', step: 'transfer-wait', reason: 'reverted' })).toMatchObject({
      titleKey: 'recharge.send.outcome.failed',
      detailKey: 'recharge.send.outcome.reverted',
    });
    expect(sendOutcomeMessage({ kind: 'failed', step: 'network', reason: 'wrong-network' }).detailKey).toBe('payment.failure.wrongNetwork');
    expect(sendOutcomeMessage({ kind: 'insufficient-gas', currentUnits: 0n, requiredUnits: 21n * 10n ** 12n, symbol: 'BNB' })).toMatchObject({
      titleKey: 'payment.outcome.insufficientGas',
      params: { current: '0', required: '0.000021', symbol: 'BNB' },
    });
    expect(sendOutcomeMessage({ kind: 'cancelled', step: 'transfer' }).titleKey).toBe('payment.outcome.cancelled');
  });

  it('offers a retry after a cancel, but not after success or a sent transfer of unknown fate', () => {
    const ended = (outcome: TransferOutcome) => {
      let state = stepperReducer<TransferStep>(stepperStateFor(transferSteps), { type: 'start' });
      state = stepperReducer<TransferStep>(state, { type: 'step', step: 'transfer' });
      return stepperReducer<TransferStep>(state, { type: 'outcome', outcome });
    };
    expect(canRetrySend(ended({ kind: 'cancelled', step: 'transfer' }))).toBe(true);
    expect(canRetrySend(ended({ kind: 'failed', step: 'transfer-wait', reason: 'reverted' }))).toBe(true);
    expect(canRetrySend(ended({ kind: 'success', txHash: null }))).toBe(false);
    expect(canRetrySend(ended({ kind: 'failed', step: 'transfer-wait', reason: 'error' }))).toBe(false);
  });
});
