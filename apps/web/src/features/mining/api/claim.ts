import { useMutation } from '@tanstack/react-query';
import type { miningRoutes } from '@nadi/api/mining';
import type { RouteData } from '@nadi/api/route';
import { call } from '../../../lib/api-client.ts';
import { invalidateMining } from '../../../lib/invalidate-mining.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import { useIntentKey } from '../../../lib/use-intent-key.ts';

export type ClaimResult = RouteData<typeof miningRoutes.claim>;

export async function claim(idempotencyKey: string): Promise<ClaimResult> {
  const { miningRoutes } = await import('@nadi/api/mining');
  return call(miningRoutes.claim, {}, { isSilent: true, idempotencyKey });
}

/**
 * Claims everything released. The intent is "claim what is claimable now" (the amount shown), so a
 * retry after a lost answer for the same amount repeats the key and cannot pay twice.
 */
export function useClaim() {
  const intent = useIntentKey();
  return useMutation({
    mutationFn: (shownAmount: string) => claim(intent.keyFor({ claim: shownAmount })),
    onSettled: (_data, error) => {
      intent.settle(error);
      void invalidateMining();
      void invalidateWallet();
    },
  });
}
