import { useTranslation } from 'react-i18next';
import type { WithdrawRecord } from '@nadi/api/onchain';
import { TxHash } from '../../../components/tx-hash.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { returnReason, withdrawStatusView } from '../withdraw-view.ts';

/** One withdrawal: what left the balance, the fee, its status, the transaction and why it came back. */
export function WithdrawItem({ record }: { record: WithdrawRecord }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const status = withdrawStatusView(record);
  const isConfirming = record.status === 1 && record.tx_hash !== null;
  const why = returnReason(record);
  return (
    <article className="record card withdraw-record" data-testid="withdraw-item">
      <div className="record__main">
        <h3 className="record__type">{t('withdraw.recordTitle')}</h3>
        <p className="record__meta">{t('withdraw.feeLine', { amount: formatMoney(record.fee, amountDigitsShown), asset: record.asset })}</p>
        {record.tx_hash ? <TxHash hash={record.tx_hash} /> : null}
        <time className="record__date" dateTime={record.created_at}>
          {formatDateTime(record.created_at, tag)}
        </time>
      </div>
      <div className="record__side">
        {/* A returned withdrawal took nothing in the end: its amount is not shown as a debit. */}
        <p className={`record__amount mono${status.isReturned ? ' record__amount--returned' : ' record__amount--debit'}`}>
          {'\u2212'}
          {formatMoney(record.amount, amountDigitsShown)}
          <span className="record__asset">{record.asset}</span>
        </p>
        <span className={`status-chip status-chip--${status.tone}`} data-testid="withdraw-status">
          {t(status.key)}
        </span>
        {isConfirming ? (
          <span className="record__balance">
            {t('withdraw.confirmations', { done: Math.min(record.confirmations, record.confirmations_required), required: record.confirmations_required })}
          </span>
        ) : null}
      </div>
      {status.isReturned ? (
        <p className="withdraw-record__reason" data-testid="withdraw-reason">
          {why ? t(why.key, why.params) : null} {t('withdraw.returned')}
        </p>
      ) : null}
    </article>
  );
}
