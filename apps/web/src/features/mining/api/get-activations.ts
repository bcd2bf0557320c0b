import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { ActivationItem } from '@nadi/api/mining';
import { call } from '../../../lib/api-client.ts';
import { miningQueryKey } from '../../../lib/invalidate-mining.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';

/** A pending activation succeeds with the device's first heartbeat (every minute): read again this often while one waits. */
export const pendingRefetchMs = 10_000;

export async function getActivations({ page, signal }: { page: number; signal?: AbortSignal }) {
  const { miningRoutes } = await import('@nadi/api/mining');
  return call(miningRoutes.activations, { page, page_size: recordsPageSize }, { signal, isSilent: true });
}

export function activationsRefetchMs(pages: { list: Pick<ActivationItem, 'status'>[] }[] | undefined): number | false {
  return (pages ?? []).some((page) => page.list.some((item) => item.status === 'pending')) ? pendingRefetchMs : false;
}

export const activationsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [miningQueryKey, 'activations'],
    queryFn: ({ pageParam, signal }) => getActivations({ page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    refetchInterval: (query) => activationsRefetchMs(query.state.data?.pages),
    refetchOnWindowFocus: true,
  });

export function useActivations() {
  return useInfiniteQuery(activationsQueryOptions());
}
