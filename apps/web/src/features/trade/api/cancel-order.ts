import { useMutation, type InfiniteData } from '@tanstack/react-query';
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
    onSuccess: (order) => {
      // The answer is the order as it now stands: a finished one leaves the open list at once,
      // whatever the refetch below takes.
      if (order.status === 'pending' || order.status === 'partial') return;
      queryClient.setQueryData<InfiniteData<{ list: MarketOrder[]; total: number }>>([...ordersKey, 'current'], (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                list: page.list.filter((o) => o.id !== order.id),
                total: Math.max(0, page.total - (page.list.some((o) => o.id === order.id) ? 1 : 0)),
              })),
            }
          : data,
      );
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ordersKey });
      void queryClient.invalidateQueries({ queryKey: [tradeQueryKey, 'depth'] });
      void invalidateWallet();
    },
  });
}
