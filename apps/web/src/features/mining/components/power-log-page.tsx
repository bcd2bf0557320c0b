import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { powerLogTypes, type miningRoutes, type PowerLogType } from '@nadi/api/mining';
import type { RouteData } from '@nadi/api/route';
import { FilterSelect } from '../../../components/filter-select.tsx';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { usePowerLog } from '../api/get-power-log.ts';
import { formatPower, signedPowerView } from '../mining-format.ts';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import filterSelectStyles from '../../../components/filter-select.module.css';
import styles from './mining.module.css';

type PowerLogItem = RouteData<typeof miningRoutes.powerLog>['list'][number];

/** /mining/power-log: every change of my power (the power log of docs/product.md section 3), newest first, filtered by type. */
export default function PowerLogPage() {
  const { t } = useTranslation();
  const [type, setType] = useState<PowerLogType | undefined>();
  const log = usePowerLog(type);
  return (
    <div className={moneyStyles.moneyScreen}>
      <div className={filterSelectStyles.filters}>
        <FilterSelect
          label={t('records.filterType')}
          value={type}
          allLabel={t('records.allTypes')}
          options={powerLogTypes.map((value) => ({ value, label: t(`mining.powerLog.type.${value}`) }))}
          onChange={setType}
        />
      </div>
      <div className={moneyStyles.records}>
        <InfiniteList
          query={log}
          getKey={(item) => item.id}
          renderItem={(item) => <PowerLogRow item={item} />}
          errorTitle={t('mining.powerLog.loadFailed')}
          empty={
            type
              ? { title: t('records.emptyFiltered'), hint: t('records.emptyFilteredHint'), icon: 'bolt' }
              : { title: t('mining.powerLog.empty'), hint: t('mining.powerLog.emptyHint'), icon: 'bolt' }
          }
        />
      </div>
    </div>
  );
}

function PowerLogRow({ item }: { item: PowerLogItem }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const change = signedPowerView(item.change);
  return (
    <article className={cx(styles.record, moneyStyles.record, 'card')} data-testid="power-log-item">
      <div className={moneyStyles.recordMain}>
        <h3 className={moneyStyles.recordType}>{t(`mining.powerLog.type.${item.type}`)}</h3>
        <p className={cx(moneyStyles.recordMeta, 'mono')}>
          {formatPower(item.before)} → {formatPower(item.after)} P
        </p>
        <time className={moneyStyles.recordDate} dateTime={item.created_at}>
          {formatDateTime(item.created_at, tag)}
        </time>
      </div>
      <div className={moneyStyles.recordSide}>
        <p className={cx(moneyStyles.recordAmount, variant(moneyStyles, `record__amount--${change.tone}`), 'mono')}>
          {change.text}
          <span className={moneyStyles.recordAsset}>P</span>
        </p>
        {item.miner_id !== null ? <p className={moneyStyles.recordBalance}>{t('mining.powerLog.miner', { id: item.miner_id })}</p> : null}
      </div>
    </article>
  );
}
