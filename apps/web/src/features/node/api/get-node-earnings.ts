import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';
import { nodeKeys } from './keys.ts';

export async function getNodeEarnings({ holdingId, page, signal }: { holdingId: number; page: number; signal?: AbortSignal }) {
  const { nodeRoutes } = await import('@nadi/api/node');
  return call(nodeRoutes.earnings, { page, page_size: recordsPageSize, holding_id: holdingId }, { signal, isSilent: true });
}

export const nodeEarningsQueryOptions = (holdingId: number) =>
  infiniteQueryOptions({
    queryKey: nodeKeys.earnings(holdingId),
    queryFn: ({ pageParam, signal }) => getNodeEarnings({ holdingId, page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });

/** One node's earnings per epoch, newest first. */
export function useNodeEarnings(holdingId: number) {
  return useInfiniteQuery(nodeEarningsQueryOptions(holdingId));
}
