import type { FormEvent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { useNavigate } from 'react-router';
import { formatAmount, parseAmount } from '@nadi/money/money';
import type { PledgeProduct } from '@nadi/api/pledge';
import { AmountField } from '../../../components/amount-field.tsx';
import { Icon } from '../../../components/icon.tsx';
import { useAmountInput } from '../../../lib/amount/use-amount-input.ts';
import { confirmDialog } from '../../../lib/confirm-dialog.ts';
import { useAssets } from '../../../lib/get-assets.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { notify } from '../../../lib/notify.ts';
import { formatPowerUnits } from '../../../lib/power-format.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { estimateSavings, type SavingsEstimate } from '../../../lib/reward-formulas.ts';
import { submitErrorText } from '../../../lib/submit-error.ts';
import { useJoin } from '../api/join.ts';
import { pledgeKeys } from '../api/keys.ts';
import { classifyJoinRefusal, joinLimits, joinProblem, joinProblemText } from '../pledge-form.ts';
import { termText, useSavingsName } from './product-parts.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './pledge.module.css';

interface Props {
  product: PledgeProduct;
  /** The product is the server's answer, not the stored copy shown meanwhile. */
  isFresh: boolean;
  isOpen: boolean;
}

/**
 * The amount, what it would earn (the calculator: the settlement's own formulas on this product's
 * rate) and the pledge, paid from the fund account. The calculator works for any amount typed,
 * also one the product or the balance would refuse.
 */
export function JoinForm({ product, isFresh, isOpen }: Props) {
  const { t } = useTranslation();
  const assets = useAssets();
  const fund = assets.data?.accounts.find((account) => account.kind === 'fund' && account.asset === 'NADI');
  const limits = joinLimits(product, assets.data ? (fund?.available ?? '0') : null);
  const amount = useAmountInput(limits.availableUnits, { minUnits: limits.minUnits });
  const problem = joinProblem(amount.check, amount.problem, limits);
  const submit = useJoinSubmit(product, amount.setServerError);
  const typed = parseAmount(amount.text);
  const estimate = typed.ok ? estimateSavings(product, typed.units) : null;
  const problemText = problem ? joinProblemText(problem, amount.text, limits) : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const check = amount.trySubmit();
    if (!check.ok || check.units > limits.roomUnits || !isOpen || !isFresh || submit.isBusy) return;
    void submit.run(check.text, estimate);
  }

  return (
    <form className={cx(styles.pledgeJoin, 'card')} onSubmit={onSubmit} noValidate aria-labelledby="pledge-join-title">
      <h2 id="pledge-join-title" className={styles.pledgeJoinTitle}>
        {t(isOpen ? 'pledge.join.title' : 'pledge.join.calculatorTitle')}
      </h2>
      <AmountField
        id="pledge-amount"
        testId="pledge-amount"
        value={amount.text}
        onChange={amount.setText}
        asset="NADI"
        availableUnits={limits.availableUnits}
        availableKey="pledge.join.available"
        error={amount.serverError ?? (problemText ? t(problemText.key, problemText.params) : null)}
        isDisabled={submit.isBusy}
      />
      <p className={moneyStyles.formHint}>{t('pledge.join.minimum', { amount: formatMoney(product.min_pledge, amountDigitsShown) })}</p>
      <EstimateFacts estimate={estimate} product={product} />
      {isOpen && !isFresh ? <p className={moneyStyles.formHint}>{t('pledge.join.refreshing')}</p> : null}
      {isOpen ? (
        <button type="submit" className="btn btn--block" data-testid="pledge-submit" disabled={submit.isBusy || !isFresh}>
          <Icon name="coins" size={18} />
          {submit.isBusy ? t('pledge.join.submitting') : t('pledge.join.submit')}
        </button>
      ) : null}
    </form>
  );
}

/** The calculator's figures for the amount typed. */
function EstimateFacts({ estimate, product }: { estimate: SavingsEstimate | null; product: PledgeProduct }) {
  const { t } = useTranslation();
  const show = (units: bigint) => (estimate ? `${formatAmount(units, { fractionDigitsMax: amountDigitsShown })} NADI` : '—');
  return (
    <div className={styles.pledgeEstimate} data-testid="pledge-estimate" aria-live="polite">
      <dl className={cx(styles.facts, moneyStyles.facts)}>
        <div className={cx(styles.factsRow, moneyStyles.factsRow, styles.factsRowReceive)}>
          <dt>{t('pledge.calc.perDay')}</dt>
          <dd className="mono" data-testid="pledge-per-day">
            {show(estimate?.perEpoch ?? 0n)}
          </dd>
        </div>
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('pledge.calc.perMonth')}</dt>
          <dd className="mono">{show(estimate?.perMonth ?? 0n)}</dd>
        </div>
        {product.term_epochs > 0 ? (
          <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
            <dt>{t('pledge.calc.perTerm', { days: product.term_epochs })}</dt>
            <dd className="mono" data-testid="pledge-per-term">
              {show(estimate?.perTerm ?? 0n)}
            </dd>
          </div>
        ) : null}
        <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
          <dt>{t('pledge.calc.power')}</dt>
          <dd className="mono" data-testid="pledge-power">
            {estimate ? `+${formatPowerUnits(estimate.centiPower)} P` : '—'}
          </dd>
        </div>
      </dl>
      <p className={styles.pledgeEstimateNote}>{t(product.kind === 'joint' ? 'pledge.calc.noteJoint' : 'pledge.calc.note')}</p>
    </div>
  );
}

