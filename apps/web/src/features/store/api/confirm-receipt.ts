import { useMutation } from '@tanstack/react-query';
import type { StoreOrderDetail } from '@nadi/api/store';
import { call } from '../../../lib/api-client.ts';
import { invalidateMining } from '../../../lib/invalidate-mining.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { storeKeys } from './keys.ts';

/** Confirming twice is harmless (the server answers the completed order), so no Idempotency-Key is needed. */
export async function confirmReceipt(id: number): Promise<StoreOrderDetail> {
  const { storeRoutes } = await import('@nadi/api/store');
  return call(storeRoutes.receipt, { id }, { isSilent: true });
}

/** The completed order replaces the one shown; every tab of the list and the mining screen's devices waiting for activation are read again. */
export function useConfirmReceipt() {
  return useMutation({
    mutationFn: confirmReceipt,
    onSuccess: (order) => queryClient.setQueryData(storeKeys.order(order.id), order),
    onSettled: (_data, _error, id) => {
      // After a failure too: the order may have completed by itself meanwhile.
      void queryClient.invalidateQueries({ queryKey: storeKeys.orders() });
      void queryClient.invalidateQueries({ queryKey: storeKeys.order(id) });
      void invalidateMining();
    },
  });
}
