import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link, useParams } from 'react-router';
import type { NodeTier } from '@nadi/api/node';
import type { PaymentOrder } from '@nadi/api/onchain';
import { Icon } from '../../../components/icon.tsx';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { formatPower } from '../../../lib/power-format.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useNodeDetail } from '../api/get-node-detail.ts';
import { buyBlock, formatCount, parseTierId, saleStateAt } from '../node-view.ts';
import { FeeShareText, LevelBadge, LimitText, PriceText, QuotaBar, ReturnEstimateText, SaleCountdown, SaleStateChip } from './node-parts.tsx';
import { PurchaseSection } from './purchase-section.tsx';
import { WalletNodePayment } from './wallet-node-payment.tsx';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './node.module.css';

/** /node/:id: a tier's facts, the return estimate with its basis, and buying one (a signed-out buyer is asked to sign in). */
export default function NodeDetailPage() {
  const { t } = useTranslation();
  const id = parseTierId(useParams().id);
  const tier = useNodeDetail(id);
  // A wallet purchase: its payment order, paid with the stepper in place of the detail.
  const [payment, setPayment] = useState<PaymentOrder | null>(null);
  if (id === null) {
    return (
      <div className={styles.nodeMissing}>
        <EmptyView title={t('node.detail.badId')} icon="alert" />
        <BackToList />
      </div>
    );
  }
  if (tier.isPending) return <LoadingView />;
  if (!tier.data) {
    return <ErrorView title={t('node.detail.loadFailed')} error={tier.error} onRetry={() => void tier.refetch()} action={<BackToList />} />;
  }
  if (payment) return <WalletNodePayment tier={tier.data} order={payment} onBack={() => setPayment(null)} />;
  return <TierDetail tier={tier.data} onWalletOrder={setPayment} />;
}

function BackToList() {
  const { t } = useTranslation();
  return (
    <Link to="/node" className={moneyStyles.textLink}>
      {t('node.detail.backToList')}
    </Link>
  );
}

function TierDetail({ tier, onWalletOrder }: { tier: NodeTier; onWalletOrder: (order: PaymentOrder) => void }) {
  const { t } = useTranslation();
  const now = useNow();
  const state = saleStateAt(tier, now);
  return (
    <div className={cx(moneyStyles.moneyScreen, 'node-detail')} data-testid="node-detail">
      <section className={cx(styles.nodeHead, 'card', variant(styles, `tier-card--${state}`))}>
        <div className={styles.nodeHeadRow}>
          <LevelBadge level={tier.level_id} size="large" />
          <div className={styles.nodeHeadTitle}>
            <h1 className={styles.nodeHeadName}>{tier.name}</h1>
            <div className={styles.nodeHeadChips}>
              <SaleStateChip state={state} />
              {tier.is_bought ? (
                <span className={styles.ownedChip} data-testid="node-owned">
                  <Icon name="check" size={12} />
                  {t('node.owned', { held: tier.held })}
                </span>
              ) : null}
            </div>
          </div>
        </div>
        <PriceText tier={tier} className={styles.nodeHeadPrice} />
        <QuotaBar tier={tier} />
        <p className={styles.nodeHeadSold}>{t('node.quota.sold', { sold: formatCount(tier.sold) })}</p>
      </section>
      <SaleCountdown deadline={tier.deadline} />
      <TierFacts tier={tier} />
      <section className={cx('card', styles.nodeReturn)} aria-labelledby="node-return-title">
        <h2 id="node-return-title" className={styles.nodeCardTitle}>
          {t('node.return.title')}
        </h2>
        <ReturnEstimateText tier={tier} />
        <p className={cx(styles.formHint, moneyStyles.formHint)}>{t('node.return.formula')}</p>
      </section>
      <PurchaseSection tier={tier} block={buyBlock(tier, now)} onWalletOrder={onWalletOrder} />
    </div>
  );
}

/**
 * docs/product.md section 3's node fields: limit and held, gift power, machine_rate, withdraw_rate
 * (shown as the fee share it brings, the weight in the explanation), network.
 */
function TierFacts({ tier }: { tier: NodeTier }) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="node-facts-title">
      <h2 id="node-facts-title" className={styles.nodeCardTitle}>
        {t('node.detail.facts')}
      </h2>
      <dl className={cx(styles.facts, moneyStyles.facts)}>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('node.facts.limit')}</dt>
          <dd className="mono" data-testid="node-limit">
            <LimitText tier={tier} />
          </dd>
        </div>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('node.facts.giftPower')}</dt>
          <dd className="mono">+{formatPower(tier.gift_power)} P</dd>
        </div>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('node.facts.machineRate')}</dt>
          <dd className="mono">{t('node.facts.machineRateValue', { rate: tier.machine_rate })}</dd>
        </div>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('node.facts.feeShare')}</dt>
          <dd>
            <FeeShareText tier={tier} />
          </dd>
        </div>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('node.facts.network')}</dt>
          <dd data-testid="node-network">{tier.network.name}</dd>
        </div>
      </dl>
      <ul className={styles.nodeExplain}>
        <li>{t('node.detail.giftExplain', { power: formatPower(tier.gift_power) })}</li>
        <li>{t('node.detail.machineExplain', { rate: tier.machine_rate })}</li>
        <li>{t('node.detail.feeShareExplain', { share: tier.fee_share_estimate, weight: tier.withdraw_rate })}</li>
      </ul>
    </section>
  );
}
