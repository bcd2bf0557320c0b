import { queryClient } from '../../../lib/query-client.ts';

/** Every query of this feature starts with this key. */
export const walletQueryKey = 'wallet';

/** After money moved, every balance and record list of the wallet is out of date. */
export function invalidateWallet(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [walletQueryKey] });
}
