import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import { incomeLineTypes, type IncomeEpochItem, type IncomeLineType } from '@nadi/api/mining';
import { FilterSelect } from '../../../components/filter-select.tsx';
import { Icon } from '../../../components/icon.tsx';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useIncome } from '../api/get-income.ts';
import { useVesting } from '../api/get-vesting.ts';
import { nextRelease } from '../vesting-chart.ts';
import { IncomeDetailSheet } from './income-detail-sheet.tsx';
import { VestingChart } from './vesting-chart.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import filterSelectStyles from '../../../components/filter-select.module.css';
import styles from './mining.module.css';

/** /profit: my mining income per settled epoch, its lines and split, and the locked income's release schedule. */
export default function IncomePage() {
  const { t } = useTranslation();
  const [type, setType] = useState<IncomeLineType | undefined>();
  const [opened, setOpened] = useState<IncomeEpochItem | null>(null);
  const income = useIncome(type);
  return (
    <div className={moneyStyles.moneyScreen}>
      <VestingSection />
      <div className={filterSelectStyles.filters}>
        <FilterSelect
          label={t('records.filterType')}
          value={type}
          allLabel={t('records.allTypes')}
          options={incomeLineTypes.map((value) => ({ value, label: t(`records.type.${value}`) }))}
          onChange={setType}
        />
      </div>
      <div className={moneyStyles.records}>
        <InfiniteList
          query={income}
          getKey={(item) => item.epoch}
          renderItem={(item) => <EpochIncomeCard item={item} onOpen={() => setOpened(item)} />}
          errorTitle={t('mining.income.loadFailed')}
          empty={
            type
              ? { title: t('records.emptyFiltered'), hint: t('records.emptyFilteredHint'), icon: 'coins' }
              : { title: t('mining.income.empty'), hint: t('mining.income.emptyHint'), icon: 'coins' }
          }
        />
      </div>
      <IncomeDetailSheet item={opened} onClose={() => setOpened(null)} />
    </div>
  );
}

function VestingSection() {
  const { t } = useTranslation();
  const vesting = useVesting();
  if (vesting.isPending) return <LoadingView />;
  if (!vesting.data) return <ErrorView title={t('mining.vesting.loadFailed')} error={vesting.error} onRetry={() => void vesting.refetch()} />;
  const { data } = vesting;
  const next = nextRelease(data.schedule);
  return (
    <section className={cx(styles.vesting, 'card')} aria-labelledby="vesting-title">
      <div className={styles.vestingHead}>
        <div>
          <h2 id="vesting-title" className={styles.vestingLabel}>
            {t('mining.vesting.locked')}
          </h2>
          <p className={cx(styles.vestingValue, 'mono')} data-testid="vesting-locked">
            {formatMoney(data.locked, 4)}
            <span className={styles.miningFigureUnit}>NADI</span>
          </p>
        </div>
        <Link to="/receive" className={styles.vestingClaim}>
          <span>{t('mining.vesting.claimable')}</span>
          <b className="mono">{formatMoney(data.claimable, 4)}</b>
          <Icon name="chevron" size={14} />
        </Link>
      </div>
      <p className={moneyStyles.formHint}>
        {next ? t('mining.vesting.next', { epoch: next.epoch, amount: formatMoney(next.amount, amountDigitsShown) }) : t('mining.vesting.nothingLocked')}
      </p>
      {data.schedule.length > 0 ? <VestingChart schedule={data.schedule} /> : null}
    </section>
  );
}

function EpochIncomeCard({ item, onOpen }: { item: IncomeEpochItem; onOpen: () => void }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const show = (text: string) => formatMoney(text, amountDigitsShown);
  return (
    <button type="button" className={cx(styles.epochIncome, 'card')} onClick={onOpen} data-testid="income-epoch">
      <span className={styles.epochIncomeHead}>
        <span className={styles.epochIncomeEpoch}>{t('mining.epoch.title', { epoch: item.epoch })}</span>
        <span className={cx(styles.epochIncomeTotal, 'mono')}>
          +{show(item.total)}
          <span className={moneyStyles.recordAsset}>NADI</span>
        </span>
      </span>
      <span className={styles.epochIncomeDate}>{formatDateTime(item.settled_at, tag)}</span>
      <span className={styles.epochIncomeLines}>
        {item.lines.map((line) => (
          <span key={line.type} className={cx(styles.epochIncomeLine, line.type === 'income_reduction' && styles.epochIncomeLineReduction)}>
            <span>{t(`records.type.${line.type}`)}</span>
            <span className="mono">
              {line.type === 'income_reduction' ? '\u2212' : ''}
              {show(line.amount)}
            </span>
          </span>
        ))}
      </span>
      <span className={styles.epochIncomeSplit}>
        <span>
          {t('mining.income.immediate')} <b className="mono">{show(item.immediate)}</b>
        </span>
        <span>
          {t('mining.income.locked')} <b className="mono">{show(item.locked)}</b>
        </span>
        <span>
          {t('mining.income.released')} <b className="mono">{show(item.released)}</b>
        </span>
      </span>
      <span className={styles.epochIncomeMore}>
        {t('mining.income.formula')}
        <Icon name="chevron" size={14} />
      </span>
    </button>
  );
}
