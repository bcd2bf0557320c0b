import { useMutation } from '@tanstack/react-query';
import type { StoreOrderDetail } from '@nadi/api/store';
import { call } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { storeKeys } from './keys.ts';

/** Cancelling an unpaid order moves no money (a payment arriving later is credited to the fund account). */
export async function cancelOrder(id: number): Promise<StoreOrderDetail> {
  const { storeRoutes } = await import('@nadi/api/store');
  return call(storeRoutes.cancel, { id }, { isSilent: true });
}

/** The cancelled order replaces the one shown; the lists and the products (their stock came back) are read again. */
export function useCancelOrder() {
  return useMutation({
    mutationFn: cancelOrder,
    onSuccess: (order) => queryClient.setQueryData(storeKeys.order(order.id), order),
    onSettled: (_data, _error, id) => {
      void queryClient.invalidateQueries({ queryKey: storeKeys.orders() });
      void queryClient.invalidateQueries({ queryKey: storeKeys.order(id) });
      void queryClient.invalidateQueries({ queryKey: storeKeys.products() });
      void queryClient.invalidateQueries({ queryKey: storeKeys.product() });
    },
  });
}
