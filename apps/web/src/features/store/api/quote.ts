import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { StorePayAsset, StorePayMethod, StoreQuote } from '@nadi/api/store';
import { call } from '../../../lib/api-client.ts';

export interface QuoteRequest {
  items: { product_id: number; quantity: number }[];
  pay_method: StorePayMethod;
  pay_asset: StorePayAsset;
}

/** A NADI amount follows the reference price, so a quote left on screen is renewed this often. */
export const quoteRefetchMs = 15_000;

/** What the order would charge, checked as ordering checks it (stock, limits); nothing is held. */
export async function quoteOrder(request: QuoteRequest, signal?: AbortSignal): Promise<StoreQuote> {
  const { storeRoutes } = await import('@nadi/api/store');
  return call(storeRoutes.quote, request, { signal, isSilent: true });
}

export const quoteQueryOptions = (request: QuoteRequest | null) =>
  queryOptions({
    queryKey: ['store', 'quote', request],
    queryFn: ({ signal }) => quoteOrder(request as QuoteRequest, signal),
    enabled: request !== null,
    staleTime: 0,
    // USDT totals do not move; the available balance is read again when the screen is refocused.
    refetchInterval: request?.pay_asset === 'NADI' ? quoteRefetchMs : false,
    refetchOnWindowFocus: true,
  });

/** The last quote stays on screen while the next one loads, so the figures do not flicker. */
export function useQuote(request: QuoteRequest | null) {
  return useQuery({ ...quoteQueryOptions(request), placeholderData: keepPreviousData });
}
