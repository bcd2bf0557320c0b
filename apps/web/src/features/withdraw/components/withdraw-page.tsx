import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import { formatAmount } from '@nadi/money/money';
import type { WithdrawConfigData, WithdrawRecord } from '@nadi/api/onchain';
import { AddressText } from '../../../components/address-text.tsx';
import { AmountField } from '../../../components/amount-field.tsx';
import { Icon } from '../../../components/icon.tsx';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { useAmountInput } from '../../../lib/amount/use-amount-input.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { notify } from '../../../lib/notify.ts';
import { showSubmitError } from '../../../lib/submit-error.ts';
import { useApplyWithdraw } from '../api/apply-withdraw.ts';
import { useWithdrawConfig } from '../api/get-withdraw-config.ts';
import { receiveUnits, withdrawLimits, withdrawProblemMessage } from '../withdraw-view.ts';
import { WithdrawItem } from './withdraw-item.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './withdraw.module.css';

/** /withdraw: NADI from the fund account to the signed-in wallet, after review. */
export default function WithdrawPage() {
  const { t } = useTranslation();
  const config = useWithdrawConfig();
  if (config.isPending) return <LoadingView />;
  if (config.isError) return <ErrorView title={t('withdraw.loadFailed')} error={config.error} onRetry={() => void config.refetch()} />;
  return <WithdrawForm config={config.data} />;
}

function WithdrawForm({ config }: { config: WithdrawConfigData }) {
  const { t } = useTranslation();
  const limits = withdrawLimits(config);
  const amount = useAmountInput(limits.availableUnits, { minUnits: limits.minUnits, feeUnits: limits.feeUnits });
  const apply = useApplyWithdraw();
  const [latest, setLatest] = useState<WithdrawRecord | null>(null);
  const show = (text: string) => formatMoney(text, amountDigitsShown);
  const problem = amount.problem ? withdrawProblemMessage(amount.problem, { min: show(config.min_amount), fee: show(config.fee), asset: config.asset }) : null;
  const receive = receiveUnits(amount.check, limits.feeUnits);

  function submit(event: FormEvent) {
    event.preventDefault();
    const check = amount.trySubmit();
    if (!check.ok || apply.isPending) return;
    apply.mutate(
      { amount: check.text },
      {
        onSuccess: (record) => {
          notify(t('withdraw.success', { amount: show(record.amount), asset: record.asset }), 'success');
          setLatest(record);
          amount.setText('');
        },
        onError: (error) => showSubmitError(error, amount.setServerError, t),
      },
    );
  }

  return (
    <form className={moneyStyles.moneyScreen} onSubmit={submit} noValidate>
      {latest ? (
        <section className={moneyStyles.records} aria-label={t('withdraw.latest')}>
          <h2 className={styles.withdrawLatestTitle}>{t('withdraw.latest')}</h2>
          <WithdrawItem record={latest} />
        </section>
      ) : null}
      <Destination config={config} />
      <AmountField
        id="withdraw-amount"
        testId="withdraw-amount"
        value={amount.text}
        onChange={amount.setText}
        asset={config.asset}
        availableUnits={limits.availableUnits}
        error={amount.serverError ?? (problem ? t(problem.key, problem.params) : null)}
        isDisabled={apply.isPending}
      />
      <Summary config={config} receive={receive} />
      <p className={moneyStyles.formHint}>{t('withdraw.hint', { blocks: config.confirmations_required })}</p>
      <button type="submit" className="btn btn--block" data-testid="withdraw-submit" disabled={apply.isPending}>
        {apply.isPending ? t('withdraw.submitting') : t('withdraw.submit')}
      </button>
      <Link to="/withdraw/list" className={moneyStyles.textLink}>
        {t('nav.withdrawList')}
        <Icon name="chevron" size={16} />
      </Link>
    </form>
  );
}

function Destination({ config }: { config: WithdrawConfigData }) {
  const { t } = useTranslation();
  return (
    <section className={cx(styles.destination, 'card')}>
      <div className={styles.destinationHead}>
        <span className={styles.destinationLabel}>{t('withdraw.destination')}</span>
        <span className={cx(moneyStyles.chip, moneyStyles.chipAccent)}>{config.chain_name}</span>
      </div>
      <AddressText address={config.to_address} className={styles.destinationAddress} testId="withdraw-destination" />
      <p className={styles.destinationHint}>{t('withdraw.destinationHint')}</p>
    </section>
  );
}

/** The fee, what arrives (the amount less the fee, once the amount is valid) and the minimum. */
function Summary({ config, receive }: { config: WithdrawConfigData; receive: bigint | null }) {
  const { t } = useTranslation();
  const show = (text: string) => formatMoney(text, amountDigitsShown);
  return (
    <dl className={cx(moneyStyles.facts, 'card')}>
      <div className={moneyStyles.factsRow}>
        <dt>{t('withdraw.fee')}</dt>
        <dd className="mono" data-testid="withdraw-fee">
          {show(config.fee)} {config.asset}
        </dd>
      </div>
      <div className={cx(moneyStyles.factsRow, !(receive === null) && styles.factsRowReceive)}>
        <dt>{t('withdraw.receive')}</dt>
        <dd className="mono" data-testid="withdraw-receive">
          {receive === null ? '—' : `${formatAmount(receive, { fractionDigitsMax: amountDigitsShown })} ${config.asset}`}
        </dd>
      </div>
      <div className={moneyStyles.factsRow}>
        <dt>{t('withdraw.minimum')}</dt>
        <dd className="mono">
          {show(config.min_amount)} {config.asset}
        </dd>
      </div>
    </dl>
  );
}
