import { useTranslation } from '../../../lib/translator.ts';
import type { RechargeRecord } from '@nadi/api/onchain';
import { TxHash } from '../../../components/tx-hash.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { depositStatusView } from '../deposit-view.ts';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';

/** One deposit: its amount, transaction, time and status (confirming n/3, credited, dropped). */
export function DepositItem({ deposit }: { deposit: RechargeRecord }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const status = depositStatusView(deposit);
  return (
    <article className={cx(moneyStyles.record, 'card')} data-testid="recharge-item">
      <div className={moneyStyles.recordMain}>
        <h3 className={moneyStyles.recordType}>{t('recharge.recordTitle')}</h3>
        <TxHash hash={deposit.tx_hash} />
        <time className={moneyStyles.recordDate} dateTime={deposit.created_at}>
          {formatDateTime(deposit.created_at, tag)}
        </time>
      </div>
      <div className={moneyStyles.recordSide}>
        <p className={cx(moneyStyles.recordAmount, 'mono', deposit.status === 'credited' && moneyStyles.recordAmountCredit)} data-testid="record-amount">
          +{formatMoney(deposit.amount, amountDigitsShown)}
          <span className={moneyStyles.recordAsset}>{deposit.asset}</span>
        </p>
        <span className={cx(moneyStyles.statusChip, variant(moneyStyles, `status-chip--${status.tone}`))} data-testid="recharge-status">
          {t(status.key, status.params)}
        </span>
      </div>
    </article>
  );
}
