import { useTranslation } from 'react-i18next';
import type { RechargeRecord } from '@nadi/api/onchain';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { TxHash } from '../../../components/tx-hash.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useRechargeList } from '../api/get-recharge-list.ts';
import { depositStatusView } from '../deposit-view.ts';
import '../../../components/money.css';
import './recharge.css';

/** /recharge/list: deposits seen on chain, pending ones with their confirmations, newest first. */
export default function RechargeListPage() {
  const { t } = useTranslation();
  const deposits = useRechargeList();
  return (
    <div className="money-screen records">
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

function DepositItem({ deposit }: { deposit: RechargeRecord }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const status = depositStatusView(deposit);
  return (
    <article className="record card" data-testid="recharge-item">
      <div className="record__main">
        <h3 className="record__type">{t('recharge.recordTitle')}</h3>
        <TxHash hash={deposit.tx_hash} />
        <time className="record__date" dateTime={deposit.created_at}>
          {formatDateTime(deposit.created_at, tag)}
        </time>
      </div>
      <div className="record__side">
        <p className={`record__amount mono${deposit.status === 'credited' ? ' record__amount--credit' : ''}`}>
          +{formatMoney(deposit.amount, amountDigitsShown)}
          <span className="record__asset">{deposit.asset}</span>
        </p>
        <span className={`status-chip status-chip--${status.tone}`} data-testid="recharge-status">
          {t(status.key, status.params)}
        </span>
      </div>
    </article>
  );
}
