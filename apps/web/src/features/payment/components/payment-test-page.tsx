import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { PaymentOrder } from '@nadi/api/onchain';
import { PaymentStepper } from '../../../components/payment/lazy-payment-stepper.tsx';
import { Segmented } from '../../../components/segmented.tsx';
import { amountProblemKey, checkAmount, normaliseAmountInput } from '../../../lib/amount/amount-check.ts';
import { notify } from '../../../lib/notify.ts';
import { submitErrorText } from '../../../lib/submit-error.ts';
import { useCreateTestOrder, type TestOrderInput } from '../api/create-test-order.ts';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';

const testAssets: TestOrderInput['asset'][] = ['NADI', 'USDT'];

/** /payment/test (development and staging): create a test order, then pay it with the wallet stepper. */
export default function PaymentTestPage() {
  const [order, setOrder] = useState<PaymentOrder | null>(null);
  const { t } = useTranslation();
  if (!order) return <TestOrderForm onCreated={setOrder} />;
  return (
    <div className={moneyStyles.moneyScreen}>
      {/* A new order is a new payment: the stepper starts over. */}
      <PaymentStepper key={order.id} order={order} />
      <button type="button" className="btn btn--ghost btn--block" data-testid="payment-new-order" onClick={() => setOrder(null)}>
        {t('paymentTest.newOrder')}
      </button>
    </div>
  );
}

function TestOrderForm({ onCreated }: { onCreated: (order: PaymentOrder) => void }) {
  const { t } = useTranslation();
  const [asset, setAsset] = useState<TestOrderInput['asset']>('NADI');
  const [text, setText] = useState('');
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false);
  const create = useCreateTestOrder();
  // The wallet's balance is checked by the stepper (that is what it is for), not here.
  const check = checkAmount(text, null);
  const error = hasTriedSubmit && !check.ok ? t(amountProblemKey(check.problem)) : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setHasTriedSubmit(true);
    if (!check.ok || create.isPending) return;
    create.mutate({ asset, amount: check.text }, { onSuccess: onCreated, onError: (failure) => notify(submitErrorText(failure, t), 'fail') });
  }

  return (
    <form className={moneyStyles.moneyScreen} onSubmit={submit} noValidate>
      <p className={moneyStyles.formHint}>{t('paymentTest.intro')}</p>
      <Segmented label={t('paymentTest.asset')} value={asset} options={testAssets.map((value) => ({ value, label: value }))} onChange={setAsset} />
      <div className="amount-field">
        <div className={moneyStyles.amountFieldHead}>
          <label htmlFor="test-order-amount" className={moneyStyles.fieldLabel}>
            {t('amount.label')}
          </label>
        </div>
        <div className={cx(moneyStyles.amountFieldBox, error && moneyStyles.amountFieldBoxError)}>
          <input
            id="test-order-amount"
            data-testid="test-order-amount"
            className={cx(moneyStyles.amountFieldInput, 'mono')}
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('amount.placeholder')}
            value={text}
            onChange={(event) => {
              setText(normaliseAmountInput(event.target.value));
              setHasTriedSubmit(false);
            }}
            aria-invalid={error ? true : undefined}
          />
          <span className={moneyStyles.amountFieldAsset}>{asset}</span>
        </div>
        {error ? (
          <p className={moneyStyles.fieldError} role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn btn--block" data-testid="test-order-create" disabled={create.isPending}>
        {create.isPending ? t('paymentTest.creating') : t('paymentTest.create')}
      </button>
    </form>
  );
}
