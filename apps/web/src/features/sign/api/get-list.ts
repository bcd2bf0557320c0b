import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { SignRecord } from '@nadi/api/sign';
import { call } from '../../../lib/api-client.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';
import { signKeys } from './keys.ts';

export type { SignRecord };

export async function getSignList({ page, signal }: { page: number; signal?: AbortSignal }) {
  const { signRoutes } = await import('@nadi/api/sign');
  return call(signRoutes.list, { page, page_size: recordsPageSize }, { signal, isSilent: true });
}

export const signListQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: signKeys.list(),
    queryFn: ({ pageParam, signal }) => getSignList({ page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });

/** My sign-ins, newest first, ten a page. */
export function useSignList() {
  return useInfiniteQuery(signListQueryOptions());
}
