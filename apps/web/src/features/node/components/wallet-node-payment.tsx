import { useTranslation } from '../../../lib/translator.ts';
import { Link, useNavigate } from 'react-router';
import type { NodeTier } from '@nadi/api/node';
import type { PaymentOrder } from '@nadi/api/onchain';
import { Icon } from '../../../components/icon.tsx';
import { PaymentStepper } from '../../../components/payment/lazy-payment-stepper.tsx';
import { notify } from '../../../lib/notify.ts';
import type { PaymentOutcome } from '../../../lib/payment/payment-flow.ts';
import { invalidateAfterPurchase } from '../api/buy-node.ts';
import { levelLabel } from '../node-view.ts';
import { isAttemptOverAfterPayment, saveAttempt } from '../purchase-attempt.ts';
import { LevelBadge, showAmount } from './node-parts.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './node.module.css';

interface Props {
  tier: NodeTier;
  order: PaymentOrder;
  onBack: () => void;
}

/**
 * A node paid from the wallet: the order holds its unit of quota while the stepper pays it through
 * the PaymentGateway. The stepper's network step asks the wallet to switch to the order's network
 * (docs/product.md section 5: "switch to the required {network} network"); the node is held once the server
 * has counted the confirmations.
 */
export function WalletNodePayment({ tier, order, onBack }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  function onOutcome(outcome: PaymentOutcome) {
    // Whatever happened, the quota, my nodes and the balances shown may be out of date now.
    invalidateAfterPurchase();
    if (isAttemptOverAfterPayment(outcome)) saveAttempt(null);
    if (outcome.kind === 'success') {
      notify(t('node.buy.bought', { level: levelLabel(tier.level_id) }), 'success');
      void navigate('/node/mine');
    }
  }
  return (
    <div className={cx(moneyStyles.moneyScreen, 'node-wallet')} data-testid="node-wallet">
      <section className={cx('card', styles.nodeWalletHead)}>
        <div className={styles.nodeWalletRow}>
          <LevelBadge level={tier.level_id} />
          <span className={styles.tierCardName}>{tier.name}</span>
          <span className={cx('mono', styles.nodeWalletPrice)}>{showAmount(tier.price_usdt)} USDT</span>
        </div>
        <p className={styles.networkNote} data-testid="node-wallet-network">
          <Icon name="network" size={16} />
          {t('node.pay.networkNote', { network: order.chain_name })}
        </p>
        <p className={cx(styles.formHint, moneyStyles.formHint)}>{t('node.wallet.held')}</p>
      </section>
      <PaymentStepper key={order.id} order={order} onOutcome={onOutcome} />
      <button type="button" className="btn btn--ghost btn--block" onClick={onBack} data-testid="node-wallet-back">
        {t('node.wallet.back')}
      </button>
      <Link to="/node/mine" className={moneyStyles.textLink}>
        {t('node.list.myNodes')}
        <Icon name="chevron" size={16} />
      </Link>
    </div>
  );
}
