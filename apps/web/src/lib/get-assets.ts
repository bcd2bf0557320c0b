import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AssetsData } from '@nadi/api/wallet';
import { call, type CallOptions } from './api-client.ts';
import { walletQueryKey } from './invalidate-wallet.ts';

// GET /api/v1/wallet/assets, the balances of every account. The wallet shows them and the trade
// form reads the trade account from them: one query (one key, one cache entry) for both, here
// because features do not import each other. Its key starts with the wallet's, so invalidateWallet
// (after a transfer, an order, a balance push) refreshes it.

export async function getAssets(options: CallOptions = {}): Promise<AssetsData> {
  // The contract (and zod with it) loads with the first call, never with the app's route table.
  const { walletRoutes } = await import('@nadi/api/wallet');
  return call(walletRoutes.assets, undefined, options);
}

export const assetsQueryOptions = () =>
  queryOptions({
    queryKey: [walletQueryKey, 'assets'],
    queryFn: ({ signal }) => getAssets({ signal, isSilent: true }),
  });

/** The balances; `isEnabled` false (signed out) leaves the query idle. */
export function useAssets(isEnabled = true) {
  return useQuery({ ...assetsQueryOptions(), enabled: isEnabled });
}
