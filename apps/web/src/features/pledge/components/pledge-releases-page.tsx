import { useTranslation } from '../../../lib/translator.ts';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { savingsName } from '../../../lib/savings-name.ts';
import { useReleases, type ReleaseRecord } from '../api/get-releases.ts';
import { releaseView } from '../position-view.ts';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './pledge.module.css';

/**
 * /pledge/releases: the release records (docs/product.md sections 3 and 4): release amount, release time,
 * release rate and buy time; a locked position waits for release until its term's last epoch
 * settles, then it is redeemed into the fund account.
 */
export default function PledgeReleasesPage() {
  const { t } = useTranslation();
  const releases = useReleases();
  const nameOf = (record: ReleaseRecord) => {
    const text = savingsName(record.kind, record.term_epochs);
    return t(text.key, text.params);
  };
  return (
    <div className={cx(moneyStyles.moneyScreen, 'pledge-releases')}>
      <p className={moneyStyles.formHint}>{t('pledge.release.intro')}</p>
      <div className={moneyStyles.records}>
        <InfiniteList
          query={releases}
          getKey={(record) => record.position_id}
          renderItem={(record) => <ReleaseCard record={record} name={nameOf(record)} />}
          errorTitle={t('pledge.release.loadFailed')}
          empty={{ title: t('pledge.release.empty'), hint: t('pledge.release.emptyHint'), icon: 'clock' }}
        />
      </div>
    </div>
  );
}

function ReleaseCard({ record, name }: { record: ReleaseRecord; name: string }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const view = releaseView(record.status);
  return (
    <article className={cx(styles.pledgePosition, 'card')} data-testid="release-record">
      <header className={styles.pledgeCardHead}>
        <h3 className={styles.pledgeCardName}>{name}</h3>
        <span className={cx(styles.statusChip, moneyStyles.statusChip, variant(styles, `pledge-status--${view.tone}`))} data-testid="release-status">
          {t(view.statusKey)}
        </span>
      </header>
      <dl className={styles.pledgeFacts}>
        <div>
          <dt>{t('pledge.release.amount')}</dt>
          <dd className="mono" data-testid="release-amount">
            {formatMoney(record.release_amount, amountDigitsShown)} NADI
          </dd>
        </div>
        <div>
          <dt>{t('pledge.release.rate')}</dt>
          <dd className="mono">{record.release_rate}%</dd>
        </div>
        <div>
          <dt>{t('pledge.release.time')}</dt>
          <dd className={styles.pledgeFactsTime}>{record.release_time ? formatDateTime(record.release_time, tag) : '—'}</dd>
        </div>
        <div>
          <dt>{t('pledge.release.buyTime')}</dt>
          <dd className={styles.pledgeFactsTime}>{formatDateTime(record.buy_time, tag)}</dd>
        </div>
      </dl>
    </article>
  );
}
