import type { TFunction } from '../../../lib/translator.ts';
import { useTranslation } from '../../../lib/translator.ts';
import type { PledgeProduct, PledgeProductStatus } from '@nadi/api/pledge';
import { Icon } from '../../../components/icon.tsx';
import { formatDate } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { formatPower } from '../../../lib/power-format.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { savingsName } from '../../../lib/savings-name.ts';
import { poolFill, statusTone } from '../pledge-view.ts';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './pledge.module.css';

// The pieces the list and the detail both show of a product: its translated name, status, rates,
// pool and dates.

export function useSavingsName() {
  const { t } = useTranslation();
  return (kind: PledgeProduct['kind'], termEpochs: number) => {
    const name = savingsName(kind, termEpochs);
    return t(name.key, name.params);
  };
}

export function StatusChip({ status }: { status: PledgeProductStatus }) {
  const { t } = useTranslation();
  return (
    <span className={cx(styles.statusChip, moneyStyles.statusChip, variant(styles, `pledge-status--${statusTone(status)}`))} data-testid="pledge-status">
      {t(`pledge.status.${status}`)}
    </span>
  );
}

/** APR first (labelled APR, never APY), then the day and month rates it comes from. */
export function RateBlock({ product }: { product: PledgeProduct }) {
  const { t } = useTranslation();
  return (
    <div className={styles.pledgeRate}>
      <div className={styles.pledgeRateMain}>
        <span className={styles.pledgeRateLabel}>
          {t('pledge.rate.apr')}
          {product.is_rate_estimate ? <span className={moneyStyles.chip}>{t('pledge.rate.estimate')}</span> : null}
        </span>
        <span className={cx(styles.pledgeRateApr, 'mono')} data-testid="pledge-apr">
          {product.apr}%
        </span>
      </div>
      <dl className={styles.pledgeRateSide}>
        <div>
          <dt>{t('pledge.rate.day')}</dt>
          <dd className="mono">{product.day_rate}%</dd>
        </div>
        <div>
          <dt>{t('pledge.rate.month')}</dt>
          <dd className="mono">{product.month_rate}%</dd>
        </div>
      </dl>
    </div>
  );
}

/** The total pledge pool against its cap, as a bar. */
export function PoolBar({ product }: { product: PledgeProduct }) {
  const { t } = useTranslation();
  const fill = poolFill(product);
  return (
    <div className={styles.pledgePool}>
      <div className={styles.pledgePoolHead}>
        <span>{t('pledge.fact.pool')}</span>
        <span className="mono">
          {formatMoney(product.total_pledge, 2)} / {formatMoney(product.pool_cap, 2)} NADI
        </span>
      </div>
      <div className={styles.pledgePoolBar} role="img" aria-label={t('pledge.fact.poolFilled', { percent: (fill.filledBps / 100).toFixed(2) })}>
        <span style={{ width: `${fill.filledBps / 100}%` }} />
      </div>
    </div>
  );
}

/** The lock term in days; without one (flexible, joint, node) the position is redeemed any time. */
export function termText(product: Pick<PledgeProduct, 'term_epochs'>, t: TFunction): string {
  return product.term_epochs > 0 ? t('pledge.fact.termDays', { days: product.term_epochs }) : t('pledge.fact.anyTime');
}

/** Minimum, power pool, remaining days and the joining window, as facts. */
export function ProductFacts({ product }: { product: PledgeProduct }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  return (
    <dl className={cx(styles.pledgeFacts, styles.pledgeFactsWindow)}>
      <div>
        <dt>{t('pledge.fact.min')}</dt>
        <dd className="mono">{formatMoney(product.min_pledge, amountDigitsShown)} NADI</dd>
      </div>
      <div>
        <dt>{t('pledge.fact.term')}</dt>
        <dd>{termText(product, t)}</dd>
      </div>
      {product.epoch_budget === null ? null : (
        <div>
          <dt>{t('pledge.fact.budget')}</dt>
          <dd className="mono">{formatMoney(product.epoch_budget, 2)} NADI</dd>
        </div>
      )}
      <div>
        <dt>{t('pledge.fact.powerPool')}</dt>
        <dd className="mono">{formatPower(product.power_pool)} P</dd>
      </div>
      <div>
        <dt>{t('pledge.fact.remaining')}</dt>
        <dd className="mono">{product.remaining_days}</dd>
      </div>
      <div>
        <dt>{t('pledge.fact.window')}</dt>
        <dd>
          <time dateTime={product.start_date}>{formatDate(product.start_date, tag)}</time>
          {' – '}
          <time dateTime={product.end_date}>{formatDate(product.end_date, tag)}</time>
        </dd>
      </div>
    </dl>
  );
}

/** Node savings for a caller without a node: locked, with the way to the nodes. */
export function NodeOnlyNote() {
  const { t } = useTranslation();
  return (
    <p className={styles.pledgeLock} data-testid="pledge-node-only">
      <Icon name="lock" size={16} />
      {t('pledge.nodeOnly')}
    </p>
  );
}
