import { queryClient } from './query-client.ts';

// Several features move money (wallet transfers, withdrawals); each invalidates the wallet's
// balances and records afterwards, so the key they share lives here.

/** Every query of the wallet feature starts with this key. */
export const walletQueryKey = 'wallet';

/** After money moved, every balance and record list of the wallet is out of date. */
export function invalidateWallet(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [walletQueryKey] });
}
