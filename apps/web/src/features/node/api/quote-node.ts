import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { NodeQuote } from '@nadi/api/node';
import { call } from '../../../lib/api-client.ts';
import type { PurchaseChoice } from '../purchase.ts';
import { nodeQueryKey } from './keys.ts';

/** A NADI amount follows the reference price, so a quote left on screen is renewed this often. */
export const quoteRefetchMs = 15_000;

/** What buying would charge, checked as buying checks it (sale open, quota, limit); nothing is held. */
export async function quoteNode(choice: PurchaseChoice, signal?: AbortSignal): Promise<NodeQuote> {
  const { nodeRoutes } = await import('@nadi/api/node');
  return call(nodeRoutes.quote, choice, { signal, isSilent: true });
}

export const nodeQuoteQueryOptions = (choice: PurchaseChoice | null) =>
  queryOptions({
    queryKey: [nodeQueryKey, 'quote', choice],
    queryFn: ({ signal }) => quoteNode(choice as PurchaseChoice, signal),
    enabled: choice !== null,
    staleTime: 0,
    // USDT amounts do not move; the available balance is read again when the screen is refocused.
    refetchInterval: choice?.pay_asset === 'NADI' ? quoteRefetchMs : false,
    refetchOnWindowFocus: true,
  });

/** The last quote stays on screen while the next one loads, so the figures do not flicker. */
export function useNodeQuote(choice: PurchaseChoice | null) {
  return useQuery({ ...nodeQuoteQueryOptions(choice), placeholderData: keepPreviousData });
}
