import { useMutation } from '@tanstack/react-query';
import type { Asset, TransferData } from '@nadi/api/wallet';
import { call } from '../../../lib/api-client.ts';
import { useIntentKey } from '../../../lib/use-intent-key.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';

export type TransferAccount = 'fund' | 'trade';

export interface TransferInput {
  asset: Asset;
  from: TransferAccount;
  to: TransferAccount;
  /** Canonical decimal string (amount-check.ts). */
  amount: string;
}

export async function transfer(input: TransferInput, idempotencyKey: string): Promise<TransferData> {
  const { walletRoutes } = await import('@nadi/api/wallet');
  return call(walletRoutes.transfer, input, { isSilent: true, idempotencyKey });
}

/** A retry of the same transfer after a lost answer repeats its Idempotency-Key (lib/use-intent-key.ts). */
export function useTransfer() {
  const intent = useIntentKey();
  return useMutation({
    mutationFn: (input: TransferInput) => transfer(input, intent.keyFor(input)),
    onSettled: (_data, error) => {
      intent.settle(error);
      // After a failure too: the balances shown may have been out of date (a refusal for lack of
      // funds), and a lost answer may hide a change that did happen.
      void invalidateWallet();
    },
  });
}
