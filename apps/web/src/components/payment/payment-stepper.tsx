import { useTranslation } from '../../lib/translator.ts';
import type { PaymentOrder } from '@nadi/api/onchain';
import { amountDigitsShown, formatMoney } from '../../lib/money-format.ts';
import type { PaymentOutcome, PaymentStep } from '../../lib/payment/payment-flow.ts';
import { canRetry, outcomeMessage, stepKey } from '../../lib/payment/stepper-state.ts';
import { Icon } from '../icon.tsx';
import { OutcomePanel, StepList } from './stepper-parts.tsx';
import { usePayment } from './use-payment.ts';
import { cx } from '../../lib/cx.ts';
import moneyStyles from '../money.module.css';
import styles from './payment-stepper.module.css';

/** The steps where the wallet asks the user to confirm something. */
const walletSteps: readonly PaymentStep[] = ['connect', 'network', 'approve', 'pay'];

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
      <StepList state={state} labelKey={stepKey} network={order.chain_name} walletSteps={walletSteps} confirmationsStep="pay-wait" />
      {state.outcome ? <PaymentOutcomePanel outcome={state.outcome} order={order} /> : null}
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

function PaymentOutcomePanel({ outcome, order }: { outcome: PaymentOutcome; order: PaymentOrder }) {
  const message = outcomeMessage(outcome);
  const txHash = outcome.kind === 'success' || outcome.kind === 'pending' ? outcome.txHash : null;
  return <OutcomePanel kind={outcome.kind} message={message} params={{ ...message.params, network: order.chain_name, asset: order.asset }} txHash={txHash} />;
}
