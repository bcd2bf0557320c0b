import type { MouseEvent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import type { NodeTier } from '@nadi/api/node';
import { Icon } from '../../../components/icon.tsx';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { formatPower } from '../../../lib/power-format.ts';
import { requestSignIn } from '../../../lib/sign-in-request.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useSession } from '../../../lib/use-session.ts';
import { useNodeList } from '../api/get-node-list.ts';
import { saleStateAt, sortTiers } from '../node-view.ts';
import { FeeShareText, LevelBadge, LimitText, PriceText, QuotaBar, ReturnEstimateText, SaleCountdown, SaleStateChip } from './node-parts.tsx';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './node.module.css';

const myNodesPath = '/node/mine';

/** /node (side menu "node"): the tiers T1–T5 with live quota and the sale's countdown. Open to everyone. */
export default function NodeListPage() {
  const { t } = useTranslation();
  const nodes = useNodeList();
  return (
    <div className={cx(moneyStyles.moneyScreen, 'node-page')}>
      <header className="node-hero">
        <h1 className={styles.nodeHeroTitle}>{t('node.list.title')}</h1>
        <p className={styles.nodeHeroText}>{t('node.list.subtitle')}</p>
      </header>
      {nodes.data ? <SaleCountdown deadline={nodes.data.deadline} /> : nodes.isPending ? <SaleCountdown deadline={null} /> : null}
      <MyNodesEntry />
      <section className={moneyStyles.records} aria-labelledby="node-tiers-title">
        <h2 id="node-tiers-title" className={styles.nodeSectionTitle}>
          {t('node.list.tiers')}
        </h2>
        {nodes.isPending ? (
          <LoadingView />
        ) : !nodes.data ? (
          <ErrorView title={t('node.list.loadFailed')} error={nodes.error} onRetry={() => void nodes.refetch()} />
        ) : nodes.data.list.length === 0 ? (
          <EmptyView title={t('node.list.empty')} hint={t('node.list.emptyHint')} icon="network" />
        ) : (
          <TierCards tiers={nodes.data.list} />
        )}
      </section>
      {nodes.data && nodes.data.list.length > 0 ? <p className={cx(styles.formHint, moneyStyles.formHint)}>{t('node.list.estimateNote')}</p> : null}
    </div>
  );
}

/** The cards; the clock is read here once a second so a sale closing at the deadline shows at once. */
function TierCards({ tiers }: { tiers: NodeTier[] }) {
  const now = useNow();
  return (
    <ul className={styles.tierList} data-testid="node-tier-list">
      {sortTiers(tiers).map((tier) => (
        <li key={tier.id}>
          <TierCard tier={tier} nowMs={now} />
        </li>
      ))}
    </ul>
  );
}

/** My nodes need a session: a signed-out visitor is asked to sign in, then taken there. */
function MyNodesEntry() {
  const { t } = useTranslation();
  const { isSignedIn } = useSession();
  function onClick(event: MouseEvent) {
    if (isSignedIn) return;
    event.preventDefault();
    requestSignIn({ redirectTo: myNodesPath });
  }
  return (
    <Link to={myNodesPath} className={cx(styles.nodeEntry, 'card')} onClick={onClick} data-testid="node-my-nodes">
      <span className={styles.nodeEntryIcon} aria-hidden="true">
        <Icon name="network" size={20} />
      </span>
      <span className={styles.nodeEntryText}>
        <span className={styles.nodeEntryTitle}>{t('node.list.myNodes')}</span>
        <span className={styles.nodeEntryHint}>{t('node.list.myNodesHint')}</span>
      </span>
      <Icon name="chevron" size={18} className={styles.nodeEntryChevron} />
    </Link>
  );
}

function TierCard({ tier, nowMs }: { tier: NodeTier; nowMs: number }) {
  const { t } = useTranslation();
  const state = saleStateAt(tier, nowMs);
  return (
    <Link
      to={`/node/${tier.id}`}
      className={cx(styles.tierCard, 'card', variant(styles, `tier-card--${state}`))}
      data-testid="node-tier"
      data-level={tier.level_id}
    >
      <span className={styles.tierCardHead}>
        <LevelBadge level={tier.level_id} />
        <span className={styles.tierCardName}>{tier.name}</span>
        {tier.is_bought ? (
          <span className={styles.ownedChip} data-testid="node-owned">
            <Icon name="check" size={12} />
            {t('node.owned', { held: tier.held })}
          </span>
        ) : null}
        <SaleStateChip state={state} />
      </span>
      <span className={styles.tierCardPriceRow}>
        <PriceText tier={tier} className={styles.tierCardPrice} />
        <span className={moneyStyles.chip}>{tier.network.name}</span>
      </span>
      <QuotaBar tier={tier} />
      <dl className={styles.tierCardGrid}>
        <div>
          <dt>{t('node.facts.giftPower')}</dt>
          <dd className="mono">+{formatPower(tier.gift_power)} P</dd>
        </div>
        <div>
          <dt>{t('node.facts.machineRate')}</dt>
          <dd className="mono">{t('node.facts.machineRateValue', { rate: tier.machine_rate })}</dd>
        </div>
        <div>
          <dt>{t('node.facts.feeShare')}</dt>
          <dd>
            <FeeShareText tier={tier} />
          </dd>
        </div>
        <div>
          <dt>{t('node.facts.limit')}</dt>
          <dd className="mono">
            <LimitText tier={tier} />
          </dd>
        </div>
      </dl>
      <ReturnEstimateText tier={tier} isCompact />
    </Link>
  );
}
