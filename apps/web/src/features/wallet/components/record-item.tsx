import { useTranslation } from '../../../lib/translator.ts';
import type { FundRecord } from '@nadi/api/wallet';
import { formatDateTime } from '../../../lib/format.ts';
import { formatMoney } from '../../../lib/money-format.ts';
import { langTags } from '../../../lib/langs.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { amountDigitsShown } from '../../../lib/money-format.ts';
import { recordTypeKey, signedAmountView } from '../record-format.ts';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';

/** One fund or income record: what it was, where, when, the signed amount and the balance after it. */
export function RecordItem({ record }: { record: FundRecord }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const amount = signedAmountView(record.amount);
  return (
    <article className={cx(moneyStyles.record, 'card')} data-testid="record-item">
      <div className={moneyStyles.recordMain}>
        <h3 className={moneyStyles.recordType} data-testid="record-type">
          {t(recordTypeKey(record.type))}
        </h3>
        <p className={moneyStyles.recordMeta}>{t(`accounts.${record.account}`)}</p>
        <time className={moneyStyles.recordDate} dateTime={record.created_at}>
          {formatDateTime(record.created_at, tag)}
        </time>
      </div>
      <div className={moneyStyles.recordSide}>
        <p className={cx(moneyStyles.recordAmount, variant(moneyStyles, `record__amount--${amount.tone}`), 'mono')} data-testid="record-amount">
          {amount.text}
          <span className={moneyStyles.recordAsset}>{record.asset}</span>
        </p>
        <p className={moneyStyles.recordBalance}>
          {t('records.balanceAfter', { amount: formatMoney(record.balance_after, amountDigitsShown), asset: record.asset })}
        </p>
      </div>
    </article>
  );
}
