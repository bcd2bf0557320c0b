import { useMutation } from '@tanstack/react-query';
import type { pledgeRoutes } from '@nadi/api/pledge';
import type { RouteData } from '@nadi/api/route';
import { call } from '../../../lib/api-client.ts';
import { invalidateMining } from '../../../lib/invalidate-mining.ts';
import { invalidatePledge } from '../../../lib/invalidate-pledge.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';

export type RedeemResult = RouteData<typeof pledgeRoutes.redeem>;

/** Redeeming twice is harmless (the server answers the redeemed position), so no Idempotency-Key is needed. */
export async function redeem(id: number): Promise<RedeemResult> {
  const { pledgeRoutes } = await import('@nadi/api/pledge');
  return call(pledgeRoutes.redeem, { id }, { isSilent: true });
}

export function useRedeem() {
  return useMutation({
    mutationFn: redeem,
    onSettled: () => {
      // After a failure too: the position may have been redeemed elsewhere meanwhile.
      void invalidatePledge();
      void invalidateWallet();
      // The position's power ends.
      void invalidateMining();
    },
  });
}
