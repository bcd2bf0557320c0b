import { useMutation } from '@tanstack/react-query';
import type { WithdrawRecord } from '@nadi/api/onchain';
import { call } from '../../../lib/api-client.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useIntentKey } from '../../../lib/use-intent-key.ts';
import { withdrawQueryKey } from './get-withdraw-config.ts';

export interface WithdrawInput {
  /** Canonical decimal string (lib/amount/amount-check.ts): what leaves the balance, fee included. */
  amount: string;
}

export async function applyWithdraw(input: WithdrawInput, idempotencyKey: string): Promise<WithdrawRecord> {
  const { onchainRoutes } = await import('@nadi/api/onchain');
  return call(onchainRoutes.withdrawApply, input, { isSilent: true, idempotencyKey });
}

/** A retry of the same request after a lost answer repeats its Idempotency-Key (lib/use-intent-key.ts). */
export function useApplyWithdraw() {
  const intent = useIntentKey();
  return useMutation({
    mutationFn: (input: WithdrawInput) => applyWithdraw(input, intent.keyFor(input)),
    onSettled: (_data, error) => {
      intent.settle(error);
      // After a failure too: a refusal for lack of funds means the balance shown was out of date,
      // and a lost answer may hide a request that was made.
      void queryClient.invalidateQueries({ queryKey: [withdrawQueryKey] });
      void invalidateWallet();
    },
  });
}
