import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { formatAmount } from '@nadi/money/money';
import type { OrderSide, OrderType } from '@nadi/api/market';
import type { MarketRules } from '@nadi/api/market-rules';
import { normaliseAmountInput } from '../../../lib/amount/amount-check.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/notify.ts';
import { requestSignIn } from '../../../lib/sign-in-request.ts';
import { submitErrorText } from '../../../lib/submit-error.ts';
import { usePlaceOrder } from '../api/place-order.ts';
import { amountAsset, checkOrder, orderTotalUnits, percentAmount, percentChoices, type OrderProblem, type TradeBalances } from '../order-form.ts';
import { cx, variant } from '../../../lib/cx.ts';
import styles from './trade.module.css';

/** Server reasons about the order itself, shown under the field they concern rather than in a toast. */
const fieldReasons: Record<string, 'price' | 'amount'> = {
  ORDER_PRICE_INVALID: 'price',
  ORDER_QUANTITY_INVALID: 'amount',
  ORDER_BELOW_MIN_NOTIONAL: 'amount',
  INSUFFICIENT_BALANCE: 'amount',
};

interface Props {
  rules: MarketRules;
  balances: TradeBalances;
  isSignedIn: boolean;
  price: string;
  onPrice: (price: string) => void;
}

function show(units: bigint | null, digits = 8): string {
  return units === null ? '—' : formatAmount(units, { fractionDigitsMax: digits });
}

export function OrderFormPanel({ rules, balances, isSignedIn, price, onPrice }: Props) {
  const { t } = useTranslation();
  const [side, setSide] = useState<OrderSide>('buy');
  const [type, setType] = useState<OrderType>('limit');
  const [amount, setAmount] = useState('');
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false);
  const [serverProblem, setServerProblem] = useState<{ field: 'price' | 'amount'; text: string } | null>(null);
  const place = usePlaceOrder();
  const draft = { side, type, price, amount };
  const check = checkOrder(draft, rules, balances);
  const asset = amountAsset(draft);
  const total = orderTotalUnits(draft);
  const available = side === 'buy' ? balances.quoteUnits : balances.baseUnits;

  function edit(apply: () => void) {
    apply();
    setHasTriedSubmit(false);
    setServerProblem(null);
  }

  function problemText(field: 'price' | 'amount'): string | null {
    if (serverProblem?.field === field) return serverProblem.text;
    if (!hasTriedSubmit || check.ok) return null;
    const problem: OrderProblem | undefined = check.problems.find((p) => p.field === field);
    return problem ? t(problem.key, problem.params ?? {}) : null;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!isSignedIn) {
      requestSignIn();
      return;
    }
    setHasTriedSubmit(true);
    if (!check.ok || place.isPending) return;
    place.mutate(check.body, {
      onSuccess: () => {
        notify(t('trade.form.placed'), 'success');
        setAmount('');
        setHasTriedSubmit(false);
      },
      onError: (error) => {
        const reason = isApiError(error) ? error.failure.reason : null;
        const field = reason ? fieldReasons[reason] : undefined;
        if (field && isApiError(error)) setServerProblem({ field, text: error.displayMessage });
        else notify(submitErrorText(error, t), 'fail');
      },
    });
  }

  const priceError = problemText('price');
  const amountError = problemText('amount');
  return (
    <form className={styles.orderForm} onSubmit={submit} noValidate data-testid="order-form">
      <div className={styles.orderFormSides} role="radiogroup" aria-label={t('trade.form.side')}>
        {(['buy', 'sell'] as const).map((value) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={side === value}
            className={cx(styles.orderFormSide, variant(styles, `order-form__side--${value}`), side === value && styles.isActive)}
            onClick={() => edit(() => setSide(value))}
          >
            {t(`trade.side.${value}`)}
          </button>
        ))}
      </div>
      <div className={styles.orderFormTypes} role="radiogroup" aria-label={t('trade.form.type')}>
        {(['limit', 'market'] as const).map((value) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={type === value}
            className={cx(styles.orderFormType, type === value && styles.isActive)}
            onClick={() => edit(() => setType(value))}
          >
            {t(`trade.type.${value}`)}
          </button>
        ))}
      </div>
      {type === 'limit' ? (
        <TradeInput
          id="order-price"
          label={t('trade.form.price')}
          unit="USDT"
          value={price}
          onChange={(text) => edit(() => onPrice(text))}
          error={priceError}
        />
      ) : (
        <p className={styles.orderFormMarketPrice}>{t('trade.form.marketPrice')}</p>
      )}
      <TradeInput
        id="order-amount"
        label={asset === 'USDT' ? t('trade.form.spend') : t('trade.form.amount')}
        unit={asset}
        value={amount}
        onChange={(text) => edit(() => setAmount(text))}
        error={amountError}
      />
      <div className={styles.orderFormPercents}>
        {percentChoices.map((percent) => (
          <button
            key={percent}
            type="button"
            className={styles.orderFormPercent}
            data-testid={`percent-${percent}`}
            onClick={() => {
              const text = percentAmount(percent, draft, rules, balances);
              if (text !== null) edit(() => setAmount(text));
              else if (type === 'limit' && side === 'buy') notify(t('trade.form.priceFirst'));
            }}
          >
            {percent}%
          </button>
        ))}
      </div>
      <dl className={styles.orderFormFacts}>
        <div>
          <dt>{t('trade.form.available')}</dt>
          <dd className="mono" data-testid="order-available">
            {isSignedIn ? `${show(available, 4)} ${side === 'buy' ? 'USDT' : 'NADI'}` : '—'}
          </dd>
        </div>
        <div>
          <dt>{t('trade.form.total')}</dt>
          <dd className="mono" data-testid="order-total">
            {total === null ? '—' : `${show(total, 4)} USDT`}
          </dd>
        </div>
      </dl>
      <button
        type="submit"
        className={cx('btn btn--block', styles.orderFormSubmit, variant(styles, `order-form__submit--${side}`))}
        data-testid="order-submit"
        disabled={place.isPending}
      >
        {!isSignedIn ? t('trade.form.signIn') : place.isPending ? t('trade.form.placing') : t(`trade.form.submit.${side}`)}
      </button>
    </form>
  );
}

function TradeInput({
  id,
  label,
  unit,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  unit: string;
  value: string;
  onChange: (text: string) => void;
  error: string | null;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="trade-input">
      <div className={cx(styles.tradeInputBox, error && styles.tradeInputBoxError)}>
        <input
          id={id}
          data-testid={id}
          className={cx(styles.tradeInputField, 'mono')}
          inputMode="decimal"
          autoComplete="off"
          placeholder={label}
          aria-label={label}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          value={value}
          onChange={(event) => onChange(normaliseAmountInput(event.target.value))}
        />
        <span className={styles.tradeInputUnit}>{unit}</span>
      </div>
      {error ? (
        <p id={errorId} className={styles.tradeInputError} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
