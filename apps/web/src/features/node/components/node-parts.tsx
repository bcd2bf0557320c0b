import { useTranslation } from '../../../lib/translator.ts';
import type { NodeSaleState, NodeTier } from '@nadi/api/node';
import { pad2, parseDeadline, remainingUntil } from '../../../lib/countdown.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useSession } from '../../../lib/use-session.ts';
import { formatCount, levelLabel, quotaView, returnEstimate, saleStateKeys } from '../node-view.ts';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './node.module.css';

/** T1–T5, each in its own colour, so a tier is recognised at a glance. */
export function LevelBadge({ level, size = 'normal' }: { level: number; size?: 'normal' | 'large' }) {
  const tone = Math.min(5, Math.max(1, level));
  return (
    <span className={cx(styles.levelBadge, variant(styles, `level-badge--t${tone}`), size === 'large' && styles.levelBadgeLarge)} data-testid="node-level">
      {levelLabel(level)}
    </span>
  );
}

export function SaleStateChip({ state }: { state: NodeSaleState }) {
  const { t } = useTranslation();
  return (
    <span className={cx(styles.saleChip, variant(styles, `sale-chip--${state}`))} data-testid="node-sale-state" data-state={state}>
      {t(saleStateKeys[state])}
    </span>
  );
}

/** What is left of the quota, as a bar and in numbers. */
export function QuotaBar({ tier }: { tier: Pick<NodeTier, 'limited_quota_num' | 'total_quota'> }) {
  const { t } = useTranslation();
  const quota = quotaView(tier);
  return (
    <div className={cx(styles.quota, variant(styles, `quota--${quota.tone}`))} data-testid="node-quota">
      <div className={styles.quotaHead}>
        <span className={styles.quotaLabel}>{t('node.quota.left')}</span>
        <span className={cx(styles.quotaValue, 'mono')}>{t('node.quota.value', { left: formatCount(quota.left), total: formatCount(quota.total) })}</span>
      </div>
      <div
        className={styles.quotaBar}
        role="progressbar"
        aria-label={t('node.quota.left')}
        aria-valuemin={0}
        aria-valuemax={quota.total}
        aria-valuenow={quota.left}
      >
        <span style={{ width: `${quota.leftBps / 100}%` }} />
      </div>
    </div>
  );
}

/**
 * The time left until the node sale closes (the home countdown's deadline), ticking each second;
 * its own component so only it renders every second.
 */
/**
 * The sale's countdown. `deadline` null: the tiers are still loading, and the card holds its place
 * with its label and a blank clock, so the tiers below do not move when it fills (CLS, issue 33).
 */
export function SaleCountdown({ deadline }: { deadline: string | null }) {
  const { t } = useTranslation();
  const now = useNow();
  if (deadline === null) {
    return (
      <section className={cx(styles.saleCountdown, 'card')} aria-busy="true" data-testid="node-countdown-loading">
        <p className={styles.saleCountdownLabel}>{t('node.countdown.title')}</p>
        <p className={cx(styles.saleCountdownValue, 'mono')} aria-hidden="true">
          --:--:--
        </p>
      </section>
    );
  }
  const deadlineMs = parseDeadline(deadline);
  if (deadlineMs === null) return null;
  const left = remainingUntil(deadlineMs, now);
  return (
    <section className={cx(styles.saleCountdown, 'card', left.isEnded && styles.saleCountdownEnded)} data-testid="node-countdown">
      <p className={styles.saleCountdownLabel}>{left.isEnded ? t('node.countdown.ended') : t('node.countdown.title')}</p>
      {left.isEnded ? null : (
        <p className={cx(styles.saleCountdownValue, 'mono')} role="timer" aria-live="off">
          {t('node.countdown.value', { days: left.days, time: `${pad2(left.hours)}:${pad2(left.minutes)}:${pad2(left.seconds)}` })}
        </p>
      )}
    </section>
  );
}

/** Days until return, always labelled as an estimate, with the figures it rests on. */
export function ReturnEstimateText({ tier, isCompact = false }: { tier: Pick<NodeTier, 'days_until_return' | 'return_basis'>; isCompact?: boolean }) {
  const { t } = useTranslation();
  const estimate = returnEstimate(tier);
  if (estimate.kind === 'none') {
    return (
      <p className={cx(styles.returnEstimate, styles.returnEstimateNone)} data-testid="node-return">
        {t('node.return.none')}
      </p>
    );
  }
  const basis = {
    income: formatMoney(estimate.dailyIncome, 4),
    price: formatMoney(estimate.price, 6),
  };
  return (
    <div className={styles.returnEstimate} data-testid="node-return">
      <p className={styles.returnEstimateDays}>
        <span className="mono">{t('node.return.days', { days: estimate.days })}</span>
        <span className={moneyStyles.chip}>{t('node.return.estimate')}</span>
      </p>
      {isCompact ? (
        <p className={styles.returnEstimateBasis}>{t('node.return.basisShort', basis)}</p>
      ) : (
        <p className={styles.returnEstimateBasis}>
          {estimate.epoch === null ? t('node.return.basisToday', basis) : t('node.return.basisEpoch', { ...basis, epoch: estimate.epoch })}
        </p>
      )}
    </div>
  );
}

/**
 * The fee share one more node of the tier would get at the nodes held now (the server's estimate,
 * percent text), always labelled as an estimate: it falls as more nodes are sold.
 */
export function FeeShareText({ tier }: { tier: Pick<NodeTier, 'fee_share_estimate'> }) {
  const { t } = useTranslation();
  return (
    <span className={styles.feeShare} data-testid="node-fee-share">
      <span className="mono">{t('node.facts.feeShareValue', { share: tier.fee_share_estimate })}</span>
      <span className={moneyStyles.chip}>{t('node.return.estimate')}</span>
    </span>
  );
}

/** What a node costs, labelled, so it reads as the price and not one figure among others. */
export function PriceText({ tier, className }: { tier: Pick<NodeTier, 'price_usdt'>; className?: string }) {
  const { t } = useTranslation();
  return (
    <span className={styles.priceBlock}>
      <span className={styles.priceLabel}>{t('node.facts.price')}</span>
      <span className={cx(className, 'mono')} data-testid="node-price">
        {showAmount(tier.price_usdt)}
        <span className={styles.tierCardAsset}>USDT</span>
      </span>
    </span>
  );
}

/** The per-user limit: signed in, how many of it the caller holds; signed out, the limit alone. */
export function LimitText({ tier }: { tier: Pick<NodeTier, 'held' | 'per_user_limit'> }) {
  const { t } = useTranslation();
  const { isSignedIn } = useSession();
  return <>{isSignedIn ? t('node.facts.limitValue', { held: tier.held, max: tier.per_user_limit }) : t('node.facts.limitMax', { max: tier.per_user_limit })}</>;
}

/** An amount for the node screens: grouped, fraction cut at the digits every money screen shows. */
export function showAmount(text: string): string {
  return formatMoney(text, amountDigitsShown);
}
