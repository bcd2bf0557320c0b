import { assetsQueryOptions } from '../../../lib/get-assets.ts';
import { queryClient } from '../../../lib/query-client.ts';

/** /wallet entered directly: the balances start beside the screen's code. */
export function prefetchWallet(): Promise<unknown> {
  return queryClient.prefetchQuery(assetsQueryOptions());
}
