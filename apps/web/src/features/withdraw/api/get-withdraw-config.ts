import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WithdrawConfigData } from '@nadi/api/onchain';
import { call, type CallOptions } from '../../../lib/api-client.ts';

/** Every query of this feature starts with this key. */
export const withdrawQueryKey = 'withdraw';

export async function getWithdrawConfig(options: CallOptions = {}): Promise<WithdrawConfigData> {
  const { onchainRoutes } = await import('@nadi/api/onchain');
  return call(onchainRoutes.withdrawConfig, undefined, options);
}

export const withdrawConfigQueryOptions = () =>
  queryOptions({
    queryKey: [withdrawQueryKey, 'config'],
    queryFn: ({ signal }) => getWithdrawConfig({ signal, isSilent: true }),
  });

export function useWithdrawConfig() {
  return useQuery(withdrawConfigQueryOptions());
}
