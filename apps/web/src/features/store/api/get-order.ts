import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StoreOrderDetail } from '@nadi/api/store';
import { call } from '../../../lib/api-client.ts';
import { storeKeys } from './keys.ts';

/** An unpaid chain order turns paid when the payment watcher credits it: read again this often meanwhile. */
export const unpaidRefetchMs = 15_000;

/** One of my orders (another user's id answers NOT_FOUND, like a missing one). */
export async function getOrder(id: number, signal?: AbortSignal): Promise<StoreOrderDetail> {
  const { storeRoutes } = await import('@nadi/api/store');
  return call(storeRoutes.orderDetail, { id }, { signal, isSilent: true });
}

export function orderRefetchMs(order: Pick<StoreOrderDetail, 'status'> | undefined): number | false {
  return order?.status === 'unpaid' ? unpaidRefetchMs : false;
}

export const orderQueryOptions = (id: number | null) =>
  queryOptions({
    queryKey: storeKeys.order(id ?? 0),
    queryFn: ({ signal }) => getOrder(id ?? 0, signal),
    enabled: id !== null,
    refetchInterval: (query) => orderRefetchMs(query.state.data),
    refetchOnWindowFocus: true,
  });

export function useOrder(id: number | null) {
  return useQuery(orderQueryOptions(id));
}
