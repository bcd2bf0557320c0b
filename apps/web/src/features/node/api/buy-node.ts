import { useMutation } from '@tanstack/react-query';
import type { nodeRoutes } from '@nadi/api/node';
import type { RouteData } from '@nadi/api/route';
import { call } from '../../../lib/api-client.ts';
import { invalidateMining } from '../../../lib/invalidate-mining.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import { queryClient } from '../../../lib/query-client.ts';
import type { NodeBuyRequest } from '../purchase.ts';
import { nodeQueryKey } from './keys.ts';

export type NodeBuyResult = RouteData<typeof nodeRoutes.buy>;

/**
 * Buys one node. The Idempotency-Key is the purchase attempt's (purchase-attempt.ts): a submit
 * repeated after an answer that never came answers the first purchase instead of buying again.
 */
export async function buyNode(body: NodeBuyRequest, idempotencyKey: string): Promise<NodeBuyResult> {
  const { nodeRoutes } = await import('@nadi/api/node');
  return call(nodeRoutes.buy, body, { isSilent: true, idempotencyKey });
}

/** After a purchase, and after a refusal too: the quota, the limit, the balance or the price on screen may have been out of date. */
export function invalidateAfterPurchase(): void {
  void queryClient.invalidateQueries({ queryKey: [nodeQueryKey] });
  void invalidateWallet();
  // A node brings gift power and a miner; paying with destroy quota spends what mining shows as quota.
  void invalidateMining();
  // The user centre's T{level} badge.
  void queryClient.invalidateQueries({ queryKey: ['user', 'info'] });
}

export function useBuyNode() {
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: NodeBuyRequest; idempotencyKey: string }) => buyNode(body, idempotencyKey),
    onSettled: invalidateAfterPurchase,
  });
}