/**
 * Confirms and sends the pledge, then answers what comes back: success → my positions; a short
 * balance → the dialog of docs/product.md section 8 with both amounts; amount problems under the field; a product that
 * closed meanwhile → read again, with the reason.
 */
function useJoinSubmit(product: PledgeProduct, setFieldError: (text: string | null) => void) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const join = useJoin();
  const name = useSavingsName();
  const productName = name(product.kind, product.term_epochs);

  async function showBalanceShort(current: string, required: string) {
    const show = (text: string) => `${formatMoney(text, amountDigitsShown)} NADI`;
    const isConfirmed = await confirmDialog({
      title: t('pledge.join.shortTitle'),
      content: (
        <dl className={cx(styles.facts, moneyStyles.facts, styles.pledgeDialogFacts)} data-testid="balance-short">
          <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
            <dt>{t('pledge.join.shortCurrent')}</dt>
            <dd className="mono">{show(current)}</dd>
          </div>
          <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
            <dt>{t('pledge.join.shortRequired')}</dt>
            <dd className="mono">{show(required)}</dd>
          </div>
        </dl>
      ),
      confirmText: t('pledge.join.topUp'),
      cancelText: t('common.close'),
    });
    if (isConfirmed) void navigate('/wallet');
  }

  function onRefused(error: unknown) {
    const refusal = classifyJoinRefusal(error);
    if (refusal.kind === 'balance-short') void showBalanceShort(refusal.current, refusal.required);
    else if (refusal.kind === 'field') setFieldError(typeof refusal.text === 'string' ? refusal.text : t(refusal.text.key, refusal.text.params));
    else {
      notify(refusal.kind === 'product' ? t(`errors.${refusal.reason}`) : submitErrorText(error, t), 'fail');
      if (refusal.kind === 'product') void queryClient.invalidateQueries({ queryKey: pledgeKeys.product(product.id) });
    }
  }

  async function run(amountText: string, estimate: SavingsEstimate | null) {
    const isConfirmed = await confirmDialog({
      title: t('pledge.join.confirmTitle'),
      content: <ConfirmFacts productName={productName} product={product} amountText={amountText} estimate={estimate} />,
      confirmText: t('pledge.join.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!isConfirmed) return;
    join.mutate(
      { product_id: product.id, amount: amountText },
      {
        onSuccess: (result) => {
          notify(t('pledge.join.success', { amount: formatMoney(result.position.amount, amountDigitsShown), name: productName }), 'success');
          void navigate('/pledge/records');
        },
        onError: onRefused,
      },
    );
  }

  return { run, isBusy: join.isPending };
}

/** What the pledge does, in the confirm dialog (rendered outside the app's providers: plain, translated nodes). */
function ConfirmFacts({
  productName,
  product,
  amountText,
  estimate,
}: {
  productName: string;
  product: PledgeProduct;
  amountText: string;
  estimate: SavingsEstimate | null;
}) {
  const { t } = useTranslation();
  return (
    <dl className={cx(styles.facts, moneyStyles.facts, styles.pledgeDialogFacts)} data-testid="pledge-confirm">
      <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('pledge.join.product')}</dt>
        <dd>{productName}</dd>
      </div>
      <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('pledge.join.amount')}</dt>
        <dd className="mono">{formatMoney(amountText, amountDigitsShown)} NADI</dd>
      </div>
      <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('pledge.calc.perDay')}</dt>
        <dd className="mono">{estimate ? `${formatAmount(estimate.perEpoch, { fractionDigitsMax: amountDigitsShown })} NADI` : '—'}</dd>
      </div>
      <div className={cx(styles.factsRow, moneyStyles.factsRow)}>
        <dt>{t('pledge.fact.term')}</dt>
        <dd>{product.term_epochs > 0 ? t('pledge.join.lockedFor', { days: product.term_epochs }) : termText(product, t)}</dd>
      </div>
    </dl>
  );
}
