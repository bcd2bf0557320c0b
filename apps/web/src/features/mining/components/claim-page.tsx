import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import { unitsOrZero } from '@nadi/money/money';
import type { VestingData } from '@nadi/api/mining';
import { Icon } from '../../../components/icon.tsx';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { notify } from '../../../lib/notify.ts';
import { useClaim } from '../api/claim.ts';
import { useVesting } from '../api/get-vesting.ts';
import { refusalText } from '../mining-errors.ts';
import { nextRelease } from '../vesting-chart.ts';
import { SavingsClaim } from './savings-claim.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';

/**
 * /receive: released mining income waiting to be claimed into the fund account, and what is still
 * locked; then the savings interest, claimed on its own (each part loads and fails on its own).
 */
export default function ClaimPage() {
  return (
    <>
      <MiningClaim />
      <SavingsClaim />
    </>
  );
}

function MiningClaim() {
  const { t } = useTranslation();
  const vesting = useVesting();
  if (vesting.isPending) return <LoadingView />;
  if (!vesting.data) return <ErrorView title={t('mining.vesting.loadFailed')} error={vesting.error} onRetry={() => void vesting.refetch()} />;
  return <ClaimView data={vesting.data} />;
}

function ClaimView({ data }: { data: VestingData }) {
  const { t } = useTranslation();
  const claim = useClaim();
  const hasClaimable = unitsOrZero(data.claimable) > 0n;
  const next = nextRelease(data.schedule);

  function submit() {
    if (!hasClaimable || claim.isPending) return;
    claim.mutate(data.claimable, {
      onSuccess: (result) => notify(t('mining.claim.success', { amount: formatMoney(result.amount, amountDigitsShown) }), 'success'),
      onError: (error) => {
        // Claimed elsewhere meanwhile (another tab, a double tap): the figures are read again.
        const isNothing = isApiError(error) && error.failure.reason === 'NOTHING_TO_CLAIM';
        notify(isNothing ? t('errors.NOTHING_TO_CLAIM') : refusalText(error, t), 'fail');
      },
    });
  }

  return (
    <div className={moneyStyles.moneyScreen}>
      <section className={cx(styles.claimCard, 'card')} aria-labelledby="claim-title">
        <h2 id="claim-title" className={styles.claimCardLabel}>
          {t('mining.claim.claimable')}
        </h2>
        <p className={cx(styles.claimCardValue, 'mono')} data-testid="claim-claimable">
          {formatMoney(data.claimable, amountDigitsShown)}
          <span className={styles.miningFigureUnit}>NADI</span>
        </p>
        <p className={styles.claimCardHint}>{hasClaimable ? t('mining.claim.hint') : t('mining.claim.nothingYet')}</p>
        <button type="button" className="btn btn--block" data-testid="claim-submit" onClick={submit} disabled={!hasClaimable || claim.isPending}>
          {claim.isPending ? t('mining.claim.claiming') : t('mining.claim.submit')}
        </button>
      </section>
      <dl className={cx(styles.facts, moneyStyles.facts, 'card')}>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('mining.vesting.locked')}</dt>
          <dd className="mono" data-testid="claim-locked">
            {formatMoney(data.locked, amountDigitsShown)} NADI
          </dd>
        </div>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('mining.claim.nextRelease')}</dt>
          <dd className="mono">
            {next ? t('mining.claim.nextReleaseValue', { amount: formatMoney(next.amount, amountDigitsShown), epoch: next.epoch }) : '—'}
          </dd>
        </div>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('mining.claim.claimed')}</dt>
          <dd className="mono">{formatMoney(data.claimed, amountDigitsShown)} NADI</dd>
        </div>
      </dl>
      <p className={moneyStyles.formHint}>{t('mining.claim.explain')}</p>
      <Link to="/profit" className={moneyStyles.textLink}>
        {t('mining.claim.schedule')}
        <Icon name="chevron" size={16} />
      </Link>
    </div>
  );
}
