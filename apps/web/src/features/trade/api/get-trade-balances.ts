import { useQuery } from '@tanstack/react-query';
import type { AssetsData } from '@nadi/api/wallet';
import { call, type CallOptions } from '../../../lib/api-client.ts';
import { walletQueryKey } from '../../../lib/invalidate-wallet.ts';

// The wallet's own assets query (same key, so one cache): the form reads the trade account from it.
export async function getAssets(options: CallOptions = {}): Promise<AssetsData> {
  const { walletRoutes } = await import('@nadi/api/wallet');
  return call(walletRoutes.assets, undefined, options);
}

export function useTradeAssets(isEnabled: boolean) {
  return useQuery({ queryKey: [walletQueryKey, 'assets'], queryFn: ({ signal }) => getAssets({ signal, isSilent: true }), enabled: isEnabled });
}
