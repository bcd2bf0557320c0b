import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VestingData } from '@nadi/api/mining';
import { call, type CallOptions } from '../../../lib/api-client.ts';
import { miningQueryKey } from '../../../lib/invalidate-mining.ts';

export async function getVesting(options: CallOptions = {}): Promise<VestingData> {
  const { miningRoutes } = await import('@nadi/api/mining');
  return call(miningRoutes.vesting, undefined, options);
}

export const vestingQueryOptions = () =>
  queryOptions({
    queryKey: [miningQueryKey, 'vesting'],
    queryFn: ({ signal }) => getVesting({ signal, isSilent: true }),
    refetchOnWindowFocus: true,
  });

export function useVesting() {
  return useQuery(vestingQueryOptions());
}
