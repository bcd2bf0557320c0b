import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { noticeRoutes } from '@nadi/api/notice';
import { call } from '../../../lib/api-client.ts';

/** docs/product.md section 9: lists load ten at a time. */
export const noticePageSize = 10;

export function getNotices({ page, signal }: { page: number; signal?: AbortSignal }) {
  return call(noticeRoutes.list, { page, page_size: noticePageSize }, { signal, isSilent: true });
}

export const noticesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['notice', 'list'],
    queryFn: ({ pageParam, signal }) => getNotices({ page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.page_size < last.total ? last.page + 1 : undefined),
  });

export function useNotices() {
  return useInfiniteQuery(noticesQueryOptions());
}
