import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';
import { nodeKeys } from './keys.ts';

export async function getMyNodes({ page, signal }: { page: number; signal?: AbortSignal }) {
  const { nodeRoutes } = await import('@nadi/api/node');
  return call(nodeRoutes.mine, { page, page_size: recordsPageSize }, { signal, isSilent: true });
}

export const myNodesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: nodeKeys.mine(),
    queryFn: ({ pageParam, signal }) => getMyNodes({ page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    // What a node earned changes once an epoch settles; coming back to the screen shows it.
    refetchOnWindowFocus: true,
  });

/** My nodes, newest first, each with what it has earned. */
export function useMyNodes() {
  return useInfiniteQuery(myNodesQueryOptions());
}
