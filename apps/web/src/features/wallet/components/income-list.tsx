import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { assets, incomeRecordTypes } from '@nadi/api/wallet';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { formatMoney } from '../../../lib/money-format.ts';
import { useIncomeList, type IncomeType } from '../api/get-income-list.ts';
import { amountDigitsShown } from '../../../lib/money-format.ts';
import { recordTypeKey } from '../record-format.ts';
import { FilterSelect } from '../../../components/filter-select.tsx';
import { RecordItem } from './record-item.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import filterSelectStyles from '../../../components/filter-select.module.css';
import styles from './wallet.module.css';

/** Income records (docs/product.md section 2: "income records") with the total earned per asset for the chosen type. */
export function IncomeList() {
  const { t } = useTranslation();
  const [type, setType] = useState<IncomeType | undefined>();
  const income = useIncomeList(type);
  // Every page carries the same totals; the first page's are shown as soon as it arrives.
  const totals = income.data?.pages[0]?.totals;
  return (
    <div className={moneyStyles.records}>
      {totals ? (
        <section className={cx(styles.incomeTotals, 'card')} aria-label={t('records.incomeTotals')}>
          <h2 className={styles.incomeTotalsTitle}>{t('records.incomeTotals')}</h2>
          <dl className={styles.incomeTotalsGrid}>
            {assets.map((asset) => (
              <div key={asset} className={styles.incomeTotalsItem}>
                <dt>{asset}</dt>
                <dd className="mono">{formatMoney(totals.find((total) => total.asset === asset)?.amount ?? '0', amountDigitsShown)}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
      <div className={filterSelectStyles.filters}>
        <FilterSelect
          label={t('records.filterType')}
          value={type}
          allLabel={t('records.allTypes')}
          options={incomeRecordTypes.map((value) => ({ value, label: t(recordTypeKey(value)) }))}
          onChange={setType}
        />
      </div>
      <InfiniteList
        query={income}
        getKey={(record) => record.id}
        renderItem={(record) => <RecordItem record={record} />}
        errorTitle={t('records.incomeLoadFailed')}
        empty={
          type
            ? { title: t('records.emptyFiltered'), hint: t('records.emptyFilteredHint'), icon: 'coins' }
            : { title: t('records.incomeEmpty'), hint: t('records.incomeEmptyHint'), icon: 'coins' }
        }
      />
    </div>
  );
}
