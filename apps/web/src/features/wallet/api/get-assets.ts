import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AssetsData } from '@nadi/api/wallet';
import { call, type CallOptions } from '../../../lib/api-client.ts';
import { walletQueryKey } from '../../../lib/invalidate-wallet.ts';

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

export function useAssets() {
  return useQuery(assetsQueryOptions());
}
