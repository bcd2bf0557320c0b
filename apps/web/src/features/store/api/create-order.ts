import { useMutation } from '@tanstack/react-query';
import type { RouteData } from '@nadi/api/route';
import type { StorePayAsset, StorePayMethod, storeRoutes } from '@nadi/api/store';
import { call } from '../../../lib/api-client.ts';
import { invalidateMining } from '../../../lib/invalidate-mining.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import { queryClient } from '../../../lib/query-client.ts';

export type CreateOrderResult = RouteData<typeof storeRoutes.createOrder>;

export interface CreateOrderBody {
  items: { product_id: number; quantity: number }[];
  pay_method: StorePayMethod;
  pay_asset: StorePayAsset;
  address_id: number;
  /** The quote's price for a NADI payment: another price now is QUOTE_EXPIRED. */
  price?: string;
  remark: string;
}

/**
 * Orders. The Idempotency-Key is the temporary order's request key (temp-order.ts): a submit
 * repeated without a change, after an answer that never came, answers the first order instead of
 * ordering again.
 */
export async function createOrder(body: CreateOrderBody, idempotencyKey: string): Promise<CreateOrderResult> {
  const { storeRoutes } = await import('@nadi/api/store');
  return call(storeRoutes.createOrder, body, { isSilent: true, idempotencyKey });
}

export function useCreateOrder() {
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: CreateOrderBody; idempotencyKey: string }) => createOrder(body, idempotencyKey),
    onSettled: () => {
      // After a refusal too: the stock, the balance or the price on screen may have been out of date.
      // The store's root key covers products, orders, quotes and addresses (helper 3's storeQueryKey).
      void queryClient.invalidateQueries({ queryKey: ['store'] });
      void invalidateWallet();
      // Paying with destroy quota spends what the mining screens show as quota.
      void invalidateMining();
    },
  });
}
