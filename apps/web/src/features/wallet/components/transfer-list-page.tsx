import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { assets, type Asset, type TransferData } from '@nadi/api/wallet';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { formatMoney } from '../../../lib/money-format.ts';
import { langTags } from '../../../lib/langs.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useTransferList } from '../api/get-transfer-list.ts';
import { amountDigitsShown } from '../../../lib/money-format.ts';
import { Segmented } from '../../../components/segmented.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';

export default function TransferListPage() {
  const { t } = useTranslation();
  const [asset, setAsset] = useState<Asset | 'all'>('all');
  const transfers = useTransferList(asset === 'all' ? undefined : asset);
  const options = [{ value: 'all' as const, label: t('records.allAssets') }, ...assets.map((value) => ({ value, label: value }))];
  return (
    <div className={cx(moneyStyles.moneyScreen, moneyStyles.records)}>
      <Segmented label={t('records.filterAsset')} value={asset} options={options} onChange={setAsset} />
      <InfiniteList
        query={transfers}
        getKey={(transfer) => transfer.id}
        renderItem={(transfer) => <TransferItem transfer={transfer} />}
        errorTitle={t('transfer.listFailed')}
        empty={{ title: t('transfer.listEmpty'), hint: t('transfer.listEmptyHint'), icon: 'transfer' }}
      />
    </div>
  );
}

function TransferItem({ transfer }: { transfer: TransferData }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  return (
    <article className={cx(moneyStyles.record, 'card')} data-testid="record-item">
      <div className={moneyStyles.recordMain}>
        <h3 className={moneyStyles.recordType}>{t('transfer.direction', { from: t(`accounts.${transfer.from}`), to: t(`accounts.${transfer.to}`) })}</h3>
        <time className={moneyStyles.recordDate} dateTime={transfer.created_at}>
          {formatDateTime(transfer.created_at, tag)}
        </time>
      </div>
      <div className={moneyStyles.recordSide}>
        <p className={cx(moneyStyles.recordAmount, 'mono')}>
          {formatMoney(transfer.amount, amountDigitsShown)}
          <span className={moneyStyles.recordAsset}>{transfer.asset}</span>
        </p>
      </div>
    </article>
  );
}
