import { useTranslation } from 'react-i18next';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { savingsName } from '../../../lib/savings-name.ts';
import { useReleases, type ReleaseRecord } from '../api/get-releases.ts';
import { releaseView } from '../position-view.ts';
import '../../../components/money.css';
import './pledge.css';

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
    <div className="money-screen pledge-releases">
      <p className="form-hint">{t('pledge.release.intro')}</p>
      <div className="records">
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
    <article className="pledge-position card" data-testid="release-record">
      <header className="pledge-card__head">
        <h3 className="pledge-card__name">{name}</h3>
        <span className={`status-chip pledge-status--${view.tone}`} data-testid="release-status">
          {t(view.statusKey)}
        </span>
      </header>
      <dl className="pledge-facts">
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
          <dd className="pledge-facts__time">{record.release_time ? formatDateTime(record.release_time, tag) : '—'}</dd>
        </div>
        <div>
          <dt>{t('pledge.release.buyTime')}</dt>
          <dd className="pledge-facts__time">{formatDateTime(record.buy_time, tag)}</dd>
        </div>
      </dl>
    </article>
  );
}
