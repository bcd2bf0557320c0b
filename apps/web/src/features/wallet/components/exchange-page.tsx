import { useTranslation } from '../../../lib/translator.ts';
import type { AssetsData } from '@nadi/api/wallet';
import { useExchangeFlow } from '../hooks/use-exchange-flow.ts';
import { AmountField } from '../../../components/amount-field.tsx';
import { AssetsGate } from './assets-gate.tsx';
import { QuoteCard } from './quote-card.tsx';
import { RouteCard } from './route-card.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';

export default function ExchangePage() {
  return <AssetsGate>{(data) => <ExchangeForm data={data} />}</AssetsGate>;
}

/** NADI ⇄ USDT: amount, then a quote with its countdown, then confirm (or a new quote once it expired). */
function ExchangeForm({ data }: { data: AssetsData }) {
  const { t } = useTranslation();
  const flow = useExchangeFlow(data);
  const { amount, shown } = flow;
  return (
    // Enter in the amount field asks for a quote; confirming always takes a deliberate tap.
    <form
      className={cx(moneyStyles.moneyScreen, 'wallet-form')}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!shown) flow.requestQuote();
      }}
    >
      <RouteCard from={flow.fromAsset} to={flow.toAsset} swapLabel={t('exchange.swap')} onSwap={flow.swap} isDisabled={flow.isBusy} />
      <AmountField
        id="exchange-amount"
        testId="exchange-amount"
        value={amount.text}
        onChange={flow.changeAmount}
        asset={flow.fromAsset}
        availableUnits={flow.available}
        availableKey="exchange.available"
        isDisabled={flow.isBusy}
        error={amount.serverError ?? (amount.errorKey ? t(amount.errorKey) : null)}
      />
      {shown ? (
        <QuoteCard
          quote={shown.quote}
          deadlineMs={shown.deadlineMs}
          nowMs={flow.nowMs}
          isExpired={flow.isExpired}
          isRequoting={flow.isQuoting}
          onRequote={flow.requestQuote}
        />
      ) : null}
      {shown ? (
        <button type="button" className="btn btn--block" data-testid="exchange-confirm" onClick={flow.confirmQuote} disabled={flow.isExpired || flow.isBusy}>
          {flow.isConfirming ? t('exchange.confirming') : t('exchange.confirm')}
        </button>
      ) : (
        <button type="submit" className="btn btn--block" data-testid="exchange-quote" disabled={flow.isBusy}>
          {flow.isQuoting ? t('exchange.quoting') : t('exchange.getQuote')}
        </button>
      )}
      <p className={moneyStyles.formHint}>{t('exchange.hint')}</p>
    </form>
  );
}
