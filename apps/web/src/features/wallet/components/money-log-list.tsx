import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { assets, recordTypes, type Asset, type RecordType } from '@nadi/api/wallet';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { useMoneyLog } from '../api/get-money-log.ts';
import { recordTypeKey } from '../record-format.ts';
import { FilterSelect } from '../../../components/filter-select.tsx';
import { RecordItem } from './record-item.tsx';
import moneyStyles from '../../../components/money.module.css';
import filterSelectStyles from '../../../components/filter-select.module.css';

/** The fund records (docs/product.md section 2: "fund records"), filtered by type and asset, newest first. */
export function MoneyLogList() {
  const { t } = useTranslation();
  const [type, setType] = useState<RecordType | undefined>();
  const [asset, setAsset] = useState<Asset | undefined>();
  const records = useMoneyLog({ type, asset });
  return (
    <div className={moneyStyles.records}>
      <div className={filterSelectStyles.filters}>
        <FilterSelect
          label={t('records.filterType')}
          value={type}
          allLabel={t('records.allTypes')}
          options={recordTypes.map((value) => ({ value, label: t(recordTypeKey(value)) }))}
          onChange={setType}
        />
        <FilterSelect
          label={t('records.filterAsset')}
          value={asset}
          allLabel={t('records.allAssets')}
          options={assets.map((value) => ({ value, label: value }))}
          onChange={setAsset}
        />
      </div>
      <InfiniteList
        query={records}
        getKey={(record) => record.id}
        renderItem={(record) => <RecordItem record={record} />}
        errorTitle={t('records.loadFailed')}
        empty={
          type || asset
            ? { title: t('records.emptyFiltered'), hint: t('records.emptyFilteredHint'), icon: 'list' }
            : { title: t('records.empty'), hint: t('records.emptyHint'), icon: 'list' }
        }
      />
    </div>
  );
}
