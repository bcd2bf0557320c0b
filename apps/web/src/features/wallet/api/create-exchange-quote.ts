import { useMutation } from '@tanstack/react-query';
import type { Asset, ExchangeQuoteData } from '@nadi/api/wallet';
import { call } from '../../../lib/api-client.ts';

export interface QuoteInput {
  from_asset: Asset;
  to_asset: Asset;
  /** Canonical decimal string (amount-check.ts). */
  amount: string;
}

/** A quote with the moment it arrived, from which its countdown runs (quote-countdown.ts). */
export interface ReceivedQuote {
  quote: ExchangeQuoteData;
  receivedAtMs: number;
}

export async function createExchangeQuote(input: QuoteInput): Promise<ReceivedQuote> {
  const { walletRoutes } = await import('@nadi/api/wallet');
  const quote = await call(walletRoutes.exchangeQuote, input, { isSilent: true });
  return { quote, receivedAtMs: Date.now() };
}

/** Asking for a price moves no money, so it needs no Idempotency-Key; each ask is a new quote. */
export function useExchangeQuote() {
  return useMutation({ mutationFn: createExchangeQuote });
}
