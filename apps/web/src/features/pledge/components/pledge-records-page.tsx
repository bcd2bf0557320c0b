import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link, useSearchParams } from 'react-router';
import type { PledgePosition } from '@nadi/api/pledge';
import { Icon } from '../../../components/icon.tsx';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { Segmented } from '../../../components/segmented.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { confirmDialog } from '../../../lib/confirm-dialog.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { notify } from '../../../lib/notify.ts';
import { formatPower } from '../../../lib/power-format.ts';
import { submitErrorText } from '../../../lib/submit-error.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useRecords } from '../api/get-records.ts';
import { useRedeem } from '../api/redeem.ts';
import { positionFilterFromParam, positionFilterOptions, positionView, type PositionFilter } from '../position-view.ts';
import { positionTerm } from '../pledge-view.ts';
import { useSavingsName } from './product-parts.tsx';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './pledge.module.css';

/** /pledge/records: my savings positions (all, active, redeemed), ten a page; flexible ones can be redeemed. */
export default function PledgeRecordsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  // The filter lives in the address, so coming back to the screen shows the same one.
  const filter = positionFilterFromParam(params.get('status'));
  const records = useRecords(filter === 'all' ? undefined : filter);
  const redeem = useRedeemAction();
  return (
    <div className={cx(moneyStyles.moneyScreen, 'pledge-records')}>
      <Segmented
        label={t('pledge.records.filter')}
        value={filter}
        options={positionFilterOptions.map((value) => ({ value, label: t(`pledge.records.tab.${value}`) }))}
        onChange={(next: PositionFilter) => setParams(next === 'all' ? {} : { status: next }, { replace: true })}
      />
      <div className={moneyStyles.records}>
        <InfiniteList
          query={records}
          getKey={(position) => position.id}
          renderItem={(position) => (
            <PositionCard position={position} isRedeeming={redeem.pendingId === position.id} onRedeem={() => void redeem.run(position)} />
          )}
          errorTitle={t('pledge.records.loadFailed')}
          empty={
            filter === 'all'
              ? { title: t('pledge.records.empty'), hint: t('pledge.records.emptyHint'), icon: 'coins' }
              : { title: t('pledge.records.emptyTab'), hint: t('pledge.records.emptyTabHint'), icon: 'inbox' }
          }
        />
      </div>
      <Link to="/pledge/releases" className={moneyStyles.textLink}>
        {t('nav.pledgeReleases')}
        <Icon name="chevron" size={16} />
      </Link>
    </div>
  );
}

/** Redeeming asks first (the current epoch's interest is forfeited), then says what came back. */
function useRedeemAction() {
  const { t } = useTranslation();
  const redeem = useRedeem();
  const name = useSavingsName();
  const [pendingId, setPendingId] = useState<number | null>(null);

  async function run(position: PledgePosition) {
    if (pendingId !== null) return;
    const amount = formatMoney(position.amount, amountDigitsShown);
    const isConfirmed = await confirmDialog({
      title: t('pledge.redeem.confirmTitle'),
      content: t('pledge.redeem.confirmText', { amount, name: name(position.kind, positionTerm(position)) }),
      confirmText: t('pledge.redeem.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!isConfirmed) return;
    setPendingId(position.id);
    redeem.mutate(position.id, {
      onSuccess: (result) => notify(t('pledge.redeem.success', { amount: formatMoney(result.position.amount, amountDigitsShown) }), 'success'),
      onError: (error) => {
        const isLocked = isApiError(error) && error.failure.reason === 'PLEDGE_NOT_REDEEMABLE';
        notify(isLocked ? t('errors.PLEDGE_NOT_REDEEMABLE') : submitErrorText(error, t), 'fail');
      },
      onSettled: () => setPendingId(null),
    });
  }

  return { run, pendingId };
}

interface CardProps {
  position: PledgePosition;
  isRedeeming: boolean;
  onRedeem: () => void;
}

function PositionCard({ position, isRedeeming, onRedeem }: CardProps) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const name = useSavingsName();
  const view = positionView(position);
  const time = (iso: string) => (
    <time className={styles.pledgeFactsTime} dateTime={iso}>
      {formatDateTime(iso, tag)}
    </time>
  );
  return (
    <article className={cx(styles.pledgePosition, 'card')} data-testid="pledge-position">
      <header className={styles.pledgeCardHead}>
        <h3 className={styles.pledgeCardName}>{name(position.kind, view.term)}</h3>
        <span className={cx(styles.statusChip, moneyStyles.statusChip, variant(styles, `pledge-status--${view.tone}`))} data-testid="position-status">
          {t(view.statusKey)}
        </span>
      </header>
      <p className={cx(styles.pledgePositionAmount, 'mono')} data-testid="position-amount">
        {formatMoney(position.amount, amountDigitsShown)}
        <span className={moneyStyles.recordAsset}>NADI</span>
      </p>
      <dl className={styles.pledgeFacts}>
        <div>
          <dt>{t('pledge.position.rate')}</dt>
          {/* A joint position earns a share of a budget: its rate is today's estimate. */}
          <dd className="mono">{position.kind === 'joint' ? `≈ ${position.day_rate}%` : `${position.day_rate}%`}</dd>
        </div>
        <div>
          <dt>{t('pledge.position.power')}</dt>
          <dd className="mono">{formatPower(position.power)} P</dd>
        </div>
        <div>
          <dt>{t('pledge.position.interest')}</dt>
          <dd className={cx('mono', styles.pledgePositionInterest)} data-testid="position-interest">
            +{formatMoney(position.interest_total, amountDigitsShown)} NADI
          </dd>
        </div>
        <div>
          <dt>{t('pledge.position.epochs')}</dt>
          <dd className="mono">
            {position.end_epoch === null
              ? t('pledge.position.fromEpoch', { start: position.start_epoch })
              : t('pledge.position.epochRange', { start: position.start_epoch, end: position.end_epoch })}
          </dd>
        </div>
        <div>
          <dt>{t('pledge.position.buyTime')}</dt>
          <dd>{time(position.buy_time)}</dd>
        </div>
        {position.release_at ? (
          <div>
            <dt>{t('pledge.position.releaseTime')}</dt>
            <dd>{time(position.release_at)}</dd>
          </div>
        ) : null}
        {position.redeemed_at ? (
          <div>
            <dt>{t('pledge.position.redeemedAt')}</dt>
            <dd>{time(position.redeemed_at)}</dd>
          </div>
        ) : null}
      </dl>
      {view.isRedeemable ? (
        <div className={styles.pledgePositionActions}>
          <button type="button" className="btn btn--ghost btn--small" onClick={onRedeem} disabled={isRedeeming} data-testid="position-redeem">
            {isRedeeming ? t('pledge.redeem.redeeming') : t('pledge.redeem.submit')}
          </button>
        </div>
      ) : null}
    </article>
  );
}
