import { useMutation } from '@tanstack/react-query';
import type { pledgeRoutes } from '@nadi/api/pledge';
import type { RouteData } from '@nadi/api/route';
import { call } from '../../../lib/api-client.ts';
import { invalidateMining } from '../../../lib/invalidate-mining.ts';
import { invalidatePledge } from '../../../lib/invalidate-pledge.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import { useIntentKey } from '../../../lib/use-intent-key.ts';

export type JoinResult = RouteData<typeof pledgeRoutes.join>;

export interface JoinInput {
  product_id: number;
  /** NADI to pledge, canonical decimal string. */
  amount: string;
}

export async function join(input: JoinInput, idempotencyKey: string): Promise<JoinResult> {
  const { pledgeRoutes } = await import('@nadi/api/pledge');
  return call(pledgeRoutes.join, input, { isSilent: true, idempotencyKey });
}

/**
 * Each attempt to pledge an amount in a product has its own Idempotency-Key, repeated only when
 * the same attempt is sent again after an unknown outcome (lib/use-intent-key.ts): a lost answer
 * can never pledge twice, and a second pledge on purpose is a new key.
 */
export function useJoin() {
  const intent = useIntentKey();
  return useMutation({
    mutationFn: (input: JoinInput) => join(input, intent.keyFor(input)),
    onSettled: (_data, error) => {
      intent.settle(error);
      // After a refusal too: the pool, the product's state or the balance shown may be out of date.
      void invalidatePledge();
      void invalidateWallet();
      // The pledge adds power.
      void invalidateMining();
    },
  });
}
