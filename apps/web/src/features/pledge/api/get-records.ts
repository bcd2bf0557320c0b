import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { pledgePositionStatuses } from '@nadi/api/pledge';
import { call } from '../../../lib/api-client.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';
import { pledgeKeys } from './keys.ts';

export type PositionStatus = (typeof pledgePositionStatuses)[number];

/** `status` undefined is every position. */
export async function getRecords({ page, status, signal }: { page: number; status: PositionStatus | undefined; signal?: AbortSignal }) {
  const { pledgeRoutes } = await import('@nadi/api/pledge');
  return call(pledgeRoutes.records, { page, page_size: recordsPageSize, status }, { signal, isSilent: true });
}

export const recordsQueryOptions = (status: PositionStatus | undefined) =>
  infiniteQueryOptions({
    queryKey: pledgeKeys.records(status ?? 'all'),
    queryFn: ({ pageParam, signal }) => getRecords({ page: pageParam, status, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    refetchOnWindowFocus: true,
  });

/** My positions, newest first, ten a page. */
export function useRecords(status: PositionStatus | undefined) {
  return useInfiniteQuery(recordsQueryOptions(status));
}
