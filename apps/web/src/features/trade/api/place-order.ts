import { useMutation } from '@tanstack/react-query';
import type { MarketOrder } from '@nadi/api/market';
import { call } from '../../../lib/api-client.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useIntentKey } from '../../../lib/use-intent-key.ts';
import type { OrderBody } from '../order-form.ts';
import { ordersKey, tradeQueryKey } from './keys.ts';

export async function placeOrder(body: OrderBody & { client_order_id: string }): Promise<MarketOrder> {
  const { marketRoutes } = await import('@nadi/api/market');
  // The body goes as written (decimal strings); the contract's schema would turn amounts into bigint.
  return call(marketRoutes.place, body, { isSilent: true });
}

/**
 * One client_order_id per intent: the same order sent again after a lost answer carries the same
 * id, so the server returns the first order instead of placing a second one.
 */
export function usePlaceOrder() {
  const intent = useIntentKey();
  return useMutation({
    mutationFn: (body: OrderBody) => placeOrder({ ...body, client_order_id: intent.keyFor(body) }),
    onSettled: (_data, error) => {
      intent.settle(error);
      void queryClient.invalidateQueries({ queryKey: ordersKey });
      void queryClient.invalidateQueries({ queryKey: [tradeQueryKey, 'depth'] });
      void invalidateWallet();
    },
  });
}
