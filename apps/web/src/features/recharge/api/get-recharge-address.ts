import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RechargeAddressData } from '@nadi/api/onchain';
import { call, type CallOptions } from '../../../lib/api-client.ts';

export const rechargeQueryKey = 'recharge';

export async function getRechargeAddress(options: CallOptions = {}): Promise<RechargeAddressData> {
  const { onchainRoutes } = await import('@nadi/api/onchain');
  return call(onchainRoutes.rechargeAddress, undefined, options);
}

export const rechargeAddressQueryOptions = () =>
  queryOptions({
    queryKey: [rechargeQueryKey, 'address'],
    queryFn: ({ signal }) => getRechargeAddress({ signal, isSilent: true }),
    // A user's deposit address never changes.
    staleTime: Infinity,
  });

export function useRechargeAddress() {
  return useQuery(rechargeAddressQueryOptions());
}
