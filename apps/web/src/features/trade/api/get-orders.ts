import { useInfiniteQuery } from '@tanstack/react-query';
import type { MarketOrder } from '@nadi/api/market';
import { call } from '../../../lib/api-client.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';
import { ordersKey } from './keys.ts';

export type OrdersTab = 'current' | 'history';

/** Open orders (pending, partial) or finished ones (filled, cancelled), newest first. */
export async function getOrders(tab: OrdersTab, page: number, signal?: AbortSignal) {
  const { marketRoutes } = await import('@nadi/api/market');
  const route = tab === 'current' ? marketRoutes.currentOrders : marketRoutes.historyOrders;
  return call(route, { symbol: 'NADI-USDT', page, page_size: recordsPageSize }, { signal, isSilent: true });
}

export function useOrders(tab: OrdersTab, refetchMs: number | false) {
  return useInfiniteQuery({
    queryKey: [...ordersKey, tab],
    queryFn: ({ pageParam, signal }) => getOrders(tab, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    refetchInterval: refetchMs,
  });
}

export type { MarketOrder };
