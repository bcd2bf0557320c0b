import { useTranslation } from '../../../lib/translator.ts';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { useRechargeList } from '../api/get-recharge-list.ts';
import { DepositItem } from './deposit-item.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';

/** /recharge/list: deposits seen on chain, pending ones with their confirmations, newest first. */
export default function RechargeListPage() {
  const { t } = useTranslation();
  const deposits = useRechargeList();
  return (
    <div className={cx(moneyStyles.moneyScreen, moneyStyles.records)}>
      <InfiniteList
        query={deposits}
        getKey={(deposit) => deposit.id}
        renderItem={(deposit) => <DepositItem deposit={deposit} />}
        errorTitle={t('recharge.listFailed')}
        empty={{ title: t('recharge.listEmpty'), hint: t('recharge.listEmptyHint'), icon: 'deposit' }}
      />
    </div>
  );
}
