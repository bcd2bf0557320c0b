import { useMutation } from '@tanstack/react-query';
import type { MarketOrder } from '@nadi/api/market';
import { call } from '../../../lib/api-client.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { ordersKey, tradeQueryKey } from './keys.ts';

export async function cancelOrder(orderId: number): Promise<MarketOrder> {
  const { marketRoutes } = await import('@nadi/api/market');
  return call(marketRoutes.cancel, { order_id: orderId }, { isSilent: true });
}

export function useCancelOrder() {
  return useMutation({
    mutationFn: cancelOrder,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ordersKey });
      void queryClient.invalidateQueries({ queryKey: [tradeQueryKey, 'depth'] });
      void invalidateWallet();
    },
  });
}
