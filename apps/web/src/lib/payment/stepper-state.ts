import { formatAmount } from '@nadi/money/money';
import { paymentSteps, type FailureReason, type PaymentOutcome, type PaymentStep } from './payment-flow.ts';

// What the payment stepper shows, as pure functions of the flow's reports: each step's status and
// the outcome's message with its amounts. The component only renders these.

/** `S` is the flow's steps: the payment's by default (the wallet transfer of a recharge has its own). */
export interface StepperState<S extends string = PaymentStep> {
  /** Every step of the flow, in the order shown. */
  steps: readonly S[];
  /** The step the flow is in (or ended in); null before the first start. */
  current: S | null;
  /** The steps entered in this attempt; the others before `current` were not needed. */
  visited: readonly S[];
  outcome: PaymentOutcome<S> | null;
  confirmations: { count: number; required: number } | null;
  isRunning: boolean;
}

export type StepperEvent<S extends string = PaymentStep> =
  | { type: 'start' }
  | { type: 'step'; step: S }
  | { type: 'confirmations'; count: number; required: number }
  | { type: 'outcome'; outcome: PaymentOutcome<S> };

/** The state before the first start of a flow with these steps. */
export function stepperStateFor<S extends string>(steps: readonly S[]): StepperState<S> {
  return { steps, current: null, visited: [], outcome: null, confirmations: null, isRunning: false };
}

export const initialStepperState: StepperState = stepperStateFor(paymentSteps);

export function stepperReducer<S extends string>(state: StepperState<S>, event: StepperEvent<S>): StepperState<S> {
  switch (event.type) {
    case 'start':
      return { ...stepperStateFor(state.steps), isRunning: true };
    case 'step':
      return { ...state, current: event.step, visited: [...state.visited, event.step] };
    case 'confirmations':
      return { ...state, confirmations: { count: event.count, required: event.required } };
    case 'outcome':
      return { ...state, outcome: event.outcome, isRunning: false };
  }
}

export type StepStatus = 'pending' | 'active' | 'done' | 'skipped' | 'failed';

const goodEnds: readonly PaymentOutcome['kind'][] = ['success'];

export function stepStatus<S extends string>(state: StepperState<S>, step: S): StepStatus {
  if (state.current === null) return 'pending';
  const at = state.steps.indexOf(state.current);
  const index = state.steps.indexOf(step);
  if (index < at) return state.visited.includes(step) ? 'done' : 'skipped';
  if (index > at) return state.outcome?.kind === 'success' ? 'skipped' : 'pending';
  if (!state.outcome) return 'active';
  if (goodEnds.includes(state.outcome.kind)) return 'done';
  // Paid, still counting confirmations when the screen stopped waiting.
  return state.outcome.kind === 'pending' ? 'active' : 'failed';
}

/** The locale key of a step's label: payment.step.<name> (approve-wait → approveWait). */
export function stepKey(step: PaymentStep): string {
  return stepKeyIn('payment.step', step);
}

/** The locale key of a step's label under `prefix`: `<prefix>.<name>` (transfer-wait → transferWait). */
export function stepKeyIn(prefix: string, step: string): string {
  return `${prefix}.${step.replace(/-(\w)/g, (_match, letter: string) => letter.toUpperCase())}`;
}

export type Tone = 'success' | 'warning' | 'danger';

export interface OutcomeMessage {
  tone: Tone;
  titleKey: string;
  detailKey: string | null;
  params: Record<string, string>;
}

/** Amounts of the outcome panel: 18-decimal base units, cut to 8 decimals (6 would hide a gas shortfall). */
function amountText(value: bigint | null): string {
  return value === null ? '' : formatAmount(value, { fractionDigitsMax: 8 });
}

const failureKeys: Record<FailureReason, string> = {
  reverted: 'payment.failure.reverted',
  'rate-limited': 'payment.failure.rateLimited',
  'wrong-network': 'payment.failure.wrongNetwork',
  'order-rejected': 'payment.failure.orderRejected',
  error: 'payment.failure.error',
};

const shortfallNames = {
  'insufficient-balance': 'insufficientBalance',
  'insufficient-gas': 'insufficientGas',
  'insufficient-allowance': 'insufficientAllowance',
} as const;

/** The message for an outcome (docs/product.md section 8, payment), with the amounts it names. */
export function outcomeMessage(outcome: PaymentOutcome<string>): OutcomeMessage {
  switch (outcome.kind) {
    case 'success':
      return { tone: 'success', titleKey: 'payment.outcome.success', detailKey: 'payment.outcome.successHint', params: {} };
    case 'pending':
      return { tone: 'warning', titleKey: 'payment.outcome.pending', detailKey: 'payment.outcome.pendingHint', params: {} };
    case 'no-wallet':
      return { tone: 'danger', titleKey: 'payment.outcome.noWallet', detailKey: 'wallet.installMetaMask', params: {} };
    case 'cancelled':
      return { tone: 'warning', titleKey: 'payment.outcome.cancelled', detailKey: null, params: {} };
    case 'failed':
      return { tone: 'danger', titleKey: 'payment.outcome.failed', detailKey: failureKeys[outcome.reason], params: {} };
    case 'insufficient-balance':
    case 'insufficient-gas':
    case 'insufficient-allowance': {
      const name = shortfallNames[outcome.kind];
      const hasAmounts = outcome.currentUnits !== null && outcome.requiredUnits !== null;
      return {
        tone: 'danger',
        titleKey: `payment.outcome.${name}`,
        detailKey: hasAmounts ? `payment.outcome.${name}Amounts` : `payment.outcome.${name}Hint`,
        params: { current: amountText(outcome.currentUnits), required: amountText(outcome.requiredUnits), symbol: outcome.symbol },
      };
    }
  }
}

/** Whether the user may start again: after any end but success (a retry re-reads the order first). */
export function canRetry<S extends string>(state: StepperState<S>): boolean {
  return !state.isRunning && state.outcome !== null && state.outcome.kind !== 'success';
}
