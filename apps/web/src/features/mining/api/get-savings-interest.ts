import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReceiveInfo } from '@nadi/api/pledge';
import { call } from '../../../lib/api-client.ts';
import { miningQueryKey } from '../../../lib/invalidate-mining.ts';

// The savings interest shown on /receive (financial/receiveInfo). Under the mining key, like the
// rest of /receive: a settled epoch and a balance push refresh it with the mining figures.

export async function getSavingsInterest(signal?: AbortSignal): Promise<ReceiveInfo> {
  const { pledgeRoutes } = await import('@nadi/api/pledge');
  return call(pledgeRoutes.receiveInfo, undefined, { signal, isSilent: true });
}

export const savingsInterestQueryOptions = () =>
  queryOptions({
    queryKey: [miningQueryKey, 'savings-interest'],
    queryFn: ({ signal }) => getSavingsInterest(signal),
    refetchOnWindowFocus: true,
  });

/** My claimable savings interest with its latest lines. */
export function useSavingsInterest() {
  return useQuery(savingsInterestQueryOptions());
}
