import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { ListedMinerKind } from '@nadi/api/mining';
import { call } from '../../../lib/api-client.ts';
import { miningQueryKey } from '../../../lib/invalidate-mining.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';

/** Devices report every minute; their online state and uptime on screen follow this closely. */
export const minersRefetchMs = 30_000;

export async function getMiners({ page, kind, signal }: { page: number; kind: ListedMinerKind | undefined; signal?: AbortSignal }) {
  const { miningRoutes } = await import('@nadi/api/mining');
  return call(miningRoutes.miners, { page, page_size: recordsPageSize, kind }, { signal, isSilent: true });
}

export const minersQueryOptions = (kind: ListedMinerKind | undefined) =>
  infiniteQueryOptions({
    queryKey: [miningQueryKey, 'miners', kind ?? 'all'],
    queryFn: ({ pageParam, signal }) => getMiners({ page: pageParam, kind, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    refetchInterval: minersRefetchMs,
    refetchOnWindowFocus: true,
  });

export function useMiners(kind: ListedMinerKind | undefined) {
  return useInfiniteQuery(minersQueryOptions(kind));
}
