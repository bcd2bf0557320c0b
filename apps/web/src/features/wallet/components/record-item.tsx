import { useTranslation } from 'react-i18next';
import type { FundRecord } from '@nadi/api/wallet';
import { formatDateTime } from '../../../lib/format.ts';
import { formatMoney } from '../../../lib/money-format.ts';
import { langTags } from '../../../lib/langs.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { amountDigitsShown } from '../../../lib/money-format.ts';
import { recordTypeKey, signedAmountView } from '../record-format.ts';

/** One fund or income record: what it was, where, when, the signed amount and the balance after it. */
export function RecordItem({ record }: { record: FundRecord }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const amount = signedAmountView(record.amount);
  return (
    <article className="record card" data-testid="record-item">
      <div className="record__main">
        <h3 className="record__type">{t(recordTypeKey(record.type))}</h3>
        <p className="record__meta">{t(`accounts.${record.account}`)}</p>
        <time className="record__date" dateTime={record.created_at}>
          {formatDateTime(record.created_at, tag)}
        </time>
      </div>
      <div className="record__side">
        <p className={`record__amount record__amount--${amount.tone} mono`}>
          {amount.text}
          <span className="record__asset">{record.asset}</span>
        </p>
        <p className="record__balance">{t('records.balanceAfter', { amount: formatMoney(record.balance_after, amountDigitsShown), asset: record.asset })}</p>
      </div>
    </article>
  );
}
