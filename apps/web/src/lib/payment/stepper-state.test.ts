import { describe, expect, it } from 'vitest';
import { paymentSteps, type PaymentOutcome, type PaymentStep } from './payment-flow.ts';
import { canRetry, initialStepperState, outcomeMessage, stepKey, stepperReducer, stepStatus, type StepperState } from './stepper-state.ts';

const one = 10n ** 18n;

/** The state after the flow reported these steps and, optionally, an outcome. */
function after(steps: PaymentStep[], outcome?: PaymentOutcome): StepperState {
  let state = stepperReducer(initialStepperState, { type: 'start' });
  for (const step of steps) state = stepperReducer(state, { type: 'step', step });
  return outcome ? stepperReducer(state, { type: 'outcome', outcome }) : state;
}

const statuses = (state: StepperState) => Object.fromEntries(paymentSteps.map((step) => [step, stepStatus(state, step)]));

describe('the stepper', () => {
  it('shows every step pending before the start', () => {
    expect(new Set(Object.values(statuses(initialStepperState)))).toEqual(new Set(['pending']));
  });

  it('marks the steps behind as done, the current one active and the rest pending', () => {
    expect(statuses(after(['install', 'connect', 'network', 'balance']))).toEqual({
      install: 'done',
      connect: 'done',
      network: 'done',
      balance: 'active',
      allowance: 'pending',
      approve: 'pending',
      'approve-wait': 'pending',
      pay: 'pending',
      'pay-wait': 'pending',
    });
  });

  it('shows the approval steps as not needed when the allowance sufficed, and all done on success', () => {
    const state = after(['install', 'connect', 'network', 'balance', 'allowance', 'pay', 'pay-wait'], { kind: 'success', txHash: null });
    expect(stepStatus(state, 'approve')).toBe('skipped');
    expect(stepStatus(state, 'approve-wait')).toBe('skipped');
    expect(stepStatus(state, 'pay-wait')).toBe('done');
    expect(stepStatus(state, 'allowance')).toBe('done');
  });

  it('marks the step where it ended as failed', () => {
    const state = after(['install', 'connect', 'network', 'balance', 'allowance', 'approve'], { kind: 'cancelled', step: 'approve' });
    expect(stepStatus(state, 'approve')).toBe('failed');
    expect(stepStatus(state, 'pay')).toBe('pending');
    expect(canRetry(state)).toBe(true);
  });

  it('keeps the last step active while a sent payment is still confirming', () => {
    const state = after(['pay-wait'], { kind: 'pending', txHash: null });
    expect(stepStatus(state, 'pay-wait')).toBe('active');
    expect(stepStatus(state, 'install')).toBe('skipped');
  });

  it('counts confirmations, and a new start clears the last attempt', () => {
    let state = stepperReducer(after(['pay-wait']), { type: 'confirmations', count: 2, required: 3 });
    expect(state.confirmations).toEqual({ count: 2, required: 3 });
    state = stepperReducer(state, { type: 'start' });
    expect(state).toEqual({ ...initialStepperState, isRunning: true });
  });

  it('offers a retry after any end but success, and not while running', () => {
    expect(canRetry(after(['install']))).toBe(false);
    expect(canRetry(after(['pay-wait'], { kind: 'success', txHash: null }))).toBe(false);
    expect(canRetry(after(['balance'], { kind: 'insufficient-balance', currentUnits: 1n, requiredUnits: 2n, symbol: 'NADI' }))).toBe(true);
  });

  it("names each step's locale key", () => {
    expect(paymentSteps.map(stepKey)).toEqual([
      'payment.step.install',
      'payment.step.connect',
      'payment.step.network',
      'payment.step.balance',
      'payment.step.allowance',
      'payment.step.approve',
      'payment.step.approveWait',
      'payment.step.pay',
      'payment.step.payWait',
    ]);
  });
});

describe('outcomeMessage (docs/product.md section 8, payment)', () => {
  it('shows the current and required amounts of a shortfall', () => {
    expect(outcomeMessage({ kind: 'insufficient-balance', currentUnits: 1n * one + one / 4n, requiredUnits: 500_000n * one, symbol: 'NADI' })).toEqual({
      tone: 'danger',
      titleKey: 'payment.outcome.insufficientBalance',
      detailKey: 'payment.outcome.insufficientBalanceAmounts',
      params: { current: '1.25', required: '500,000', symbol: 'NADI' },
    });
    expect(outcomeMessage({ kind: 'insufficient-gas', currentUnits: 12n, requiredUnits: 21_000_000_000_000n, symbol: 'BNB' }).params).toEqual({
      current: '0',
      required: '0.000021',
      symbol: 'BNB',
    });
  });

  it('falls back to a hint when the amounts are not known', () => {
    expect(outcomeMessage({ kind: 'insufficient-allowance', currentUnits: null, requiredUnits: null, symbol: 'NADI' }).detailKey).toBe(
      'payment.outcome.insufficientAllowanceHint',
    );
  });

  it('gives every other outcome its message of docs/product.md section 8', () => {
    expect(outcomeMessage({ kind: 'success', txHash: null }).titleKey).toBe('payment.outcome.success');
    expect(outcomeMessage({ kind: 'cancelled', step: 'pay' }).titleKey).toBe('payment.outcome.cancelled');
    expect(outcomeMessage({ kind: 'no-wallet' }).detailKey).toBe('wallet.installMetaMask');
    expect(outcomeMessage({ kind: 'failed', step: 'pay', reason: 'rate-limited' })).toMatchObject({
      titleKey: 'payment.outcome.failed',
      detailKey: 'payment.failure.rateLimited',
    });
    expect(outcomeMessage({ kind: 'failed', step: 'network', reason: 'wrong-network' }).detailKey).toBe('payment.failure.wrongNetwork');
    expect(outcomeMessage({ kind: 'pending', txHash: null }).tone).toBe('warning');
  });
});
