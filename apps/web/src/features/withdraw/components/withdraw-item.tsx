import { useTranslation } from '../../../lib/translator.ts';
import type { WithdrawRecord } from '@nadi/api/onchain';
import { TxHash } from '../../../components/tx-hash.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { returnReason, withdrawStatusView } from '../withdraw-view.ts';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './withdraw.module.css';

/** One withdrawal: what left the balance, the fee, its status, the transaction and why it came back. */
export function WithdrawItem({ record }: { record: WithdrawRecord }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const status = withdrawStatusView(record);
  const isConfirming = record.status === 1 && record.tx_hash !== null;
  const why = returnReason(record);
  return (
    <article className={cx(moneyStyles.record, 'card', styles.withdrawRecord)} data-testid="withdraw-item">
      <div className={moneyStyles.recordMain}>
        <h3 className={moneyStyles.recordType}>{t('withdraw.recordTitle')}</h3>
        <p className={moneyStyles.recordMeta}>{t('withdraw.feeLine', { amount: formatMoney(record.fee, amountDigitsShown), asset: record.asset })}</p>
        {record.tx_hash ? <TxHash hash={record.tx_hash} /> : null}
        <time className={moneyStyles.recordDate} dateTime={record.created_at}>
          {formatDateTime(record.created_at, tag)}
        </time>
      </div>
      <div className={moneyStyles.recordSide}>
        {/* A returned withdrawal took nothing in the end: its amount is not shown as a debit. */}
        <p className={cx(moneyStyles.recordAmount, 'mono', status.isReturned ? styles.recordAmountReturned : moneyStyles.recordAmountDebit)}>
          {'\u2212'}
          {formatMoney(record.amount, amountDigitsShown)}
          <span className={moneyStyles.recordAsset}>{record.asset}</span>
        </p>
        <span className={cx(moneyStyles.statusChip, variant(moneyStyles, `status-chip--${status.tone}`))} data-testid="withdraw-status">
          {t(status.key)}
        </span>
        {isConfirming ? (
          <span className={moneyStyles.recordBalance}>
            {t('withdraw.confirmations', { done: Math.min(record.confirmations, record.confirmations_required), required: record.confirmations_required })}
          </span>
        ) : null}
      </div>
      {status.isReturned ? (
        <p className={styles.withdrawRecordReason} data-testid="withdraw-reason">
          {why ? t(why.key, why.params) : null} {t('withdraw.returned')}
        </p>
      ) : null}
    </article>
  );
}
