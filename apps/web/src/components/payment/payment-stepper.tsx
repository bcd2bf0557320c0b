import { useTranslation } from 'react-i18next';
import type { PaymentOrder } from '@nadi/api/onchain';
import { amountDigitsShown, formatMoney } from '../../lib/money-format.ts';
import { paymentSteps, type PaymentOutcome, type PaymentStep } from '../../lib/payment/payment-flow.ts';
import { canRetry, outcomeMessage, stepKey, stepStatus, type StepperState, type StepStatus } from '../../lib/payment/stepper-state.ts';
import { Icon } from '../icon.tsx';
import { TxHash } from '../tx-hash.tsx';
import { usePayment } from './use-payment.ts';
import { cx, variant } from '../../lib/cx.ts';
import moneyStyles from '../money.module.css';
import styles from './payment-stepper.module.css';

interface Props {
  order: PaymentOrder;
  onOutcome?: (outcome: PaymentOutcome) => void;
}

/**
 * Pays an order from the user's wallet, showing each step of docs/product.md section 4 as it happens and
 * ending with one of its outcomes. Loaded lazily (lazy-payment-stepper.tsx): it brings
 * wagmi and viem with it.
 */
export default function PaymentStepper({ order, onOutcome }: Props) {
  const { t } = useTranslation();
  const { state, start } = usePayment(order, onOutcome);
  const amount = formatMoney(order.amount, amountDigitsShown);
  const hasStarted = state.current !== null || state.isRunning;
  return (
    <section className={cx(styles.payment, 'card')} aria-labelledby="payment-title" data-testid="payment-stepper">
      <header className={styles.paymentHead}>
        <h2 id="payment-title" className={styles.paymentTitle}>
          {t('payment.title')}
        </h2>
        <p className={cx(styles.paymentAmount, 'mono')}>
          {amount}
          <span className={styles.paymentAsset}>{order.asset}</span>
        </p>
        <span className={moneyStyles.chip}>{order.chain_name}</span>
      </header>
      <ol className={styles.stepper}>
        {paymentSteps.map((step) => (
          <StepRow key={step} step={step} status={stepStatus(state, step)} state={state} network={order.chain_name} />
        ))}
      </ol>
      {state.outcome ? <OutcomePanel outcome={state.outcome} order={order} /> : null}
      {!hasStarted ? (
        <button type="button" className="btn btn--block" data-testid="payment-start" onClick={() => void start()}>
          {t('payment.start', { amount, asset: order.asset })}
        </button>
      ) : null}
      {canRetry(state) ? (
        <button type="button" className="btn btn--block btn--ghost" data-testid="payment-retry" onClick={() => void start()}>
          <Icon name="refresh" size={18} />
          {t('payment.retry')}
        </button>
      ) : null}
    </section>
  );
}

const markerIcons: Partial<Record<StepStatus, 'check' | 'close'>> = { done: 'check', failed: 'close' };

function StepRow({ step, status, state, network }: { step: PaymentStep; status: StepStatus; state: StepperState; network: string }) {
  const { t } = useTranslation();
  const icon = markerIcons[status];
  const hint = stepHint(step, status, state);
  return (
    <li
      className={cx(styles.stepperStep, variant(styles, `stepper__step--${status}`))}
      data-testid={`payment-step-${step}`}
      data-status={status}
      aria-current={status === 'active' ? 'step' : undefined}
    >
      <span className={styles.stepperMarker} aria-hidden="true">
        {status === 'active' ? <span className="spinner spinner--small" /> : icon ? <Icon name={icon} size={14} /> : paymentSteps.indexOf(step) + 1}
      </span>
      <div className={styles.stepperBody}>
        <span className={styles.stepperLabel}>{t(stepKey(step), { network })}</span>
        {hint ? <span className={styles.stepperHint}>{t(hint.key, hint.params ?? {})}</span> : null}
        <span className="visually-hidden">{t(`payment.status.${status}`)}</span>
      </div>
    </li>
  );
}

/** The line under the active step (what the wallet is waiting for), or why a step was not needed. */
function stepHint(step: PaymentStep, status: StepStatus, state: StepperState): { key: string; params?: Record<string, number> } | null {
  if (status === 'skipped') return { key: 'payment.status.skipped' };
  if (step === 'pay-wait' && state.confirmations && (status === 'active' || status === 'done')) {
    return {
      key: 'payment.confirmations',
      params: { done: Math.min(state.confirmations.count, state.confirmations.required), required: state.confirmations.required },
    };
  }
  if (status !== 'active') return null;
  if (step === 'approve' || step === 'pay' || step === 'connect' || step === 'network') return { key: 'payment.confirmInWallet' };
  return null;
}

function OutcomePanel({ outcome, order }: { outcome: PaymentOutcome; order: PaymentOrder }) {
  const { t } = useTranslation();
  const message = outcomeMessage(outcome);
  const params = { ...message.params, network: order.chain_name, asset: order.asset };
  const txHash = outcome.kind === 'success' || outcome.kind === 'pending' ? outcome.txHash : null;
  return (
    <div
      className={cx(styles.paymentOutcome, variant(styles, `payment-outcome--${message.tone}`))}
      role={message.tone === 'success' ? 'status' : 'alert'}
      data-testid="payment-outcome"
      data-outcome={outcome.kind}
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
