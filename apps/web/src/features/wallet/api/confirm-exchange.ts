import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { useIntentKey } from '../../../lib/use-intent-key.ts';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';

export interface ConfirmInput {
  quote_id: string;
  /** The amount the quote was made for, as sent then. */
  amount: string;
}

export async function confirmExchange(input: ConfirmInput, idempotencyKey: string) {
  const { walletRoutes } = await import('@nadi/api/wallet');
  return call(walletRoutes.exchangeConfirm, input, { isSilent: true, idempotencyKey });
}

/** Confirming the same quote again after a lost answer repeats its Idempotency-Key. */
export function useConfirmExchange() {
  const intent = useIntentKey();
  return useMutation({
    mutationFn: (input: ConfirmInput) => confirmExchange(input, intent.keyFor(input)),
    onSettled: (_data, error) => {
      intent.settle(error);
      // After a failure too: the balances shown may have been out of date (a refusal for lack of
      // funds), and a lost answer may hide a change that did happen.
      void invalidateWallet();
    },
  });
}
