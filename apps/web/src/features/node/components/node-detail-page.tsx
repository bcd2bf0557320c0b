import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { NodeTier } from '@nadi/api/node';
import type { PaymentOrder } from '@nadi/api/onchain';
import { Icon } from '../../../components/icon.tsx';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { formatPower } from '../../../lib/power-format.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useNodeDetail } from '../api/get-node-detail.ts';
import { buyBlock, formatCount, parseTierId, saleStateAt } from '../node-view.ts';
import { LevelBadge, LimitText, QuotaBar, ReturnEstimateText, SaleCountdown, SaleStateChip, showAmount } from './node-parts.tsx';
import { PurchaseSection } from './purchase-section.tsx';
import { WalletNodePayment } from './wallet-node-payment.tsx';
import '../../../components/money.css';
import './node.css';

/** /node/:id: a tier's facts, the return estimate with its basis, and buying one (a signed-out buyer is asked to sign in). */
export default function NodeDetailPage() {
  const { t } = useTranslation();
  const id = parseTierId(useParams().id);
  const tier = useNodeDetail(id);
  // A wallet purchase: its payment order, paid with the stepper in place of the detail.
  const [payment, setPayment] = useState<PaymentOrder | null>(null);
  if (id === null) {
    return (
      <div className="node-missing">
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
    <Link to="/node" className="text-link">
      {t('node.detail.backToList')}
    </Link>
  );
}

function TierDetail({ tier, onWalletOrder }: { tier: NodeTier; onWalletOrder: (order: PaymentOrder) => void }) {
  const { t } = useTranslation();
  const now = useNow();
  const state = saleStateAt(tier, now);
  return (
    <div className="money-screen node-detail" data-testid="node-detail">
      <section className={`node-head card tier-card--${state}`}>
        <div className="node-head__row">
          <LevelBadge level={tier.level_id} size="large" />
          <div className="node-head__title">
            <h1 className="node-head__name">{tier.name}</h1>
            <div className="node-head__chips">
              <SaleStateChip state={state} />
              {tier.is_bought ? (
                <span className="owned-chip" data-testid="node-owned">
                  <Icon name="check" size={12} />
                  {t('node.owned', { held: tier.held })}
                </span>
              ) : null}
            </div>
          </div>
        </div>
        <p className="node-head__price mono" data-testid="node-price">
          {showAmount(tier.price_usdt)}
          <span className="tier-card__asset">USDT</span>
        </p>
        <QuotaBar tier={tier} />
        <p className="node-head__sold">{t('node.quota.sold', { sold: formatCount(tier.sold) })}</p>
      </section>
      <SaleCountdown deadline={tier.deadline} />
      <TierFacts tier={tier} />
      <section className="card node-return" aria-labelledby="node-return-title">
        <h2 id="node-return-title" className="node-card-title">
          {t('node.return.title')}
        </h2>
        <ReturnEstimateText tier={tier} />
        <p className="form-hint">{t('node.return.formula')}</p>
      </section>
      <PurchaseSection tier={tier} block={buyBlock(tier, now)} onWalletOrder={onWalletOrder} />
    </div>
  );
}

/** docs/product.md section 3's node fields: limit and held, gift power, machine_rate, withdraw_rate, network. */
function TierFacts({ tier }: { tier: NodeTier }) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="node-facts-title">
      <h2 id="node-facts-title" className="node-card-title">
        {t('node.detail.facts')}
      </h2>
      <dl className="facts">
        <div className="facts__row">
          <dt>{t('node.facts.limit')}</dt>
          <dd className="mono" data-testid="node-limit">
            <LimitText tier={tier} />
          </dd>
        </div>
        <div className="facts__row">
          <dt>{t('node.facts.giftPower')}</dt>
          <dd className="mono">+{formatPower(tier.gift_power)} P</dd>
        </div>
        <div className="facts__row">
          <dt>{t('node.facts.machineRate')}</dt>
          <dd className="mono">{t('node.facts.machineRateValue', { rate: tier.machine_rate })}</dd>
        </div>
        <div className="facts__row">
          <dt>{t('node.facts.withdrawRate')}</dt>
          <dd className="mono">{tier.withdraw_rate}</dd>
        </div>
        <div className="facts__row">
          <dt>{t('node.facts.network')}</dt>
          <dd data-testid="node-network">{tier.network.name}</dd>
        </div>
      </dl>
      <ul className="node-explain">
        <li>{t('node.detail.giftExplain', { power: formatPower(tier.gift_power) })}</li>
        <li>{t('node.detail.machineExplain', { rate: tier.machine_rate })}</li>
        <li>{t('node.detail.withdrawExplain', { weight: tier.withdraw_rate })}</li>
      </ul>
    </section>
  );
}
