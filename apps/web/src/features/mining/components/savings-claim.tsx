import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import { unitsOrZero } from '@nadi/money/money';
import type { ReceiveInfo } from '@nadi/api/pledge';
import { Icon } from '../../../components/icon.tsx';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { notify } from '../../../lib/notify.ts';
import { savingsName } from '../../../lib/savings-name.ts';
import { useClaimSavingsInterest } from '../api/claim-savings-interest.ts';
import { useSavingsInterest } from '../api/get-savings-interest.ts';
import { refusalText } from '../mining-errors.ts';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';

/**
 * The savings interest on /receive (financial/receiveInfo, financial/receive): what the settled
 * epochs accrued on my positions, its latest lines, and the claim into the fund account.
 */
export function SavingsClaim() {
  const { t } = useTranslation();
  const info = useSavingsInterest();
  return (
    <section className={cx(moneyStyles.moneyScreen, styles.savingsClaim)} aria-labelledby="savings-claim-title" data-testid="savings-claim">
      <h2 id="savings-claim-title" className={styles.miningSectionTitle}>
        {t('mining.savings.title')}
      </h2>
      {info.isPending ? <LoadingView /> : null}
      {!info.isPending && !info.data ? <ErrorView title={t('mining.savings.loadFailed')} error={info.error} onRetry={() => void info.refetch()} /> : null}
      {info.data ? <SavingsClaimView data={info.data} /> : null}
    </section>
  );
}

function SavingsClaimView({ data }: { data: ReceiveInfo }) {
  const { t } = useTranslation();
  const claim = useClaimSavingsInterest();
  const hasClaimable = unitsOrZero(data.claimable) > 0n;

  function submit() {
    if (!hasClaimable || claim.isPending) return;
    claim.mutate(data.claimable, {
      onSuccess: (result) => notify(t('mining.savings.success', { amount: formatMoney(result.amount, amountDigitsShown) }), 'success'),
      onError: (error) => {
        // Claimed elsewhere meanwhile (another tab, a double tap): the figures are read again.
        const isNothing = isApiError(error) && error.failure.reason === 'NOTHING_TO_CLAIM';
        notify(isNothing ? t('errors.NOTHING_TO_CLAIM') : refusalText(error, t), 'fail');
      },
    });
  }

  return (
    <>
      <div className={cx(styles.claimCard, 'card')}>
        <p className={styles.claimCardLabel}>{t('mining.savings.claimable')}</p>
        <p className={cx(styles.claimCardValue, 'mono')} data-testid="savings-claimable">
          {formatMoney(data.claimable, amountDigitsShown)}
          <span className={styles.miningFigureUnit}>NADI</span>
        </p>
        <p className={styles.claimCardHint}>{hasClaimable ? t('mining.savings.hint') : t('mining.savings.nothingYet')}</p>
        <button type="button" className="btn btn--block" data-testid="savings-claim-submit" onClick={submit} disabled={!hasClaimable || claim.isPending}>
          {claim.isPending ? t('mining.claim.claiming') : t('mining.savings.submit')}
        </button>
      </div>
      <dl className={cx(styles.facts, moneyStyles.facts, 'card')}>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('mining.savings.claimed')}</dt>
          <dd className="mono">{formatMoney(data.claimed_total, amountDigitsShown)} NADI</dd>
        </div>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('mining.savings.lastSettled')}</dt>
          <dd className="mono">{data.last_settled_epoch === null ? '—' : `#${data.last_settled_epoch}`}</dd>
        </div>
      </dl>
      <InterestLines lines={data.lines} />
      <Link to="/pledge" className={moneyStyles.textLink}>
        {t('mining.savings.toSavings')}
        <Icon name="chevron" size={16} />
      </Link>
    </>
  );
}

/** The latest accrual lines, newest first: epoch, position, principal and rate, interest. */
function InterestLines({ lines }: { lines: ReceiveInfo['lines'] }) {
  const { t } = useTranslation();
  const nameOf = (line: ReceiveInfo['lines'][number]) => {
    const text = savingsName(line.kind, line.term_epochs);
    return t(text.key, text.params);
  };
  if (lines.length === 0) return <p className={moneyStyles.formHint}>{t('mining.savings.noLines')}</p>;
  return (
    <section className={moneyStyles.records} aria-label={t('mining.savings.lines')}>
      <h3 className={styles.savingsLinesTitle}>{t('mining.savings.lines')}</h3>
      <ul className={cx(styles.savingsLines, 'card')}>
        {lines.map((line) => (
          <li key={`${line.epoch}-${line.position_id}`} className={styles.savingsLine} data-testid="savings-line">
            <div className={styles.savingsLineMain}>
              <span className={styles.savingsLineName}>{nameOf(line)}</span>
              <span className={cx(styles.savingsLineMeta, 'mono')}>
                {t('mining.savings.lineMeta', { epoch: line.epoch, principal: formatMoney(line.principal, 4), rate: line.day_rate })}
              </span>
            </div>
            <span className={cx(styles.savingsLineAmount, 'mono')}>+{formatMoney(line.amount, amountDigitsShown)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
