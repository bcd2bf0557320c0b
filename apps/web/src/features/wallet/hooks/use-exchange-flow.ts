import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { Asset, AssetsData } from '@nadi/api/wallet';
import { isApiError } from '../../../lib/api-client.ts';
import { formatMoney } from '../../../lib/money-format.ts';
import { notify } from '../../../lib/notify.ts';
import { useConfirmExchange } from '../api/confirm-exchange.ts';
import { useExchangeQuote, type ReceivedQuote } from '../api/create-exchange-quote.ts';
import { availableUnits } from '../balances.ts';
import { isQuoteLive, quoteDeadlineMs } from '../quote-countdown.ts';
import { amountDigitsShown } from '../../../lib/money-format.ts';
import { showSubmitError } from '../../../lib/submit-error.ts';
import { useAmountInput } from '../../../lib/amount/use-amount-input.ts';
import { useNowUntil } from './use-now-until.ts';

/** The quote on screen: its deadline on this device's clock, and whether the server already called it expired. */
export interface ShownQuote extends ReceivedQuote {
  deadlineMs: number;
  isRefusedAsExpired: boolean;
}

function shownFrom(received: ReceivedQuote): ShownQuote {
  return { ...received, deadlineMs: quoteDeadlineMs(received.quote.expires_at, received.receivedAtMs), isRefusedAsExpired: false };
}

/**
 * The exchange screen's steps: an amount, a quote for it (counting down its 10 s), then confirm.
 * A quote holds for one amount and direction, so changing either drops it; an expired quote stays
 * on screen, greyed, with the offer to ask again.
 */
export function useExchangeFlow(data: AssetsData) {
  const { t } = useTranslation();
  const [fromAsset, setFromAsset] = useState<Asset>('NADI');
  const toAsset: Asset = fromAsset === 'NADI' ? 'USDT' : 'NADI';
  // Exchanges take from and pay into the fund account (docs/ledger.md).
  const available = availableUnits(data, 'fund', fromAsset);
  const amount = useAmountInput(available);
  const [shown, setShown] = useState<ShownQuote | null>(null);
  const quote = useExchangeQuote();
  const confirm = useConfirmExchange();
  const nowMs = useNowUntil(shown && !shown.isRefusedAsExpired ? shown.deadlineMs : null);
  const isExpired = shown !== null && (shown.isRefusedAsExpired || !isQuoteLive(shown.deadlineMs, nowMs));
  const isBusy = quote.isPending || confirm.isPending;

  function showFailure(error: unknown) {
    showSubmitError(error, amount.setServerError, t);
  }

  function changeAmount(text: string) {
    amount.setText(text);
    setShown(null);
  }

  function requestQuote() {
    const check = amount.trySubmit();
    if (!check.ok || isBusy) return;
    quote.mutate(
      { from_asset: fromAsset, to_asset: toAsset, amount: check.text },
      { onSuccess: (received) => setShown(shownFrom(received)), onError: showFailure },
    );
  }

  function onConfirmFailed(current: ShownQuote, error: unknown) {
    const reason = isApiError(error) ? error.failure.reason : null;
    if (reason === 'QUOTE_EXPIRED') {
      setShown({ ...current, isRefusedAsExpired: true });
      return;
    }
    if (reason === 'QUOTE_MISMATCH') setShown(null);
    showFailure(error);
  }

  function confirmQuote() {
    if (!shown || isExpired || isBusy) return;
    const current = shown;
    confirm.mutate(
      { quote_id: current.quote.quote_id, amount: current.quote.amount },
      {
        onSuccess: (result) => {
          notify(t('exchange.success', { amount: formatMoney(result.receive, amountDigitsShown), asset: result.to_asset }), 'success');
          changeAmount('');
        },
        onError: (error) => onConfirmFailed(current, error),
      },
    );
  }

  function swap() {
    setFromAsset(toAsset);
    changeAmount('');
  }

  const status = { isExpired, isBusy, isQuoting: quote.isPending, isConfirming: confirm.isPending };
  return { fromAsset, toAsset, available, amount, shown, nowMs, ...status, changeAmount, swap, requestQuote, confirmQuote };
}
