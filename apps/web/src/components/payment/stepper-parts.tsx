import { useTranslation } from '../../lib/translator.ts';
import type { Hash } from '../../lib/payment/payment-flow.ts';
import { stepStatus, type OutcomeMessage, type StepperState, type StepStatus } from '../../lib/payment/stepper-state.ts';
import { Icon } from '../icon.tsx';
import { TxHash } from '../tx-hash.tsx';
import { cx, variant } from '../../lib/cx.ts';
import styles from './payment-stepper.module.css';

// The pieces every wallet flow's screen shows (the payment stepper, the recharge's send from the
// wallet): one row per step with its status, and the outcome under them.

interface StepListProps<S extends string> {
  state: StepperState<S>;
  /** The locale key of a step's label; labels receive {{network}}. */
  labelKey: (step: S) => string;
  network: string;
  /** Steps where the wallet asks the user something: "confirm in your wallet" while active. */
  walletSteps: readonly S[];
  /** The step that counts the server's confirmations (the payment's last), if any. */
  confirmationsStep?: S;
}

export function StepList<S extends string>({ state, labelKey, network, walletSteps, confirmationsStep }: StepListProps<S>) {
  return (
    <ol className={styles.stepper}>
      {state.steps.map((step, index) => (
        <StepRow
          key={step}
          step={step}
          number={index + 1}
          status={stepStatus(state, step)}
          label={labelKey(step)}
          network={network}
          hint={stepHint(step, stepStatus(state, step), state, walletSteps, confirmationsStep)}
        />
      ))}
    </ol>
  );
}

const markerIcons: Partial<Record<StepStatus, 'check' | 'close'>> = { done: 'check', failed: 'close' };

interface StepRowProps {
  step: string;
  number: number;
  status: StepStatus;
  label: string;
  network: string;
  hint: Hint | null;
}

function StepRow({ step, number, status, label, network, hint }: StepRowProps) {
  const { t } = useTranslation();
  const icon = markerIcons[status];
  return (
    <li
      className={cx(styles.stepperStep, variant(styles, `stepper__step--${status}`))}
      data-testid={`payment-step-${step}`}
      data-status={status}
      aria-current={status === 'active' ? 'step' : undefined}
    >
      <span className={styles.stepperMarker} aria-hidden="true">
        {status === 'active' ? <span className="spinner spinner--small" /> : icon ? <Icon name={icon} size={14} /> : number}
      </span>
      <div className={styles.stepperBody}>
        <span className={styles.stepperLabel}>{t(label, { network })}</span>
        {hint ? <span className={styles.stepperHint}>{t(hint.key, hint.params ?? {})}</span> : null}
        <span className="visually-hidden">{t(`payment.status.${status}`)}</span>
      </div>
    </li>
  );
}

interface Hint {
  key: string;
  params?: Record<string, number>;
}

/** The line under the active step (what the wallet is waiting for), or why a step was not needed. */
function stepHint<S extends string>(
  step: S,
  status: StepStatus,
  state: StepperState<S>,
  walletSteps: readonly S[],
  confirmationsStep: S | undefined,
): Hint | null {
  if (status === 'skipped') return { key: 'payment.status.skipped' };
  if (step === confirmationsStep && state.confirmations && (status === 'active' || status === 'done')) {
    return {
      key: 'payment.confirmations',
      params: { done: Math.min(state.confirmations.count, state.confirmations.required), required: state.confirmations.required },
    };
  }
  if (status !== 'active') return null;
  return walletSteps.includes(step) ? { key: 'payment.confirmInWallet' } : null;
}

interface OutcomePanelProps {
  /** The outcome's kind, for tests (`data-outcome`). */
  kind: string;
  message: OutcomeMessage;
  /** The message's params with the screen's own (network, asset, …). */
  params: Record<string, string | number>;
  txHash: Hash | null;
}

export function OutcomePanel({ kind, message, params, txHash }: OutcomePanelProps) {
  const { t } = useTranslation();
  return (
    <div
      className={cx(styles.paymentOutcome, variant(styles, `payment-outcome--${message.tone}`))}
      role={message.tone === 'success' ? 'status' : 'alert'}
      data-testid="payment-outcome"
      data-outcome={kind}
    >
      <Icon name={message.tone === 'success' ? 'check' : 'alert'} size={22} />
      <div className={styles.paymentOutcomeBody}>
        <p className={styles.paymentOutcomeTitle}>{t(message.titleKey)}</p>
        {message.detailKey ? <p className={styles.paymentOutcomeDetail}>{t(message.detailKey, params)}</p> : null}
        {txHash ? <TxHash hash={txHash} /> : null}
      </div>
    </div>
  );
}
