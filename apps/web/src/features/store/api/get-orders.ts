import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { orderPageSize, type OrderTab } from '@nadi/api/store';
import { call } from '../../../lib/api-client.ts';
import { nextPage } from '../../../lib/paging.ts';
import { storeKeys } from './keys.ts';

/** `tab` undefined is the "all" tab (no status filter). */
export async function getOrders({ page, tab, signal }: { page: number; tab: OrderTab | undefined; signal?: AbortSignal }) {
  const { storeRoutes } = await import('@nadi/api/store');
  return call(storeRoutes.orderList, { page, page_size: orderPageSize, status: tab }, { signal, isSilent: true });
}

export const ordersQueryOptions = (tab: OrderTab | undefined) =>
  infiniteQueryOptions({
    queryKey: storeKeys.orders(tab ?? 'all'),
    queryFn: ({ pageParam, signal }) => getOrders({ page: pageParam, tab, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    // Shipping happens on the operator's side: coming back to the app shows it.
    refetchOnWindowFocus: true,
  });

/** My orders, newest first, ten a page (docs/product.md section 9). */
export function useOrders(tab: OrderTab | undefined) {
  return useInfiniteQuery(ordersQueryOptions(tab));
}
