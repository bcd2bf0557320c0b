import { useTranslation } from '../../../lib/translator.ts';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { useWithdrawList } from '../api/get-withdraw-list.ts';
import { WithdrawItem } from './withdraw-item.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';

/** /withdraw/list: the user's withdrawals with status, fee, transaction and reason, newest first. */
export default function WithdrawListPage() {
  const { t } = useTranslation();
  const withdrawals = useWithdrawList();
  return (
    <div className={cx(moneyStyles.moneyScreen, moneyStyles.records)}>
      <InfiniteList
        query={withdrawals}
        getKey={(record) => record.id}
        renderItem={(record) => <WithdrawItem record={record} />}
        errorTitle={t('withdraw.listFailed')}
        empty={{ title: t('withdraw.listEmpty'), hint: t('withdraw.listEmptyHint'), icon: 'withdraw' }}
      />
    </div>
  );
}
