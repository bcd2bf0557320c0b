import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { PowerLogType } from '@nadi/api/mining';
import { call } from '../../../lib/api-client.ts';
import { miningQueryKey } from '../../../lib/invalidate-mining.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';

export async function getPowerLog({ page, type, signal }: { page: number; type: PowerLogType | undefined; signal?: AbortSignal }) {
  const { miningRoutes } = await import('@nadi/api/mining');
  return call(miningRoutes.powerLog, { page, page_size: recordsPageSize, type }, { signal, isSilent: true });
}

export const powerLogQueryOptions = (type: PowerLogType | undefined) =>
  infiniteQueryOptions({
    queryKey: [miningQueryKey, 'power-log', type ?? 'all'],
    queryFn: ({ pageParam, signal }) => getPowerLog({ page: pageParam, type, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });

export function usePowerLog(type: PowerLogType | undefined) {
  return useInfiniteQuery(powerLogQueryOptions(type));
}
