import { useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';
import { ordersKey } from './keys.ts';

/** The caller's fills ("successful orders"), newest first. */
export async function getFills(page: number, signal?: AbortSignal) {
  const { marketRoutes } = await import('@nadi/api/market');
  return call(marketRoutes.fills, { symbol: 'NADI-USDT', page, page_size: recordsPageSize }, { signal, isSilent: true });
}

export function useFills(refetchMs: number | false) {
  return useInfiniteQuery({
    queryKey: [...ordersKey, 'fills'],
    queryFn: ({ pageParam, signal }) => getFills(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    refetchInterval: refetchMs,
  });
}
