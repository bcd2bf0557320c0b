import { useMutation } from '@tanstack/react-query';
import type { pledgeRoutes } from '@nadi/api/pledge';
import type { RouteData } from '@nadi/api/route';
import { call } from '../../../lib/api-client.ts';
import { invalidateMining } from '../../../lib/invalidate-mining.ts';
import { invalidatePledge } from '../../../lib/invalidate-pledge.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import { useIntentKey } from '../../../lib/use-intent-key.ts';

export type SavingsClaimResult = RouteData<typeof pledgeRoutes.receive>;

export async function claimSavingsInterest(idempotencyKey: string): Promise<SavingsClaimResult> {
  const { pledgeRoutes } = await import('@nadi/api/pledge');
  return call(pledgeRoutes.receive, undefined, { isSilent: true, idempotencyKey });
}

/**
 * Claims all claimable savings interest (financial/receive). The intent is "claim the amount
 * shown", so a retry after a lost answer repeats the key and cannot claim twice.
 */
export function useClaimSavingsInterest() {
  const intent = useIntentKey();
  return useMutation({
    mutationFn: (shownAmount: string) => claimSavingsInterest(intent.keyFor({ claimSavings: shownAmount })),
    onSettled: (_data, error) => {
      intent.settle(error);
      void invalidateMining();
      void invalidatePledge();
      void invalidateWallet();
    },
  });
}
