import { useMutation } from '@tanstack/react-query';
import type { miningRoutes } from '@nadi/api/mining';
import type { RouteData } from '@nadi/api/route';
import { call } from '../../../lib/api-client.ts';
import { invalidateMining } from '../../../lib/invalidate-mining.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import { useIntentKey } from '../../../lib/use-intent-key.ts';

export type DestroyResult = RouteData<typeof miningRoutes.destroy>;

export interface DestroyInput {
  /** NADI to destroy, canonical decimal string. */
  amount: string;
  /** The preview's reference price: another price now is QUOTE_EXPIRED. */
  price: string;
}

export async function destroy(input: DestroyInput, idempotencyKey: string): Promise<DestroyResult> {
  const { miningRoutes } = await import('@nadi/api/mining');
  return call(miningRoutes.destroy, input, { isSilent: true, idempotencyKey });
}

/** A retry of the same destroy after a lost answer repeats its Idempotency-Key (lib/use-intent-key.ts). */
export function useDestroy() {
  const intent = useIntentKey();
  return useMutation({
    mutationFn: (input: DestroyInput) => destroy(input, intent.keyFor(input)),
    onSettled: (_data, error) => {
      intent.settle(error);
      // After a failure too: the balance or the price shown may have been out of date.
      void invalidateMining();
      void invalidateWallet();
    },
  });
}
